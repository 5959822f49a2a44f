//! The gateway emulator (checkout-sandbox) against the gateway contract: payments, 3-D Secure,
//! adjustments, subscriptions, faults, auth, validation, webhooks, the control API; and the
//! demo shop that runs beside it.

mod acs_page;
mod adjust;
mod auth;
mod control;
mod demo_shop;
mod faults;
mod payments;
pub mod subscriptions;
pub mod support;
mod three_ds;
mod three_ds_requests;
mod validation;
mod webhooks;
