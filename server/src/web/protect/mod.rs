//! The protection layers around every route ([`apply`]), outermost first:
//!
//! 1. [`headers`]: security headers on every answer, CSP on pages;
//! 2. HTTP metrics (`crate::metrics::http`), so refused requests are counted too;
//! 3. [`cors`]: CORS for the browser API, `ALLOWED_ORIGINS` only;
//! 4. [`body`]: `MAX_BODY_BYTES` (413) and JSON only on the API (415);
//! 5. [`csrf`]: browser writes from untrusted origins refused (403);
//! 6. [`rate_limit`]: failed pay calls per client (IPv4 address or IPv6 /64,
//!    [`failure_budget`]) and pay calls per session (429 with `Retry-After`);
//! 7. the body limit while reading (`DefaultBodyLimit`, for bodies without `Content-Length`).
//!
//! [`lookup_budget`] is not a layer: the 3-D Secure return page takes from it before it makes
//! a gateway lookup.
//!
//! Every refusal uses the API's error shape. Sensitive headers are marked and requests
//! traced outside all of these (`api::app`).

pub mod body;
pub mod capped_limit;
pub mod cors;
pub mod csrf;
pub mod failure_budget;
pub mod headers;
pub mod lookup_budget;
pub mod rate_limit;

use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::middleware::{from_fn, from_fn_with_state};

use crate::web::AppState;

/// `router` wrapped in the protection layers configured for `state`.
pub fn apply(router: Router<AppState>, state: &AppState) -> Router<AppState> {
    let config = &state.config;
    let limit = config.ops.max_body_bytes;
    let limits = Arc::new(rate_limit::PayLimits::new(
        config.ops.pay_rate_per_ip,
        config.ops.pay_rate_per_session,
        config.trusted_proxies.clone(),
    ));
    let origins = Arc::new(csrf::TrustedOrigins::new(
        &config.merchant.allowed_origins,
        &state.urls.base,
    ));
    let policy = Arc::new(headers::HeaderPolicy::new(&state.urls.base));
    router
        .layer(DefaultBodyLimit::max(limit))
        .layer(from_fn_with_state(limits, rate_limit::limit_pay))
        .layer(from_fn_with_state(origins, csrf::check_origin))
        .layer(from_fn_with_state(limit, body::guard_body))
        .layer(cors::layer(&config.merchant.allowed_origins))
        .layer(from_fn(crate::metrics::http::track))
        .layer(from_fn_with_state(policy, headers::add_security_headers))
}
