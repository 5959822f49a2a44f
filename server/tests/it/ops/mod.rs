//! Operating the server: health and readiness, metrics, the OpenAPI document, graceful
//! shutdown.

mod health;
mod metrics;
mod openapi;
mod ready_gateway;
mod shutdown;
pub mod support;
