//! `GET /checkout.js`: the loader (`js/loader.min.js`, minified from `js/loader.js` by
//! `scripts/loader-min.sh`), compiled into the server, with the card
//! form's current build written in, so the frame's shell it asks for is the one a returning
//! shopper's browser kept ([`super::shell`]). Its address is stable, so it is cached briefly
//! and revalidated by ETag; the files it leads to are hashed and cached for good
//! ([`super::assets`]).

use axum::extract::State;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, ETAG, IF_NONE_MATCH};
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sha2::{Digest as _, Sha256};

use super::shell::current_build;
use crate::web::AppState;

/// The loader, minified.
pub const LOADER_JS: &str = include_str!("../../../../js/loader.min.js");
/// How long a browser may use its copy before revalidating.
const CACHE: &str = "public, max-age=300";

/// Where the loader's text holds the build it asks for (none in the npm package's copy).
const BUILD_SLOT: &str = "var BUILD=\"\";";

/// The loader naming `build`.
fn with_build(build: Option<&str>) -> String {
    match build {
        Some(build) => LOADER_JS.replacen(BUILD_SLOT, &format!("var BUILD={build:?};"), 1),
        None => LOADER_JS.to_owned(),
    }
}

/// The ETag of `text`: a quoted hash of it.
fn etag(text: &str) -> HeaderValue {
    let digest = Sha256::digest(text.as_bytes());
    let tag = format!("\"{}\"", URL_SAFE_NO_PAD.encode(&digest[..18]));
    HeaderValue::from_str(&tag).expect("base64 is a valid header value")
}

/// The loader, or 304 when the browser's copy is current.
pub async fn serve(State(state): State<AppState>, request_headers: HeaderMap) -> Response {
    let text = with_build(current_build(&state).await.as_deref());
    let etag = etag(&text);
    let current = request_headers
        .get(IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|tags| tags.split(',').any(|t| t.trim() == etag || t.trim() == "*"));
    let headers = [
        (ETAG, etag),
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
        text,
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_loader_can_be_pasted_into_an_inline_script() {
        // In a script element's text only `</script` ends it early, and `<!--` then `<script`
        // would make the parser skip the real end.
        let lower = LOADER_JS.to_ascii_lowercase();
        for forbidden in ["</script", "<!--", "<script"] {
            assert!(
                !lower.contains(forbidden),
                "js/loader.min.js holds {forbidden}"
            );
        }
    }

    #[test]
    fn the_served_loader_names_the_build() {
        assert_eq!(LOADER_JS.matches(BUILD_SLOT).count(), 1);
        let named = with_build(Some("AbC-12_x"));
        assert!(named.contains("var BUILD=\"AbC-12_x\";"), "{named}");
        assert_ne!(etag(&named), etag(LOADER_JS));
        assert_eq!(with_build(None), LOADER_JS);
    }
}
