//! Request bodies: too large → 413, not JSON → 415, malformed JSON → 400 naming the problem,
//! all in the API's error shape.

use reqwest::Method;
use serde_json::json;

use crate::api::support::Harness;
use crate::ops::support::{ops_suite, send};

const CONFIG: &[(&str, &str)] = &[("MAX_BODY_BYTES", "2048")];

ops_suite!(oversized_and_non_json_bodies_are_refused);

async fn oversized_and_non_json_bodies_are_refused(h: &Harness) {
    let big = json!({"amount": 100, "currency": "JPY", "reference": "big", "description": "x".repeat(4000)});
    send(h.merchant(Method::POST, "/v1/sessions").json(&big))
        .await
        .assert_error(413, "payload_too_large", None);
    let session = h.session(100, json!({})).await;
    let big_pay = json!({"card": {"number": "4".repeat(5000)}});
    let reply = send(h.checkout(Method::POST, &session, "/pay").json(&big_pay)).await;
    reply.assert_error(413, "payload_too_large", None);
    assert!(!reply.text.contains("4444"), "the body is never echoed");

    let text = send(
        h.merchant(Method::POST, "/v1/sessions")
            .header("Content-Type", "text/plain")
            .body("amount=100"),
    )
    .await;
    text.assert_error(415, "unsupported_media_type", None);
    assert!(
        text.json["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("application/json")
    );
    let form = send(
        h.merchant(Method::POST, "/v1/subscriptions/x/pause")
            .form(&[("a", "b")]),
    )
    .await;
    form.assert_error(415, "unsupported_media_type", None);

    let broken = send(
        h.merchant(Method::POST, "/v1/sessions")
            .header("Content-Type", "application/json")
            .body("{\"amount\": 100,"),
    )
    .await;
    broken.assert_error(400, "invalid_json", None);
    let wrong_type = send(
        h.merchant(Method::POST, "/v1/sessions")
            .json(&json!({"amount": "lots", "currency": "JPY", "reference": "r"})),
    )
    .await;
    wrong_type.assert_error(400, "invalid_field", Some("amount"));
    let missing = send(
        h.merchant(Method::POST, "/v1/sessions")
            .json(&json!({"amount": 1, "currency": "JPY"})),
    )
    .await;
    missing.assert_error(400, "invalid_field", Some("reference"));
}
