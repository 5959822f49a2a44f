//! The gateway API under `/api/v1/server-to-server-interface/`: payments, 3DS, capture,
//! refund, void, status and ([`subscriptions`]) the
//! subscription endpoints, behind the credential check and fault injection.

mod adjust;
mod extract;
mod payment;
mod request;
mod status;
pub mod subscriptions;
mod three_ds;

use axum::Router;
use axum::middleware::from_fn_with_state;
use axum::routing::{get, post};

pub use extract::PeerIp;
pub use request::{CheckedPayment, check_payment};

use super::state::SandboxState;
use super::web::{inject_faults, require_credentials};

/// Path prefix of every gateway endpoint.
pub const API_PREFIX: &str = "/api/v1/server-to-server-interface";

/// The API routes with their layers (credentials checked first, then faults applied).
/// Route paths inside are relative to [`API_PREFIX`], the subscription routes included.
pub fn routes(state: &SandboxState) -> Router<SandboxState> {
    let api = Router::new()
        .route("/payment", post(payment::payment))
        .route("/authorization", post(payment::authorization))
        .route("/paymentv2", post(three_ds::payment_v2))
        .route("/authorizationv2", post(three_ds::authorization_v2))
        .route("/capture", post(adjust::capture))
        .route("/refund", post(adjust::refund))
        .route("/void", post(adjust::void))
        .route("/transaction/status/{id}", get(status::status))
        .merge(subscriptions::routes())
        .route_layer(from_fn_with_state(state.clone(), inject_faults))
        .route_layer(from_fn_with_state(state.clone(), require_credentials));
    Router::new().nest(API_PREFIX, api)
}
