//! Operating the server: health and readiness, metrics, the OpenAPI document, graceful
//! shutdown, where `/metrics` and `/readyz` are served (`OPS_LISTEN`, `OPS_TOKEN`), and what
//! `serve` refuses at start (no `SECRETS_KEY` with a real gateway, no card form's build).

mod component_dir;
mod database_outage;
mod docs;
mod health;
mod listener;
mod metrics;
mod openapi;
mod openapi_links;
mod ready_cache;
mod ready_gateway;
mod secrets_key;
mod shutdown;
pub mod support;
mod token;
