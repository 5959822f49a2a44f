//! The CSRF defence of browser POSTs (and DELETEs) on `/v1/checkout/...` and `/v1/customer/...`.
//!
//! Two independent guards:
//! 1. **A credential only a script can send.** These endpoints accept their credential only
//!    from a custom header (`X-Client-Secret`, `X-Customer-Token`), never from a cookie, a
//!    query or a form field, and only JSON bodies. A cross-site HTML form cannot set a header
//!    or send JSON, and a cross-site script that tries triggers a CORS preflight that only
//!    `ALLOWED_ORIGINS` pass. The browser carries no ambient authority here to abuse.
//! 2. **Origin check.** A request whose `Origin` is neither in `ALLOWED_ORIGINS` nor this
//!    server's own (`PUBLIC_BASE_URL`) is refused with 403 `origin_not_allowed` before any
//!    handler runs; so is one with no `Origin` that the browser marks `Sec-Fetch-Site:
//!    cross-site`. Requests without either header (server-side clients, curl) pass on to the
//!    credential check.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::header::ORIGIN;
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use checkout::contract::ApiError;

use super::cors::is_browser_path;

/// The origins a browser POST may come from.
#[derive(Debug, Clone)]
pub struct TrustedOrigins {
    origins: Vec<String>,
}

impl TrustedOrigins {
    /// `allowed` (`ALLOWED_ORIGINS`) plus the origin of `own_base_url`.
    pub fn new(allowed: &[String], own_base_url: &str) -> Self {
        let mut origins = allowed.to_vec();
        if let Ok(url) = reqwest::Url::parse(own_base_url) {
            origins.push(url.origin().ascii_serialization());
        }
        Self { origins }
    }

    /// Whether a request with these `Origin` and `Sec-Fetch-Site` values may proceed.
    pub fn admits(&self, origin: Option<&[u8]>, fetch_site: Option<&[u8]>) -> bool {
        match origin {
            Some(origin) => self
                .origins
                .iter()
                .any(|trusted| trusted.as_bytes() == origin),
            None => fetch_site != Some(b"cross-site"),
        }
    }
}

/// Middleware: refuses state-changing browser requests from untrusted origins.
pub async fn check_origin(
    State(trusted): State<Arc<TrustedOrigins>>,
    request: Request,
    next: Next,
) -> Response {
    let changes_state = !matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    );
    let path = request.uri().path();
    // `/pay/…`: the hosted page's own calls (a payment link's session start).
    if changes_state && (is_browser_path(path) || path.starts_with("/pay/")) {
        let origin = request.headers().get(ORIGIN).map(|v| v.as_bytes());
        let fetch_site = request
            .headers()
            .get("sec-fetch-site")
            .map(|v| v.as_bytes());
        if !trusted.admits(origin, fetch_site) {
            tracing::warn!(
                path = request.uri().path(),
                "cross-origin browser request refused"
            );
            let body = ApiError::new(
                "origin_not_allowed",
                "this request's origin is not allowed to call the browser API (ALLOWED_ORIGINS)",
            );
            return (StatusCode::FORBIDDEN, axum::Json(body)).into_response();
        }
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn admits_listed_and_own_origins_only() {
        let trusted = TrustedOrigins::new(
            &["https://shop.example".into()],
            "http://127.0.0.1:8080/base",
        );
        assert!(trusted.admits(Some(b"https://shop.example"), Some(b"cross-site")));
        assert!(trusted.admits(Some(b"http://127.0.0.1:8080"), None));
        assert!(!trusted.admits(Some(b"https://evil.example"), None));
        assert!(!trusted.admits(Some(b"null"), None));
        assert!(trusted.admits(None, None));
        assert!(trusted.admits(None, Some(b"same-origin")));
        assert!(!trusted.admits(None, Some(b"cross-site")));
    }
}
