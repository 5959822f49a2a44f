//! Events to the shop: what the store's outbox holds, rendered as the merchant API's objects
//! ([`mod@render`]), the types there are ([`types`]), the shop's endpoints ([`endpoints`], and the
//! one in configuration: [`configured`]), and delivered to them by the background worker
//! [`deliver`] (with its [`services`], looped by [`run`], its attempts written by
//! [`recorder`], its passes told by [`report`]): signed ([`sign`], Standard Webhooks), posted
//! by a client that reaches only public addresses ([`client`], by
//! [`crate::webhook_rules::target`]), retried with [`backoff`].

pub mod backoff;
pub mod client;
pub mod configured;
pub mod deliver;
pub mod endpoints;
pub mod recorder;
pub mod render;
pub mod report;
pub mod run;
pub mod services;
pub mod sign;
pub mod types;

pub use render::{EventBody, render};
