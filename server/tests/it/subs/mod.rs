//! Subscriptions through checkout-server: the merchant's lifecycle calls and the customer's
//! self-service.

mod customer;
mod lifecycle;
