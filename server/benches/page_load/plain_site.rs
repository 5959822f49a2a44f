//! The plain HTML card form, the limit every path is held to, as checkout-server would serve it:
//! on a loopback origin of its own, compressed, with the response headers checkout-server sent
//! on the hosted page. The one that costs time is `Cross-Origin-Opener-Policy: same-origin`
//! (checkout-server's on every HTML page): arriving from another page, the browser puts the
//! page in a new browsing context group, and so in a new renderer process, on every visit.
//! Without it the plain form would be measured without a cost the hosted page cannot shed.

use axum::Router;
use axum::http::HeaderMap;
use axum::http::header::{CONTENT_ENCODING, CONTENT_LENGTH, DATE, TRANSFER_ENCODING, VARY};
use axum::routing::get;
use tower_http::compression::CompressionLayer;

use super::support::site::{Background, StaticSite};

/// The plain form's site.
pub struct PlainSite {
    /// The form's address.
    pub url: String,
    _server: Background,
}

impl PlainSite {
    /// Serves `html` with the headers of checkout-server's answer to `GET server_page`.
    pub async fn start(server_page: &str, html: String) -> Self {
        let answer = reqwest::get(server_page)
            .await
            .and_then(reqwest::Response::error_for_status)
            .unwrap_or_else(|error| panic!("GET {server_page}: {error}"));
        let headers = server_policy(answer.headers());
        let listener = StaticSite::bind();
        let address = listener.local_addr().expect("address");
        let router = Router::new()
            .route(
                "/plain.html",
                get(move || {
                    let (headers, html) = (headers.clone(), html.clone());
                    async move { (headers, html) }
                }),
            )
            .layer(CompressionLayer::new());
        Self {
            url: format!("http://{address}/plain.html"),
            _server: Background::serve(listener, router),
        }
    }
}

/// `headers` without those describing one answer's body and its encoding (the compression
/// layer sets them for the form's own body).
fn server_policy(headers: &HeaderMap) -> HeaderMap {
    let mut policy = headers.clone();
    for name in [
        CONTENT_ENCODING,
        CONTENT_LENGTH,
        DATE,
        TRANSFER_ENCODING,
        VARY,
    ] {
        policy.remove(name);
    }
    policy
}
