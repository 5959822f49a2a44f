//! Authorization, then the merchant's capture (partial), refunds (partial, then the rest;
//! never above what was captured) and void, each checked against the emulator's ledger.

use checkout_sandbox::ledger::RecordKind;
use serde_json::{Value, json};

use crate::api::support::{Harness, Reply, TestSession, api_suite, cards, of_session};

api_suite!(
    auth_capture_partial_refund_and_void,
    adjustments_check_state_and_amounts,
    ids_the_server_cannot_have_given_are_not_found
);

async fn authorized(h: &Harness, amount: u64) -> (TestSession, String) {
    let session = h.session(amount, json!({"capture": false})).await;
    let redirect = h.pay_to_redirect(&session, cards::VISA_OK).await;
    h.complete_3ds(&redirect, "approve").await;
    let result = h.result(&session).await;
    assert_eq!(result["state"], "authorized");
    (
        session,
        result["payment_id"].as_str().expect("id").to_owned(),
    )
}

async fn post(h: &Harness, path: &str, body: Option<Value>) -> Reply {
    let mut request = h.merchant(reqwest::Method::POST, path);
    if let Some(body) = body {
        request = request.json(&body);
    }
    Reply::read(request.send().await.expect("sent")).await
}

async fn auth_capture_partial_refund_and_void(h: &Harness) {
    let (session, id) = authorized(h, 1000).await;
    let captured = post(
        h,
        &format!("/v1/payments/{id}/capture"),
        Some(json!({"amount": 600})),
    )
    .await;
    assert_eq!(captured.status, 200, "{}", captured.text);
    assert_eq!(captured.json["state"], "captured");
    assert_eq!(captured.json["captured_amount"], 600);
    assert_eq!(captured.json["refundable_amount"], 600);

    let refunded = post(
        h,
        &format!("/v1/payments/{id}/refund"),
        Some(json!({"amount": 200})),
    )
    .await;
    assert_eq!(
        refunded.json["state"], "partially_refunded",
        "{}",
        refunded.text
    );
    assert_eq!(refunded.json["refunded_amount"], 200);

    let too_much = post(
        h,
        &format!("/v1/payments/{id}/refund"),
        Some(json!({"amount": 500})),
    )
    .await;
    too_much.assert_error(409, "amount_exceeds_refundable", Some("amount"));

    let rest = post(h, &format!("/v1/payments/{id}/refund"), None).await;
    assert_eq!(rest.json["state"], "refunded", "{}", rest.text);
    assert_eq!(rest.json["refunded_amount"], 600);
    assert_eq!(rest.json["refundable_amount"], 0);
    post(
        h,
        &format!("/v1/payments/{id}/refund"),
        Some(json!({"amount": 1})),
    )
    .await
    .assert_error(409, "invalid_state", None);

    assert_eq!(
        h.gateway_records(&session.reference, RecordKind::Capture),
        1
    );
    assert_eq!(h.gateway_records(&session.reference, RecordKind::Refund), 2);
    let record = h
        .sandbox
        .ledger
        .all()
        .into_iter()
        .find(|r| {
            of_session(&r.merchant.merchant_txn_ref, &session.reference)
                && r.kind == RecordKind::Authorization
        })
        .expect("authorization at the gateway");
    assert_eq!((record.money.captured, record.money.refunded), (600, 600));

    let (other, void_id) = authorized(h, 700).await;
    let voided = post(h, &format!("/v1/payments/{void_id}/void"), None).await;
    assert_eq!(voided.json["state"], "voided", "{}", voided.text);
    post(h, &format!("/v1/payments/{void_id}/capture"), None)
        .await
        .assert_error(409, "invalid_state", None);
    assert_eq!(h.gateway_records(&other.reference, RecordKind::Void), 1);
    assert_eq!(h.gateway_records(&other.reference, RecordKind::Capture), 0);

    let listed = Reply::read(
        h.merchant(reqwest::Method::GET, "/v1/payments?state=voided&limit=10")
            .send()
            .await
            .expect("sent"),
    )
    .await;
    assert_eq!(listed.status, 200, "{}", listed.text);
    let ids: Vec<&str> = listed.json["data"]
        .as_array()
        .expect("data")
        .iter()
        .filter_map(|p| p["id"].as_str())
        .collect();
    assert!(ids.contains(&void_id.as_str()), "{ids:?}");
    assert!(!ids.contains(&id.as_str()));
}

async fn adjustments_check_state_and_amounts(h: &Harness) {
    let (_, id) = authorized(h, 1000).await;
    post(
        h,
        &format!("/v1/payments/{id}/capture"),
        Some(json!({"amount": 1001})),
    )
    .await
    .assert_error(400, "invalid_amount", Some("amount"));
    post(
        h,
        &format!("/v1/payments/{id}/capture"),
        Some(json!({"amount": 0})),
    )
    .await
    .assert_error(400, "invalid_amount", Some("amount"));
    post(h, &format!("/v1/payments/{id}/refund"), None)
        .await
        .assert_error(409, "invalid_state", None);
    post(
        h,
        &format!("/v1/payments/{id}/void"),
        Some(json!({"amount": 5})),
    )
    .await
    .assert_error(400, "invalid_field", Some("amount"));
    post(
        h,
        &format!("/v1/payments/{id}/capture"),
        Some(json!({"amount": "10"})),
    )
    .await
    .assert_error(400, "invalid_field", Some("amount"));
    post(
        h,
        "/v1/payments/00000000-0000-0000-0000-000000000000/capture",
        None,
    )
    .await
    .assert_error(404, "not_found", None);
    let full = post(h, &format!("/v1/payments/{id}/capture"), None).await;
    assert_eq!(full.json["captured_amount"], 1000, "{}", full.text);
    let unauthenticated = Reply::read(
        h.api
            .post(format!("{}/v1/payments/{id}/refund", h.base))
            .send()
            .await
            .expect("sent"),
    )
    .await;
    unauthenticated.assert_error(401, "unauthorized", None);
    assert_eq!(unauthenticated.headers["www-authenticate"], "Bearer");
}

/// A path id with a NUL (or anything an id never holds) is a 404, also with an
/// `Idempotency-Key`, whose scope it would otherwise enter (PostgreSQL refused the NUL: 500).
async fn ids_the_server_cannot_have_given_are_not_found(h: &Harness) {
    for path in [
        "/v1/payments/a%00b/refund",
        "/v1/payments/a%20b/capture",
        "/v1/subscriptions/a%00b/cancel",
    ] {
        let reply = Reply::read(
            h.merchant(reqwest::Method::POST, path)
                .header("Idempotency-Key", "nul-in-path")
                .send()
                .await
                .expect("sent"),
        )
        .await;
        assert_eq!(reply.status, 404, "{path}: {}", reply.text);
    }
    for path in ["/v1/payments/a%00b", "/v1/subscriptions/a%00b"] {
        let reply = Reply::read(
            h.merchant(reqwest::Method::GET, path)
                .send()
                .await
                .expect("sent"),
        )
        .await;
        assert_eq!(reply.status, 404, "{path}: {}", reply.text);
    }
}
