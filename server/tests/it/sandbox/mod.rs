//! The gateway emulator (checkout-sandbox) against the gateway contract: payments, 3-D Secure,
//! adjustments, subscriptions, faults, auth, validation, webhooks, the control API; and the
//! demo shop that runs beside it.

mod adjust;
mod auth;
mod control;
mod demo_shop;
mod faults;
mod payments;
pub mod subscriptions;
pub mod support;
mod three_ds;
mod validation;
mod webhooks;
