//! The server's integration tests: one binary, one submodule per area.

/// The binary's composition of checkout-server with checkout-sandbox, shared so the tests
/// run the servers exactly as `checkout-server serve` does.
#[path = "../../src/bin/checkout-server/compose.rs"]
mod compose;

mod api_adjust;
mod api_card_data;
mod api_customer_cards;
mod api_idempotency;
mod api_modes;
mod api_support;
mod api_three_ds;
mod api_tokens;
mod api_validation;
mod api_webhooks;
mod demo_shop;
mod gateway_client;
mod gateway_faults;
mod gateway_test_server;
mod gateway_wire;
mod gateway_wire_variants;
mod ops_health;
mod ops_metrics;
mod ops_openapi;
mod ops_ready_gateway;
mod ops_shutdown;
mod ops_support;
mod protection_body;
mod protection_browser;
mod protection_headers;
mod protection_limits;
mod reconcile_background;
mod reconcile_instances;
mod reconcile_lost_webhook;
mod reconcile_review;
mod reconcile_timeout;
mod sandbox_adjust;
mod sandbox_auth;
mod sandbox_control;
mod sandbox_faults;
mod sandbox_payments;
mod sandbox_subscriptions;
mod sandbox_support;
mod sandbox_three_ds;
mod sandbox_validation;
mod sandbox_webhooks;
mod store;
mod subs_customer;
mod subs_lifecycle;
