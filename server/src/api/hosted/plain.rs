//! The hosted pages without the card form (a link that cannot be paid, the receipt): a small
//! document of their own, no wasm and no template, the hosted styles inline, at most one
//! inline script (by hash), framed by nothing, never cached by a shared cache.

use axum::http::header::{CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, VARY};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use checkout::i18n::Locale;
use sha2::{Digest as _, Sha256};

use super::document::STYLES;

/// A hosted page without the card form.
pub struct Plain<'a> {
    /// The payer's language.
    pub locale: Locale,
    /// `<title>`, escaped.
    pub title: &'a str,
    /// The content of `<main>`, after the language switcher.
    pub main: &'a str,
    /// A script of the page's own, if any.
    pub script: Option<&'static str>,
}

impl Plain<'_> {
    /// The page with `status`.
    pub fn respond(&self, status: StatusCode) -> Response {
        let script = self
            .script
            .map(|script| format!("<script>{script}</script>"))
            .unwrap_or_default();
        let html = format!(
            "<!doctype html><html lang=\"{lang}\" dir=\"{dir}\"><head><meta charset=\"utf-8\">\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
             <meta name=\"referrer\" content=\"no-referrer\">\
             <title>{title}</title><style>{STYLES}</style></head><body><main>{main}</main>\
             {script}</body></html>",
            lang = self.locale.tag(),
            dir = self.locale.dir(),
            title = self.title,
            main = self.main,
        );
        let scripts = self
            .script
            .map(|script| {
                format!(
                    "'sha256-{}'",
                    BASE64.encode(Sha256::digest(script.as_bytes()))
                )
            })
            .unwrap_or_else(|| "'none'".to_owned());
        let policy = format!(
            "default-src 'none'; script-src {scripts}; style-src 'unsafe-inline'; \
             img-src 'self' data:; form-action 'none'; frame-ancestors 'none'; \
             base-uri 'none'; object-src 'none'"
        );
        html_response(status, html, &policy)
    }
}

/// A hosted page's `html` with `status` and its `policy`: never kept by a shared cache, and
/// varying with the payer's language.
pub fn html_response(status: StatusCode, html: String, policy: &str) -> Response {
    let mut response = (status, html).into_response();
    let headers = response.headers_mut();
    headers.insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("private, no-cache"));
    headers.insert(VARY, HeaderValue::from_static("Accept-Language"));
    if let Ok(policy) = HeaderValue::from_str(policy) {
        headers.insert(CONTENT_SECURITY_POLICY, policy);
    }
    response
}
