//! The subscription endpoints of the gateway API: [`create`] (`POST /subscription/payment`),
//! [`manage`] (pause, resume, cancel, retrieve, list) and [`render`] (their wire shapes), over
//! the model in `crate::subscriptions` and the billing in `crate::billing`.
//!
//! Route paths are relative to the API prefix (`/api/v1/server-to-server-interface`); the
//! caller adds the credential check and fault injection. `/subscription/list` and
//! `/subscription/payment` are static routes, so they win over `/subscription/{id}`.

pub mod create;
pub mod manage;
pub mod render;

use axum::Router;
use axum::routing::{get, post};

use crate::state::SandboxState;

/// The subscription endpoints, relative to the API prefix.
pub fn routes() -> Router<SandboxState> {
    Router::new()
        .route("/subscription/payment", post(create::create))
        .route("/subscription/list", get(manage::list))
        .route("/subscription/{id}", get(manage::retrieve))
        .route("/subscription/{id}/pause", post(manage::pause))
        .route("/subscription/{id}/resume", post(manage::resume))
        .route("/subscription/{id}/cancel", post(manage::cancel))
}
