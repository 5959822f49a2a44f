//! The merchant dashboard over HTTP, on its own listener beside the API: every guard (no
//! session, role, CSRF token, origin, lock-out, expiry, logout), what a viewer can and cannot
//! do, refunds through the confirmation step with a double submit, the refund ceiling, the
//! audit log, the payments list's filters, the subscriptions pages (filters, pages, pause,
//! resume, cancel), the webhook pages (health, redelivery of one event or of a range's
//! given-up deliveries, secret rotation), two-factor sign-in and its reset from the command
//! line, and the sweep of expired sessions. Each scenario runs on SQLite and Postgres.

mod blocks;
mod captures;
mod crowd;
mod defence;
mod filters;
mod found_subscriptions;
mod guards;
pub(crate) mod input_limits;
mod links;
mod lock_race;
mod login;
mod login_flood;
mod overview;
mod pages;
mod refunds;
mod require_2fa;
mod reset_2fa;
mod review;
mod review_attach;
mod risk_rules;
mod sandbox_admin;
mod subscriptions;
pub(crate) mod support;
mod sweep;
mod totp_support;
mod two_factor;
mod users_commands;
mod webhook_resends;
mod webhook_rotation;
mod webhooks;
