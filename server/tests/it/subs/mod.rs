//! Subscriptions through checkout-server: the merchant's lifecycle calls, the customer's
//! self-service, and writes that must not overtake one another.

mod customer;
pub mod found_at_gateway;
mod lifecycle;
mod lost_signup;
mod lost_signup_resumed;
mod paid_periods;
mod samples;
mod stale_poll;
