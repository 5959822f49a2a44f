//! Events to the shop: what the store's outbox holds, rendered as the merchant API's objects
//! ([`render`]), the types there are ([`types`]), the shop's endpoints ([`endpoints`]), and
//! delivered to them by the background worker [`deliver`]: signed ([`sign`], Standard
//! Webhooks), posted by a client that reaches only public addresses ([`client`], [`target`]),
//! retried with [`backoff`].

pub mod backoff;
pub mod client;
pub mod deliver;
pub mod endpoints;
pub mod render;
pub mod sign;
pub mod target;
pub mod types;

pub use render::{EventBody, render};
