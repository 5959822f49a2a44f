//! The demo shop's pages: the files trunk writes to `dist/` (HTML, the component's JS and wasm,
//! stylesheets), served from the directory named by `DEMO_DIST_DIR` (default `./dist`), and
//! the landing after 3-D Secure, which shows the shopper's order in result mode.
//!
//! Every HTML page gets a Content-Security-Policy of its own (the security-headers layer keeps
//! it): scripts only from this origin plus the exact inline scripts the page carries (by
//! SHA-256; trunk writes one to start the wasm), `'wasm-unsafe-eval'` so the component can
//! compile, inline styles (leptos sets `style` attributes), and nothing from elsewhere.

use std::path::PathBuf;

use axum::body::Body;
use axum::extract::Request;
use axum::http::header::{
    CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, IF_MODIFIED_SINCE, IF_NONE_MATCH,
    LOCATION,
};
use axum::http::{HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use sha2::{Digest as _, Sha256};
use tower::ServiceExt as _;
use tower_http::services::ServeDir;

use super::customer::DemoCustomer;
use super::error::DemoError;
use super::orders;

/// Environment variable naming the directory of the built pages.
pub const DIST_DIR_VAR: &str = "DEMO_DIST_DIR";
/// Default directory of the built pages (relative to the working directory).
pub const DEFAULT_DIST_DIR: &str = "dist";
/// Largest HTML page read into memory to hash its inline scripts.
const MAX_HTML_BYTES: usize = 1 << 20;

/// The directory the pages are served from.
pub fn dist_dir() -> PathBuf {
    std::env::var_os(DIST_DIR_VAR)
        .filter(|dir| !dir.is_empty())
        .map_or_else(|| PathBuf::from(DEFAULT_DIST_DIR), PathBuf::from)
}

/// `GET /` and `GET /{*path}`: a file of the built shop, or the API's 404.
pub async fn serve(request: Request) -> Response {
    let readable = matches!(*request.method(), Method::GET | Method::HEAD);
    if !readable {
        return DemoError::NotFound.into_response();
    }
    if let Some(result_page) = landing_redirect(&request) {
        return result_page;
    }
    let dir = dist_dir();
    if !dir.join("index.html").is_file() {
        let asks_for_shop = matches!(request.uri().path(), "/" | "/index.html");
        return if asks_for_shop {
            not_built(&dir)
        } else {
            DemoError::NotFound.into_response()
        };
    }
    let unconditional = without_conditions(&request);
    let Ok(response) = ServeDir::new(&dir).oneshot(request).await;
    if response.status() == StatusCode::NOT_FOUND {
        return DemoError::NotFound.into_response();
    }
    if response.status() == StatusCode::NOT_MODIFIED {
        // A 304 names no type: a page must never be answered with one, since the browser
        // would merge this answer's headers (not the page's CSP) into its stored copy.
        let Ok(full) = ServeDir::new(&dir).oneshot(unconditional).await;
        return if is_html(&full) && full.status() == StatusCode::OK {
            with_page_policy(full).await
        } else {
            response.into_response()
        };
    }
    if is_html(&response) && response.status() == StatusCode::OK {
        with_page_policy(response).await
    } else {
        response.into_response()
    }
}

/// True when `response` is an HTML document.
fn is_html<B>(response: &Response<B>) -> bool {
    response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html"))
}

/// The same read as `request` without its validators (`If-None-Match`, `If-Modified-Since`),
/// so the file comes back in full.
fn without_conditions(request: &Request) -> Request {
    let mut copy = Request::new(Body::empty());
    *copy.method_mut() = request.method().clone();
    *copy.uri_mut() = request.uri().clone();
    *copy.version_mut() = request.version();
    *copy.headers_mut() = request.headers().clone();
    copy.headers_mut().remove(IF_NONE_MATCH);
    copy.headers_mut().remove(IF_MODIFIED_SINCE);
    copy
}

/// The customer back from 3-D Secure lands on `/?checkout=…&session_id=…&payment_id=…` (the
/// default `SUCCESS_URL`/`DECLINE_URL`). When that session is one of their orders, send them to
/// the shop page in result mode for it (the page needs the session's client secret, which
/// only the shop backend kept).
fn landing_redirect(request: &Request) -> Option<Response> {
    if request.uri().path() != "/" {
        return None;
    }
    let url = reqwest::Url::parse(&format!(
        "http://landing.invalid/?{}",
        request.uri().query()?
    ))
    .ok()?;
    let param = |name: &str| {
        url.query_pairs()
            .find(|(key, _)| key == name)
            .map(|(_, v)| v.into_owned())
    };
    let (Some(outcome), Some(session_id)) = (param("checkout"), param("session_id")) else {
        return None;
    };
    let customer = DemoCustomer::from_headers(request.headers());
    let order = orders::lookup(&session_id, &customer.id)?;
    let mut target = reqwest::Url::parse("http://landing.invalid/").ok()?;
    target
        .query_pairs_mut()
        .append_pair("session", &session_id)
        .append_pair("client_secret", &order.client_secret)
        .append_pair("mode", "result")
        .append_pair("checkout", &outcome);
    let location = HeaderValue::from_str(&format!("/?{}", target.query()?)).ok()?;
    Some(
        (
            StatusCode::SEE_OTHER,
            [
                (LOCATION, location),
                (CACHE_CONTROL, HeaderValue::from_static("no-store")),
            ],
        )
            .into_response(),
    )
}

/// Reads an HTML answer and sends it again with its CSP and `no-cache`.
async fn with_page_policy(
    response: Response<tower_http::services::fs::ServeFileSystemResponseBody>,
) -> Response {
    let (mut parts, body) = response.into_parts();
    let Ok(bytes) = axum::body::to_bytes(Body::new(body), MAX_HTML_BYTES).await else {
        return DemoError::Internal("a demo page could not be read").into_response();
    };
    let policy = page_policy(&String::from_utf8_lossy(&bytes));
    match HeaderValue::from_str(&policy) {
        Ok(value) => {
            parts.headers.insert(CONTENT_SECURITY_POLICY, value);
        }
        Err(_) => {
            return DemoError::Internal("a page policy is not a valid header").into_response();
        }
    }
    parts
        .headers
        .insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    parts.headers.remove(axum::http::header::CONTENT_LENGTH);
    Response::from_parts(parts, Body::from(bytes))
}

/// The CSP of a page whose HTML is `html`.
pub fn page_policy(html: &str) -> String {
    let hashes: String = inline_scripts(html)
        .into_iter()
        .map(|script| {
            format!(
                " 'sha256-{}'",
                BASE64.encode(Sha256::digest(script.as_bytes()))
            )
        })
        .collect();
    format!(
        "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'{hashes}; style-src 'self' 'unsafe-inline'; \
         img-src 'self' data:; font-src 'self'; connect-src 'self'; form-action 'self'; \
         frame-ancestors 'none'; base-uri 'none'; object-src 'none'"
    )
}

/// The text of every `<script>` element without a `src` attribute, exactly as written.
fn inline_scripts(html: &str) -> Vec<&str> {
    let mut scripts = Vec::new();
    let lower = html.to_ascii_lowercase();
    let mut from = 0;
    while let Some(start) = lower[from..].find("<script").map(|i| i + from) {
        let Some(tag_end) = lower[start..].find('>').map(|i| i + start + 1) else {
            break;
        };
        let Some(close) = lower[tag_end..].find("</script").map(|i| i + tag_end) else {
            break;
        };
        if !has_src(&lower[start..tag_end]) {
            scripts.push(&html[tag_end..close]);
        }
        from = close;
    }
    scripts
}

fn has_src(tag: &str) -> bool {
    tag.split(|c: char| c.is_ascii_whitespace())
        .any(|word| word.starts_with("src=") || word == "src")
}

/// A plain page telling the operator the shop was not built.
fn not_built(dir: &std::path::Path) -> Response {
    let text = format!(
        "The demo shop pages are not built: no index.html in {}.\n\
         Build them with `trunk build --release` (or run `make run`), or set {DIST_DIR_VAR}.\n",
        dir.display()
    );
    (
        StatusCode::SERVICE_UNAVAILABLE,
        [(CONTENT_TYPE, "text/plain; charset=utf-8")],
        text,
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_only_inline_scripts() {
        let html = "<head><script type=\"module\">\nimport init from '/a.js';\n</script>\
                    <SCRIPT src=\"/b.js\"></SCRIPT><script>x()</script></head>";
        assert_eq!(
            inline_scripts(html),
            vec!["\nimport init from '/a.js';\n", "x()"]
        );
        let policy = page_policy(html);
        let expected = BASE64.encode(Sha256::digest(b"x()"));
        assert!(policy.contains(&format!("'sha256-{expected}'")), "{policy}");
        assert_eq!(policy.matches("'sha256-").count(), 2, "{policy}");
        assert!(policy.contains("'wasm-unsafe-eval'") && policy.contains("frame-ancestors 'none'"));
    }

    #[test]
    fn a_page_without_scripts_allows_only_its_origin() {
        let policy = page_policy("<p>hello</p>");
        assert!(!policy.contains("sha256"), "{policy}");
        assert!(
            policy.starts_with("default-src 'none'; script-src 'self' 'wasm-unsafe-eval';"),
            "{policy}"
        );
    }
}
