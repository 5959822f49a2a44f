//! The HTTP API: the merchant API (shop backend, `Authorization: Bearer <MERCHANT_SECRET_KEY>`),
//! the browser API (the checkout component, `X-Client-Secret`), the 3DS return pages and the
//! gateway webhook.
//!
//! Each area is one file with a `routes() -> Router<AppState>`; [`routes`] merges them and
//! [`app`] adds the fallbacks and layers. A new area is a new file plus one `.merge(...)` line.
//! Its own pieces: [`Json`] (400 naming the field), [`MerchantAuth`] (bearer key,
//! constant-time), [`CustomerAuth`]. What it shares with the dashboard (the state, the error
//! shape, idempotency, the client's address, the protection layers) is [`crate::web`].

mod auth;
mod checkout;
mod client_secret;
mod customer_cards;
mod customer_id;
mod customer_subscriptions;
mod customer_tokens;
mod docs;
mod events;
pub mod frame;
mod hosted;
mod ids;
mod json;
pub mod links;
pub mod openapi;
pub mod ops;
mod pay_digest;
mod payments;
mod query;
mod returns;
mod risk_blocks;
mod sessions;
mod subscriptions;
mod webhook;
mod webhook_endpoints;
mod whole_number;

use axum::Router;
use axum::extract::MatchedPath;
use axum::http::header::{AUTHORIZATION, COOKIE};
use axum::http::{HeaderName, Request};
use tower_http::sensitive_headers::SetSensitiveRequestHeadersLayer;
use tower_http::trace::TraceLayer;

use crate::config::OpsAccess;
use crate::web::{ApiFailure, AppState, protect};

pub use auth::MerchantAuth;
pub use checkout::CheckoutSession;
pub use customer_tokens::CustomerAuth;
pub use json::{Json, JsonWithDigest, MaybeJson};
pub use sessions::{CreateSession, create_session};

/// Every area's routes, merged (no state applied: compose further, then `with_state`);
/// `ops_access` says whether `/readyz` and `/metrics` are among them.
pub fn routes(ops_access: &OpsAccess) -> Router<AppState> {
    Router::new()
        .merge(sessions::routes())
        .merge(payments::routes())
        .merge(checkout::routes())
        .merge(returns::routes())
        .merge(webhook::routes())
        .merge(subscriptions::routes())
        .merge(customer_tokens::routes())
        .merge(customer_cards::routes())
        .merge(customer_subscriptions::routes())
        .merge(webhook_endpoints::routes())
        .merge(risk_blocks::routes())
        .merge(links::routes())
        .merge(events::routes())
        .merge(ops::routes(ops_access))
        .merge(docs::routes())
        .merge(frame::routes())
        .merge(hosted::routes())
}

/// The whole API with fallbacks and layers, ready to serve. Serve it with
/// `into_make_service_with_connect_info::<SocketAddr>()`: the pay call needs the peer address.
pub fn app(state: AppState) -> Router {
    let routed = routes(&state.config.ops_access)
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed);
    protect::apply(routed, &state)
        .layer(trace_layer())
        .layer(SetSensitiveRequestHeadersLayer::new([
            AUTHORIZATION,
            COOKIE,
            HeaderName::from_static("x-client-secret"),
            HeaderName::from_static("x-customer-token"),
        ]))
        .with_state(state)
}

/// The internal `OPS_LISTEN` listener's routes ([`ops::internal_routes`]) with the fallbacks,
/// the HTTP metrics and request spans; the shop-facing protection layers have nothing to do
/// there.
pub fn ops_app(state: AppState) -> Router {
    ops::internal_routes()
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(axum::middleware::from_fn(crate::metrics::http::track))
        .layer(trace_layer())
        .with_state(state)
}

/// Makes a request's span.
type MakeSpan = fn(&Request<axum::body::Body>) -> tracing::Span;
/// The HTTP trace layer with [`request_span`].
type HttpTrace = TraceLayer<
    tower_http::classify::SharedClassifier<tower_http::classify::ServerErrorsAsFailures>,
    MakeSpan,
>;

/// Request spans name the matched route, never the raw URI: paths carry webhook tokens and
/// queries carry gateway ids.
fn trace_layer() -> HttpTrace {
    TraceLayer::new_for_http().make_span_with(request_span as MakeSpan)
}

fn request_span(request: &Request<axum::body::Body>) -> tracing::Span {
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or("unmatched", MatchedPath::as_str);
    tracing::info_span!("http", method = %request.method(), route)
}

async fn not_found() -> ApiFailure {
    ApiFailure::NotFound("endpoint")
}

async fn method_not_allowed() -> ApiFailure {
    ApiFailure::MethodNotAllowed
}

// api skeleton ready
