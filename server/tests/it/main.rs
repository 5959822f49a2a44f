//! The server's integration tests: one binary, one submodule per area.

/// The binary's composition of checkout-server with checkout-sandbox, shared so the tests
/// run the servers exactly as `checkout-server serve` does.
#[path = "../../src/bin/checkout-server/compose.rs"]
mod compose;

mod api;
mod attempts;
mod card_testing;
mod cli;
mod dashboard;
mod events;
mod gateway;
pub mod links;
mod ops;
mod readme;
mod reconcile;
mod sandbox;
mod store;
mod subs;
