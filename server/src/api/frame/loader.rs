//! `GET /checkout.js`: the loader (`js/loader.js`), compiled into the server. Its address is
//! stable, so it is cached briefly and revalidated by ETag; the files it leads to are hashed
//! and cached for good ([`super::assets`]).

use std::sync::OnceLock;

use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, ETAG, IF_NONE_MATCH};
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sha2::{Digest as _, Sha256};

/// The loader's source.
pub const LOADER_JS: &str = include_str!("../../../../js/loader.js");
/// How long a browser may use its copy before revalidating.
const CACHE: &str = "public, max-age=300";

/// The loader's ETag: a quoted hash of its text.
fn etag() -> &'static HeaderValue {
    static ETAG_VALUE: OnceLock<HeaderValue> = OnceLock::new();
    ETAG_VALUE.get_or_init(|| {
        let digest = Sha256::digest(LOADER_JS.as_bytes());
        let tag = format!("\"{}\"", URL_SAFE_NO_PAD.encode(&digest[..18]));
        HeaderValue::from_str(&tag).expect("base64 is a valid header value")
    })
}

/// The loader, or 304 when the browser's copy is current.
pub async fn serve(request_headers: HeaderMap) -> Response {
    let etag = etag();
    let current = request_headers
        .get(IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|tags| tags.split(',').any(|t| t.trim() == etag || t.trim() == "*"));
    let headers = [
        (ETAG, etag.clone()),
        (CACHE_CONTROL, HeaderValue::from_static(CACHE)),
        // Shops that isolate their pages (COEP) may still load it.
        (
            HeaderName::from_static("cross-origin-resource-policy"),
            HeaderValue::from_static("cross-origin"),
        ),
    ];
    if current {
        return (StatusCode::NOT_MODIFIED, headers).into_response();
    }
    (
        headers,
        [(CONTENT_TYPE, "text/javascript; charset=utf-8")],
        LOADER_JS,
    )
        .into_response()
}
