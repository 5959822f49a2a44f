//! `GET /docs`: the API reference as one HTML page, rendered once from the OpenAPI document
//! ([`super::openapi::OPENAPI_JSON`]) by [`render`]. No script and nothing from other origins: its
//! CSP allows only its own inline style.

mod html;
mod render;

use std::sync::LazyLock;

use axum::Router;
use axum::http::header::{CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use super::openapi::OPENAPI_JSON;
use crate::web::AppState;

/// The page's CSP: its inline `<style>` and nothing else.
const DOCS_CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; \
     base-uri 'none'; form-action 'none'";

/// The page, rendered at its first request.
static PAGE: LazyLock<String> = LazyLock::new(|| {
    let document = serde_json::from_str(OPENAPI_JSON).expect("the OpenAPI document is JSON");
    render::page(&document)
});

/// `/docs`.
pub fn routes() -> Router<AppState> {
    Router::new().route("/docs", get(docs))
}

async fn docs() -> Response {
    (
        [
            (CONTENT_TYPE, "text/html; charset=utf-8"),
            (CONTENT_SECURITY_POLICY, DOCS_CSP),
            (CACHE_CONTROL, "public, max-age=300"),
        ],
        PAGE.as_str(),
    )
        .into_response()
}
