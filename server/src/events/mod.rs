//! Events to the shop: what the store's outbox holds, rendered as the merchant API's objects
//! ([`render`]), and delivered to the shop's endpoints.

pub mod render;
pub mod target;

pub use render::{EventBody, render};
