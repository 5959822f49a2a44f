//! The return from the bank's page when 3-D Secure runs in a dialog on the shop's page: the
//! gateway sends the shopper's browser to this payment's return address inside the bank's
//! frame (in [`super::challenge_host`]), and instead of leaving for the shop's landing page (a
//! top-level return), the frame gets this page. Its one inline script tells the host page,
//! this origin's, that the bank's part is over (`three_ds_returned`, with nothing else: no
//! payment id, no state, no secret); the card frame then asks the server where the payment
//! stands, never this message.
//!
//! Only this origin (the host) inside the shops' pages may frame it (`frame-ancestors 'self'`
//! and `ALLOWED_ORIGINS`). Should it ever be shown as a page of its own, the
//! script sends the shopper on to the landing page the top-level return would have. A browser
//! without Fetch Metadata (before 2023) gets the top-level return, in the frame too.

use axum::http::HeaderValue;
use axum::http::header::{CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, VARY};
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use sha2::{Digest as _, Sha256};

use super::skeleton::escape;
use crate::web::AppState;

/// What the page's script does: tell the framing page, or (opened on its own) leave for the
/// landing page written into `#cc-landing`.
const SCRIPT: &str = "var landing=document.getElementById(\"cc-landing\").getAttribute(\"href\");\
if(window.parent!==window){window.parent.postMessage({cc:\"card-checkout\",type:\"three_ds_returned\"},location.origin)}\
else{location.replace(landing)}";

/// The page for a return that arrived in a frame; `landing` is the shop page a top-level return
/// goes to.
pub fn framed_return(state: &AppState, landing: &str) -> Response {
    let html = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"referrer\" content=\"no-referrer\"><title>3-D Secure</title></head>\
         <body><p hidden><a id=\"cc-landing\" href=\"{}\">Continue</a></p>\
         <script>{SCRIPT}</script></body></html>",
        escape(landing)
    );
    let policy = policy(&state.config.merchant.allowed_origins);
    let mut response = ([(CONTENT_TYPE, "text/html; charset=utf-8")], html).into_response();
    let headers = response.headers_mut();
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(VARY, HeaderValue::from_static("Sec-Fetch-Dest"));
    if let Ok(value) = HeaderValue::from_str(&policy) {
        headers.insert(CONTENT_SECURITY_POLICY, value);
    }
    response
}

/// Whether a return visit should get [`framed_return`]: the browser says it is for a frame.
pub fn is_framed(headers: &axum::http::HeaderMap) -> bool {
    headers
        .get("sec-fetch-dest")
        .is_some_and(|dest| dest.as_bytes() == b"iframe")
}

/// Only this page's own script; framed only by the host page inside the shops' pages.
fn policy(allowed_origins: &[String]) -> String {
    let hash = BASE64.encode(Sha256::digest(SCRIPT.as_bytes()));
    let ancestors = ["'self'".to_owned()]
        .into_iter()
        .chain(allowed_origins.iter().cloned())
        .collect::<Vec<_>>()
        .join(" ");
    format!(
        "default-src 'none'; script-src 'sha256-{hash}'; frame-ancestors {ancestors}; \
         form-action 'none'; base-uri 'none'; object-src 'none'"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_policy_allows_the_script_and_frames_by_the_shops_only() {
        let policy = policy(&["https://shop.example".into(), "https://b.example".into()]);
        assert!(
            policy.contains("frame-ancestors 'self' https://shop.example https://b.example;"),
            "{policy}"
        );
        let hash = BASE64.encode(Sha256::digest(SCRIPT.as_bytes()));
        assert!(
            policy.contains(&format!("script-src 'sha256-{hash}';")),
            "{policy}"
        );
        assert!(super::policy(&[]).contains("frame-ancestors 'self';"));
    }

    #[test]
    fn only_a_frame_gets_the_framed_page() {
        let mut headers = axum::http::HeaderMap::new();
        assert!(
            !is_framed(&headers),
            "no Fetch Metadata: the top-level return"
        );
        headers.insert("sec-fetch-dest", HeaderValue::from_static("iframe"));
        assert!(is_framed(&headers));
        headers.insert("sec-fetch-dest", HeaderValue::from_static("document"));
        assert!(!is_framed(&headers));
    }

    #[test]
    fn the_landing_address_cannot_leave_its_attribute() {
        assert_eq!(
            escape("https://s.example/?a=1&b=\"<x>"),
            "https://s.example/?a=1&amp;b=&quot;&lt;x&gt;"
        );
    }
}
