//! Security headers on every answer (API, errors, pages) and a strict CSP on pages the server
//! serves without one of their own.

use axum::Router;
use axum::body::Body;
use axum::http::Request;
use axum::response::Html;
use axum::routing::get;
use reqwest::Method;
use tower::ServiceExt as _;

use crate::api::support::Harness;
use crate::ops::support::{ops_suite, send};

const CONFIG: &[(&str, &str)] = &[];

ops_suite!(
    every_answer_carries_the_security_headers,
    pages_get_a_strict_csp
);

fn assert_secure(headers: &reqwest::header::HeaderMap, what: &str) {
    let get = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned()
    };
    assert_eq!(get("x-content-type-options"), "nosniff", "{what}");
    assert_eq!(get("referrer-policy"), "no-referrer", "{what}");
    assert_eq!(get("x-frame-options"), "DENY", "{what}");
    assert!(
        get("content-security-policy").contains("frame-ancestors 'none'"),
        "{what}"
    );
}

async fn every_answer_carries_the_security_headers(h: &Harness) {
    let session = h.session(100, serde_json::json!({})).await;
    let answers = [
        (
            "browser view",
            send(h.checkout(Method::GET, &session, "")).await,
        ),
        (
            "merchant list",
            send(h.merchant(Method::GET, "/v1/payments")).await,
        ),
        (
            "unauthorised",
            send(h.api.get(format!("{}/v1/payments", h.base))).await,
        ),
        (
            "not found",
            send(h.api.get(format!("{}/v1/nothing-here", h.base))).await,
        ),
        (
            "health",
            send(h.api.get(format!("{}/healthz", h.base))).await,
        ),
        (
            "metrics",
            send(h.api.get(format!("{}/metrics", h.base))).await,
        ),
    ];
    for (what, reply) in &answers {
        assert_secure(&reply.headers, what);
        let csp = reply.headers["content-security-policy"]
            .to_str()
            .expect("ascii");
        assert!(csp.starts_with("default-src 'none'"), "{what}: {csp}");
    }
    assert_eq!(
        answers[0].1.headers["cache-control"], "no-store",
        "API answers are not cached"
    );
    assert!(
        answers[0]
            .1
            .headers
            .get("strict-transport-security")
            .is_none(),
        "no HSTS over plain http"
    );
}

async fn pages_get_a_strict_csp(h: &Harness) {
    // A page without a policy of its own, served behind the same layers as every route.
    let pages = Router::new().route(
        "/page",
        get(|| async { Html("<!doctype html><p>paid</p>") }),
    );
    let app = checkout_server::web::protect::apply(pages, &h.state).with_state(h.state.clone());
    let response = app
        .oneshot(Request::get("/page").body(Body::empty()).expect("request"))
        .await
        .expect("answer");
    let headers = response.headers();
    let csp = headers["content-security-policy"].to_str().expect("ascii");
    assert_eq!(csp, checkout_server::web::protect::headers::PAGE_CSP);
    for directive in [
        "default-src 'none'",
        "script-src 'self' 'wasm-unsafe-eval'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "object-src 'none'",
    ] {
        assert!(csp.contains(directive), "{directive} missing from {csp}");
    }
    assert!(!csp.contains("unsafe-inline"), "{csp}");
    assert_eq!(headers["x-frame-options"], "DENY");
    assert_eq!(headers["cross-origin-opener-policy"], "same-origin");
    assert!(headers.contains_key("permissions-policy"));

    // The 3DS return page is a redirect, with the same headers.
    let landing = send(h.api.get(format!(
        "{}/checkout/return/no-such-payment/success",
        h.base
    )))
    .await;
    assert_secure(&landing.headers, "return page");
}
