//! The server's integration tests: one binary, one submodule per area.

mod gateway_client;
mod gateway_faults;
mod gateway_test_server;
mod gateway_wire;
mod gateway_wire_variants;
mod sandbox_subscriptions;
