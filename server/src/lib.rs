//! `checkout-server`: the service a merchant runs beside the shop. It holds the gateway
//! credentials, prices payments, calls the gateway and stores what happened.

pub mod api;
pub mod config;
pub mod demo;
pub mod failpoint;
pub mod gateway;
pub mod logging;
pub mod metrics;
pub mod payments;
pub mod reconcile;
pub mod sandbox;
pub mod serve;
pub mod store;
pub mod subscriptions;
