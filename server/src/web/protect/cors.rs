//! CORS for the browser API only (`/v1/checkout/...`, `/v1/customer/...`): the shop's pages
//! at `ALLOWED_ORIGINS` may call it; any other origin gets no CORS headers, so the browser
//! keeps the answer from it. The merchant API, webhook and pages never answer CORS at all.
//! No credentials mode: the API takes no cookies, only its own headers.

use std::sync::Arc;

use axum::http::header::{ACCEPT, ACCEPT_LANGUAGE, CONTENT_TYPE, RETRY_AFTER};
use axum::http::{HeaderName, HeaderValue, Method, request::Parts};
use checkout::contract::routes::{
    CLIENT_SECRET_HEADER, CUSTOMER_TOKEN_HEADER, IDEMPOTENCY_KEY_HEADER,
};
use tower_http::cors::{AllowOrigin, CorsLayer};

use crate::web::idempotency::REPLAYED;

/// Whether `path` belongs to the browser API.
pub fn is_browser_path(path: &str) -> bool {
    path.starts_with("/v1/checkout/") || path.starts_with("/v1/customer/")
}

/// The CORS layer for `allowed_origins` (normalised `scheme://host[:port]`).
pub fn layer(allowed_origins: &[String]) -> CorsLayer {
    let origins: Arc<Vec<HeaderValue>> = Arc::new(
        allowed_origins
            .iter()
            .filter_map(|origin| HeaderValue::from_str(origin).ok())
            .collect(),
    );
    let header = |name: &str| HeaderName::from_bytes(name.to_ascii_lowercase().as_bytes()).ok();
    let mut allowed_headers = vec![CONTENT_TYPE, ACCEPT, ACCEPT_LANGUAGE];
    allowed_headers.extend(
        [
            CLIENT_SECRET_HEADER,
            CUSTOMER_TOKEN_HEADER,
            IDEMPOTENCY_KEY_HEADER,
        ]
        .into_iter()
        .filter_map(header),
    );
    CorsLayer::new()
        .allow_origin(AllowOrigin::predicate(
            move |origin: &HeaderValue, parts: &Parts| {
                is_browser_path(parts.uri.path()) && origins.iter().any(|allowed| allowed == origin)
            },
        ))
        .allow_methods([Method::GET, Method::POST, Method::DELETE])
        .allow_headers(allowed_headers)
        .expose_headers([RETRY_AFTER, REPLAYED])
        .max_age(std::time::Duration::from_secs(600))
}
