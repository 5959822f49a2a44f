//! `checkout-sandbox`: the gateway emulator ("sandbox"), a stateful implementation of the whole
//! gateway interface (gateway-interface.md plus the endpoints of gateway-notes.md) with the
//! contract's exact response shapes, a 3-D Secure page, webhooks with retries, a clock tests
//! control, and fault injection; and the demo shop that runs beside it ([`demo`]).
//!
//! It depends on the shared `checkout` crate only (the wire types, read from the gateway's
//! side), never on checkout-server: the `checkout-server` binary mounts both in-process when
//! no gateway is configured ([`in_process`]); `checkout-server sandbox` runs the emulator
//! alone; tests start it on an ephemeral port. docs/sandbox.md documents test cards, codes,
//! faults and the control API. Its state lives in memory unless `SandboxConfig::persistence`
//! keeps it, sealed, in a file across restarts ([`persist`]).
//!
//! Layered like checkout-server (docs/architecture.md, kept by `server/tests/layers/`): the
//! books at the bottom ([`ledger`], [`tokens`], [`acs_sessions`], [`subscriptions`]), then the
//! snapshot ([`persist`]), [`config`] and the [`state`] that holds them all, charging above it
//! ([`charge`], then [`three_ds`] and [`billing`]), and the HTTP adapters on top ([`api`],
//! [`acs`], [`control`], sharing [`web`]).
//!
//! Routes (all relative to `SandboxConfig::public_base_url`, so the router nests anywhere):
//! - `/api/v1/server-to-server-interface/...`: the gateway API ([`api`]), credentials required;
//! - `/sandbox/acs`: the 3DS page ([`acs`]), for the cardholder's browser;
//! - `/sandbox/clock`, `/sandbox/faults`, `/sandbox/state`: the control API ([`control`]).

pub mod acs;
pub mod acs_sessions;
pub mod api;
pub mod billing;
pub mod card_check;
pub mod changes;
pub mod charge;
pub mod charge_card;
pub mod clock;
pub mod config;
pub mod control;
pub mod credentials;
pub mod demo;
pub mod error;
pub mod faults;
pub mod in_process;
pub mod keeper;
pub mod ledger;
pub mod persist;
pub mod render;
pub mod server;
pub mod snapshot_fields;
pub mod state;
pub mod subscriptions;
pub mod test_cards;
pub mod three_ds;
pub mod tokens;
pub mod validate;
pub mod velocity;
pub mod web;
pub mod webhook;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::header::AUTHORIZATION;
use axum::http::{HeaderName, Method, Uri};
use tower_http::sensitive_headers::SetSensitiveRequestHeadersLayer;
use tower_http::trace::TraceLayer;

pub use charge::{ChargeOutcome, ChargeRequest, ChargeSource, charge};
pub use charge_card::ChargePurpose;
pub use clock::SandboxClock;
pub use config::{DEFAULT_API_KEY, DEFAULT_X_API_KEY, SandboxConfig, WebhookRetry};
pub use error::SandboxError;
pub use server::{Sandbox, serve};
pub use state::SandboxState;

/// The whole emulator as one router (state applied). Unknown paths and methods get the JSON
/// failure body (404, 405); bodies over `body_limit` get 413.
pub fn router(state: SandboxState) -> Router {
    let body_limit = state.config.body_limit;
    Router::new()
        .merge(api::routes(&state))
        .merge(acs::routes())
        .merge(control::routes(&state))
        .fallback(unknown_endpoint)
        .method_not_allowed_fallback(wrong_method)
        .layer(DefaultBodyLimit::max(body_limit))
        .layer(TraceLayer::new_for_http())
        .layer(SetSensitiveRequestHeadersLayer::new([
            AUTHORIZATION,
            HeaderName::from_static(credentials::X_API_KEY),
        ]))
        .with_state(state)
}

async fn unknown_endpoint(uri: Uri) -> SandboxError {
    tracing::debug!(path = uri.path(), "sandbox: no such endpoint");
    SandboxError::NotFound("endpoint".to_owned())
}

async fn wrong_method(method: Method) -> SandboxError {
    SandboxError::MethodNotAllowed(method.to_string())
}
