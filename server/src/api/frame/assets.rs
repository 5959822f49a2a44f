//! `GET /frame/{*file}`: the component trunk built into `COMPONENT_DIR` (wasm, JS glue and
//! snippets, stylesheets, message catalogues). Files whose name carries trunk's content hash,
//! and everything under `snippets/` (whose directory name does), never change: they are cached
//! for a year. The rest is revalidated on every use. The page templates (`index.html`,
//! `manage/index.html`) are only ever sent by `POST /frame/` and `GET /frame/shell`. A browser that accepts brotli or
//! gzip gets the compressed copy `scripts/wasm-opt.sh` wrote beside each file (`.br`, `.gz`),
//! when there is one.

use axum::body::Body;
use axum::extract::{Path, Request, State};
use axum::http::header::CACHE_CONTROL;
use axum::http::{HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use tower::ServiceExt as _;
use tower_http::services::ServeDir;

use crate::web::ApiFailure;
use crate::web::AppState;

/// Cache of files that never change under their name.
const FOREVER: &str = "public, max-age=31536000, immutable";
/// Cache of files that keep their name across builds.
const REVALIDATE: &str = "no-cache";

/// A file of the built component, or 404.
pub async fn serve(
    State(state): State<AppState>,
    Path(file): Path<String>,
    request: Request,
) -> Response {
    if file.is_empty() || file.ends_with('/') || file.rsplit('/').next() == Some("index.html") {
        return ApiFailure::NotFound("file").into_response();
    }
    let Ok(uri) = format!("/{file}").parse::<Uri>() else {
        return ApiFailure::NotFound("file").into_response();
    };
    let (mut parts, _) = request.into_parts();
    parts.uri = uri;
    let inner = Request::from_parts(parts, Body::empty());
    let Ok(response) = ServeDir::new(&state.config.component_dir)
        .precompressed_br()
        .precompressed_gzip()
        .oneshot(inner)
        .await;
    if response.status() == StatusCode::NOT_FOUND {
        return ApiFailure::NotFound("file").into_response();
    }
    let mut response = response.into_response();
    let cache = if is_hashed(&file) {
        FOREVER
    } else {
        REVALIDATE
    };
    response
        .headers_mut()
        .insert(CACHE_CONTROL, HeaderValue::from_static(cache));
    response
}

/// True when `file`'s name changes with its content: `name-<hex>[_bg].ext`, or anything in
/// `snippets/<crate>-<hash>/`.
fn is_hashed(file: &str) -> bool {
    if file.starts_with("snippets/") {
        return true;
    }
    let name = file.rsplit('/').next().unwrap_or(file);
    let stem = name.split('.').next().unwrap_or(name);
    let stem = stem.strip_suffix("_bg").unwrap_or(stem);
    // Trunk writes its 64-bit hash in hex without leading zeros.
    stem.rsplit_once('-').is_some_and(|(_, hash)| {
        (8..=16).contains(&hash.len()) && hash.bytes().all(|b| b.is_ascii_hexdigit())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_content_named_files_are_cached_for_good() {
        for hashed in [
            "checkout-9a7895616391cace.js",
            "checkout-9a7895616391cace_bg.wasm",
            "manage/checkout-9c87a95fce7eae_bg.wasm",
            "frame-b95780a28c74ce7b.css",
            "snippets/checkout-cd30d669b0587f8e/js/intl.js",
        ] {
            assert!(is_hashed(hashed), "{hashed}");
        }
        for plain in [
            "js/i18n/de.js",
            "checkout.css",
            "card-checkout-js.js",
            "a-123.js",
        ] {
            assert!(!is_hashed(plain), "{plain}");
        }
    }
}
