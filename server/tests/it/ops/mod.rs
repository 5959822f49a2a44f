//! Operating the server: health and readiness, metrics, the OpenAPI document, graceful
//! shutdown, and where `/metrics` and `/readyz` are served (`OPS_LISTEN`, `OPS_TOKEN`).

mod database_outage;
mod docs;
mod health;
mod listener;
mod metrics;
mod openapi;
mod ready_cache;
mod ready_gateway;
mod secrets_key;
mod shutdown;
pub mod support;
mod token;
