//! The merchant dashboard over HTTP, on its own listener beside the API: every guard (no
//! session, role, CSRF token, origin, lock-out, expiry, logout), what a viewer can and cannot
//! do, refunds through the confirmation step with a double submit, the refund ceiling, the
//! audit log, and the payments list's filters. Each scenario runs on SQLite and Postgres.

mod captures;
mod guards;
mod login;
mod overview;
mod pages;
mod refunds;
mod review;
mod support;
