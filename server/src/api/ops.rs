//! Operations endpoints (no credentials; put them behind the network's own access rules if
//! the figures are private):
//! - `GET /healthz`: the process is up and serving (`{"status": "ok"}`);
//! - `GET /readyz`: the database answers a query and the gateway answers HTTP with these
//!   credentials (a status lookup of the nil id: "no such transaction" proves both); 200 or
//!   503 with each check named;
//! - `GET /metrics`: Prometheus text ([`crate::metrics`]);
//! - `GET /openapi.json`: the OpenAPI 3.1 document of the merchant and browser APIs.

use std::time::Duration;

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Serialize;

use super::json::Json;
use super::state::AppState;
use crate::gateway::GatewayError;

/// The OpenAPI document, as served.
pub const OPENAPI_JSON: &str = include_str!("../../openapi/openapi.json");
/// The transaction id `/readyz` looks up: no gateway has it, so a quick 404 proves reachability.
const NIL_TRANSACTION: &str = "00000000-0000-0000-0000-000000000000";
/// Longest time one readiness check may take.
const CHECK_TIMEOUT: Duration = Duration::from_secs(3);

/// The operations routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
        .route("/metrics", get(metrics))
        .route("/openapi.json", get(openapi))
}

/// `/healthz` and `/readyz` bodies.
#[derive(Debug, Serialize)]
pub struct Health {
    /// `ok`, `ready` or `unavailable`.
    pub status: &'static str,
    /// Each dependency and what was found (`/readyz` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checks: Option<Checks>,
}

/// The readiness checks.
#[derive(Debug, Serialize)]
pub struct Checks {
    /// `ok`, or why not.
    pub database: String,
    /// `ok`, or why not.
    pub gateway: String,
}

async fn healthz() -> Json<Health> {
    Json(Health {
        status: "ok",
        checks: None,
    })
}

async fn readyz(State(state): State<AppState>) -> Response {
    let (database, gateway) = tokio::join!(check_database(&state), check_gateway(&state));
    let ready = database.is_ok() && gateway.is_ok();
    if let Err(reason) = &database {
        tracing::warn!(%reason, "readiness: database not available");
    }
    if let Err(reason) = &gateway {
        tracing::warn!(%reason, "readiness: gateway not available");
    }
    let body = Health {
        status: if ready { "ready" } else { "unavailable" },
        checks: Some(Checks {
            database: database.err().unwrap_or_else(|| "ok".into()),
            gateway: gateway.err().unwrap_or_else(|| "ok".into()),
        }),
    };
    let status = if ready {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (status, [(CACHE_CONTROL, "no-store")], Json(body)).into_response()
}

async fn check_database(state: &AppState) -> Result<(), String> {
    match tokio::time::timeout(CHECK_TIMEOUT, state.store.ping()).await {
        Ok(Ok(())) => Ok(()),
        Ok(Err(_)) => Err("the database did not answer".into()),
        Err(_) => Err("the database did not answer in time".into()),
    }
}

async fn check_gateway(state: &AppState) -> Result<(), String> {
    let lookup = tokio::time::timeout(
        CHECK_TIMEOUT,
        state.gateway.transaction_status(NIL_TRANSACTION),
    )
    .await;
    match lookup {
        Err(_) => Err("the gateway did not answer in time".into()),
        // Any answer about the transaction proves the gateway is there and took the credentials.
        Ok(Ok(_) | Err(GatewayError::NotFound | GatewayError::Rejected { .. })) => Ok(()),
        Ok(Err(GatewayError::Unauthorized { .. })) => {
            Err("the gateway refused the credentials".into())
        }
        Ok(Err(GatewayError::Transport { .. })) => Err("the gateway is unreachable".into()),
        Ok(Err(GatewayError::Unavailable { status })) => {
            Err(format!("the gateway answered HTTP {status}"))
        }
        Ok(Err(_)) => Err("the gateway answered in an unexpected way".into()),
    }
}

async fn metrics(State(state): State<AppState>) -> Response {
    let text = crate::metrics::render(state.store.as_ref()).await;
    (
        [
            (CONTENT_TYPE, crate::metrics::CONTENT_TYPE),
            (CACHE_CONTROL, "no-store"),
        ],
        text,
    )
        .into_response()
}

async fn openapi() -> Response {
    ([(CONTENT_TYPE, "application/json")], OPENAPI_JSON).into_response()
}
