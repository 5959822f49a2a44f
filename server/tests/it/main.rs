//! The server's integration tests: one binary, one submodule per area.

mod gateway_client;
mod gateway_faults;
mod gateway_test_server;
mod gateway_wire;
mod gateway_wire_variants;
mod sandbox_subscriptions;
mod sandbox_adjust;
mod sandbox_auth;
mod sandbox_control;
mod sandbox_faults;
mod sandbox_payments;
mod sandbox_support;
mod sandbox_three_ds;
mod sandbox_validation;
mod sandbox_webhooks;
mod store;
mod api_support;
mod api_adjust;
mod api_idempotency;
mod api_three_ds;
mod api_tokens;
mod api_validation;
mod api_webhooks;
