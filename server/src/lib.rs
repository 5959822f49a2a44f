//! `checkout-server`: the service a merchant runs beside the shop. It holds the gateway
//! credentials, prices payments, calls the gateway and stores what happened.
//!
//! Layers, each using only those below it (docs/architecture.md, kept by tests/layers/):
//! [`serve`] → the two front doors [`api`] (the merchant and browser API) and [`dashboard`]
//! (staff pages on their own listener), which never import each other → [`web`] (the plumbing
//! they share) → [`reconcile`] → [`subscriptions`] → [`payments`] → [`events`], [`gateway`],
//! [`risk`] → [`config`], [`metrics`], [`views`] → [`store`] and [`webhook_rules`]. No
//! emulator and no demo shop here: the binary mounts checkout-sandbox's ([`serve::Mounts`]).

pub mod api;
pub mod config;
pub mod dashboard;
pub mod events;
pub mod failpoint;
pub mod gateway;
pub mod logging;
pub mod metrics;
pub mod payments;
pub mod reconcile;
pub mod risk;
pub mod serve;
pub mod store;
pub mod subscriptions;
pub mod views;
pub mod web;
pub mod webhook_rules;
