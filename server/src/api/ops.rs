//! Operations endpoints:
//! - `GET /healthz`: the process is up and serving (`{"status": "ok"}`), on every listener
//!   (load balancers probe it on the public port);
//! - `GET /readyz`: the database answers a query and the gateway answers HTTP with these
//!   credentials (a status lookup of the nil id: "no such transaction" proves both); 200 or
//!   503 with each check named. One answer serves every probe for [`READY_CACHE_FOR`];
//! - `GET /metrics`: Prometheus text ([`crate::metrics`]);
//! - `GET /openapi.json`: the OpenAPI 3.1 document of the merchant and browser APIs.
//!
//! `/readyz` and `/metrics` cost database queries and a gateway lookup, so where they are
//! served is configured ([`OpsAccess`]): on `LISTEN` to anyone (the sandbox default) or to
//! bearers of `OPS_TOKEN` ([`routes`]), or only on the internal `OPS_LISTEN` listener
//! ([`internal_routes`]), or, with a real gateway and neither key set, nowhere.

use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::http::header::{AUTHORIZATION, CACHE_CONTROL, CONTENT_TYPE};
use axum::middleware::{Next, from_fn_with_state};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Extension, Router};
use secrecy::{ExposeSecret as _, SecretString};
use serde::Serialize;
use sha2::{Digest as _, Sha256};
use subtle::ConstantTimeEq as _;
use tokio::sync::Mutex;

use super::auth::bearer_token;
use super::json::Json;
use crate::config::OpsAccess;
use crate::gateway::GatewayError;
use crate::web::ApiFailure;
use crate::web::AppState;

/// How long one `/readyz` answer is reused: probes within this window cost no more than the
/// first (one database ping, one gateway lookup), so `/readyz` cannot be used to spend the
/// merchant's gateway quota or load the database, and a balancer still sees a change within
/// a few seconds.
pub const READY_CACHE_FOR: Duration = Duration::from_secs(5);
/// The transaction id `/readyz` looks up: no gateway has it, so a quick 404 proves reachability.
const NIL_TRANSACTION: &str = "00000000-0000-0000-0000-000000000000";
/// Longest time one readiness check may take.
const CHECK_TIMEOUT: Duration = Duration::from_secs(3);

/// The operations routes of the public listener: `/healthz` and `/openapi.json` always,
/// `/readyz` and `/metrics` as `access` allows.
pub fn routes(access: &OpsAccess) -> Router<AppState> {
    let public = Router::new()
        .route("/healthz", get(healthz))
        // Written once, on the first request: the configuration does not change while serving.
        .route(
            "/openapi.json",
            get(openapi).layer(Extension(Arc::new(ServedDocument::new()))),
        );
    match access {
        OpsAccess::Open => public.merge(checks()),
        OpsAccess::Token(token) => {
            let token = Arc::new(OpsToken::new(token));
            public.merge(checks().route_layer(from_fn_with_state(token, require_token)))
        }
        OpsAccess::Listener(_) | OpsAccess::Closed => public,
    }
}

/// The routes of the internal `OPS_LISTEN` listener: `/healthz`, `/readyz` and `/metrics`,
/// no token.
pub fn internal_routes() -> Router<AppState> {
    Router::new()
        .route("/healthz", get(healthz))
        .merge(checks())
}

/// `/readyz` (with its own answer cache) and `/metrics`.
fn checks() -> Router<AppState> {
    Router::new()
        .route("/readyz", get(readyz))
        .route("/metrics", get(metrics))
        .layer(Extension(Arc::new(Readiness::default())))
}

/// `/healthz` and `/readyz` bodies.
#[derive(Debug, Clone, Serialize)]
pub struct Health {
    /// `ok`, `ready` or `unavailable`.
    pub status: &'static str,
    /// Each dependency and what was found (`/readyz` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checks: Option<Checks>,
}

/// The readiness checks.
#[derive(Debug, Clone, Serialize)]
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

/// The last `/readyz` answer and when it was found. The lock is held across a check, so
/// probes arriving meanwhile wait for it and share its answer.
#[derive(Default)]
struct Readiness(Mutex<Option<(Instant, StatusCode, Health)>>);

impl Readiness {
    /// The answer found less than [`READY_CACHE_FOR`] ago, or a new one.
    async fn answer(&self, state: &AppState) -> (StatusCode, Health) {
        let mut last = self.0.lock().await;
        if let Some((found, status, health)) = last.as_ref()
            && found.elapsed() < READY_CACHE_FOR
        {
            return (*status, health.clone());
        }
        let (status, health) = check(state).await;
        *last = Some((Instant::now(), status, health.clone()));
        (status, health)
    }
}

async fn readyz(
    State(state): State<AppState>,
    Extension(readiness): Extension<Arc<Readiness>>,
) -> Response {
    let (status, body) = readiness.answer(&state).await;
    (status, [(CACHE_CONTROL, "no-store")], Json(body)).into_response()
}

/// Asks the database and the gateway, now.
async fn check(state: &AppState) -> (StatusCode, Health) {
    let (database, gateway) = tokio::join!(check_database(state), check_gateway(state));
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
    (status, body)
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

/// `OPS_TOKEN`, kept only as its digest: compared in constant time, so neither its content
/// nor its length leaks through timing.
struct OpsToken([u8; 32]);

impl OpsToken {
    fn new(token: &SecretString) -> Self {
        Self(Sha256::digest(token.expose_secret().as_bytes()).into())
    }

    fn verify(&self, presented: &str) -> bool {
        let candidate: [u8; 32] = Sha256::digest(presented.as_bytes()).into();
        bool::from(self.0.ct_eq(&candidate))
    }
}

/// Lets through requests bearing `OPS_TOKEN`; 401 otherwise.
async fn require_token(
    State(token): State<Arc<OpsToken>>,
    request: Request,
    next: Next,
) -> Response {
    let presented = request
        .headers()
        .get(AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(bearer_token);
    let message = match presented {
        Some(presented) if token.verify(presented) => return next.run(request).await,
        Some(_) => "the operations token is not valid",
        None => "send the operations token as `Authorization: Bearer <OPS_TOKEN>`",
    };
    ApiFailure::Unauthorized {
        code: "unauthorized",
        message,
        challenge: Some("Bearer"),
    }
    .into_response()
}

/// The OpenAPI document as this server serves it, once written.
type ServedDocument = OnceLock<Bytes>;

async fn openapi(
    State(state): State<AppState>,
    Extension(served): Extension<Arc<ServedDocument>>,
) -> Response {
    let document = served.get_or_init(|| Bytes::from(super::openapi::document(&state.config)));
    ([(CONTENT_TYPE, "application/json")], document.clone()).into_response()
}
