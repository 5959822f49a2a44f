//! `/docs`: the API reference rendered from the OpenAPI document is one HTML page with a
//! strict CSP and no script, naming every path of the document, every error code of its
//! `Error` schema (`x-error-codes`, each with a status, a meaning and what to do), the
//! payment's `attempts` and that a declined session can be paid again.

use checkout_server::api::openapi::OPENAPI_JSON;
use serde_json::Value;

use crate::api::support::Harness;
use crate::ops::support::{ops_suite, send};

const CONFIG: &[(&str, &str)] = &[];

ops_suite!(the_reference_is_served);

async fn the_reference_is_served(h: &Harness) {
    let reply = send(h.api.get(format!("{}/docs", h.base))).await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_eq!(reply.headers["content-type"], "text/html; charset=utf-8");
    let csp = reply.headers["content-security-policy"]
        .to_str()
        .expect("ASCII CSP");
    assert!(csp.starts_with("default-src 'none'"), "{csp}");
    assert!(!csp.contains("script-src"), "{csp}");
    let page = &reply.text;
    assert!(page.starts_with("<!doctype html>"));
    assert!(!page.to_ascii_lowercase().contains("<script"), "no script");
    assert!(!page.contains("src=\"http"), "nothing from other origins");

    let doc: Value = serde_json::from_str(OPENAPI_JSON).expect("JSON");
    for path in doc["paths"].as_object().expect("paths").keys() {
        assert!(
            page.contains(&format!("<code>{path}</code>")),
            "{path} is not in /docs"
        );
    }
    let codes = doc["components"]["schemas"]["Error"]["x-error-codes"]
        .as_array()
        .expect("x-error-codes");
    let mut names = Vec::new();
    for entry in codes {
        let code = entry["code"].as_str().expect("code");
        assert!(
            entry["status"]
                .as_u64()
                .is_some_and(|s| (400..600).contains(&s))
        );
        for key in ["meaning", "action"] {
            assert!(
                entry[key].as_str().is_some_and(|t| !t.is_empty()),
                "{code}: no {key}"
            );
        }
        assert!(
            page.contains(&format!(
                "<td><code>{code}</code></td><td>{}</td>",
                entry["status"]
            )),
            "{code} is not in the errors table of /docs"
        );
        names.push(code);
    }
    for known in [
        "invalid_field",
        "luhn_failed",
        "unauthorized",
        "origin_not_allowed",
        "not_found",
        "session_paid",
        "payment_in_progress",
        "idempotency_key_reused",
        "session_expired",
        "rate_limited",
        "gateway_error",
        "unavailable",
        "internal_error",
    ] {
        assert!(names.contains(&known), "{known} missing from x-error-codes");
    }
    assert!(page.contains("<code>attempts</code>"));
    assert!(page.contains("Gateway calls made for this payment"));
    assert!(page.contains("can pay again with another card"));
}
