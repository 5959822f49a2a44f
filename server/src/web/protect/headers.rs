//! Security headers on every answer, and a Content-Security-Policy on every page.
//!
//! Always (unless the handler set its own): `X-Content-Type-Options: nosniff`,
//! `Referrer-Policy: no-referrer`, `X-Frame-Options: DENY` (unless the handler's CSP names
//! who may frame it: the card form's frame), and `Strict-Transport-Security`
//! when the server is reached over https. HTML answers get [`PAGE_CSP`] (no inline script or
//! style, nothing from other origins, no framing) plus `Cross-Origin-Opener-Policy` and
//! `Permissions-Policy`; a page that needs more (a nonce) sets its own CSP, which is kept.
//! Everything else gets [`API_CSP`], which allows nothing. API answers are `no-store`.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::header::{
    CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, REFERRER_POLICY,
    STRICT_TRANSPORT_SECURITY, X_CONTENT_TYPE_OPTIONS, X_FRAME_OPTIONS,
};
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::Response;

/// CSP of HTML pages that do not set their own: same-origin scripts (and their WebAssembly),
/// styles, images and fetches only; no inline code, plugins, base rewriting or framing.
pub const PAGE_CSP: &str = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; \
     style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; \
     form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'";
/// CSP of every non-HTML answer: nothing may load, nothing may frame it.
pub const API_CSP: &str = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";

/// What the middleware adds.
#[derive(Debug, Clone, Copy)]
pub struct HeaderPolicy {
    /// Send `Strict-Transport-Security` (the public base URL is https).
    pub hsts: bool,
}

impl HeaderPolicy {
    /// The policy for a server reached at `public_base_url`.
    pub fn new(public_base_url: &str) -> Self {
        Self {
            hsts: public_base_url.starts_with("https://"),
        }
    }
}

/// Middleware: adds the security headers the handler did not set.
pub async fn add_security_headers(
    State(policy): State<Arc<HeaderPolicy>>,
    request: Request,
    next: Next,
) -> Response {
    let is_api = request.uri().path().starts_with("/v1/");
    let mut response = next.run(request).await;
    let not_modified = response.status() == StatusCode::NOT_MODIFIED;
    let headers = response.headers_mut();
    let html = is_html(headers);
    let fixed: [(HeaderName, &'static str); 2] = [
        (X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (REFERRER_POLICY, "no-referrer"),
    ];
    for (name, value) in fixed {
        set_default(headers, name, value);
    }
    if !framing_allowed(headers) {
        set_default(headers, X_FRAME_OPTIONS, "DENY");
    }
    if policy.hsts {
        set_default(
            headers,
            STRICT_TRANSPORT_SECURITY,
            "max-age=31536000; includeSubDomains",
        );
    }
    // A 304 refreshes the browser's stored copy, whose type it does not name: a CSP on it
    // would replace the stored page's own policy, so it gets none.
    if !not_modified {
        if html {
            set_default(headers, CONTENT_SECURITY_POLICY, PAGE_CSP);
            set_default(
                headers,
                HeaderName::from_static("cross-origin-opener-policy"),
                "same-origin",
            );
            set_default(
                headers,
                HeaderName::from_static("permissions-policy"),
                "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
            );
        } else {
            set_default(headers, CONTENT_SECURITY_POLICY, API_CSP);
        }
    }
    if is_api {
        set_default(headers, CACHE_CONTROL, "no-store");
    }
    response
}

fn is_html(headers: &HeaderMap) -> bool {
    headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim_start().to_ascii_lowercase().starts_with("text/html"))
}

/// True when the handler's own CSP names who may frame the answer (the card form's frame):
/// `X-Frame-Options: DENY` would then contradict it.
fn framing_allowed(headers: &HeaderMap) -> bool {
    headers
        .get(CONTENT_SECURITY_POLICY)
        .and_then(|v| v.to_str().ok())
        .and_then(|csp| {
            csp.split(';')
                .map(str::trim)
                .find_map(|directive| directive.strip_prefix("frame-ancestors "))
        })
        .is_some_and(|sources| sources.trim() != "'none'")
}

fn set_default(headers: &mut HeaderMap, name: HeaderName, value: &'static str) {
    headers
        .entry(name)
        .or_insert(HeaderValue::from_static(value));
}
