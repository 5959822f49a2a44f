//! Bad input gets a 4xx in the contract's error shape naming the field, never a 500, never an
//! echo of the card number; nothing reaches the gateway or the store.

use checkout_server::store::model::{CaptureMode, NewSession};
use checkout_server::store::prelude::*;
use serde_json::{Value, json};

use crate::api::support::{Harness, Reply, api_suite, cards, pay_body};

api_suite!(
    pay_errors_name_the_field,
    session_errors_name_the_field,
    browser_credentials_are_checked
);

async fn pay_errors_name_the_field(h: &Harness) {
    let session = h.session(1000, json!({})).await;
    let with = |change: &dyn Fn(&mut Value)| {
        let mut body = pay_body(cards::VISA_OK, "123");
        change(&mut body);
        body
    };
    let cases: Vec<(Value, &str, &str)> = vec![
        (
            with(&|b| b["card"]["number"] = json!("4242424242424241")),
            "luhn_failed",
            "card.number",
        ),
        (
            with(&|b| b["card"]["number"] = json!("4242 4242 42x")),
            "invalid_number",
            "card.number",
        ),
        (
            with(&|b| b["card"]["expiry_month"] = json!("13")),
            "invalid_month",
            "card.expiry_month",
        ),
        (
            with(&|b| b["card"]["expiry_year"] = json!("2020")),
            "expired",
            "card.expiry",
        ),
        (
            with(&|b| b["card"]["cvc"] = json!("12")),
            "invalid_cvc_length",
            "card.cvc",
        ),
        (
            with(&|b| b["card"]["name"] = json!("  ")),
            "name_required",
            "card.name",
        ),
        (
            with(&|b| b["card"]["name"] = json!("4242 4242 4242 4242")),
            "name_contains_number",
            "card.name",
        ),
        (
            with(&|b| b["card"]["number"] = json!(4242424242424242u64)),
            "invalid_field",
            "card.number",
        ),
        (
            with(&|b| {
                b["card"]
                    .as_object_mut()
                    .map(|c| c.remove("cvc"))
                    .map(drop)
                    .unwrap_or_default()
            }),
            "invalid_field",
            "card.cvc",
        ),
        (
            with(&|b| {
                b.as_object_mut()
                    .map(|c| c.remove("browser_info"))
                    .map(drop)
                    .unwrap_or_default()
            }),
            "invalid_field",
            "browser_info",
        ),
        (
            with(&|b| b["browser_info"]["time_zone"] = json!("Not A Zone!")),
            "invalid_field",
            "browser_info.time_zone",
        ),
        (
            with(&|b| b["browser_info"]["language"] = json!("")),
            "invalid_field",
            "browser_info.language",
        ),
        (
            with(&|b| b["billing_address"]["country"] = json!("")),
            "required",
            "billing_address.country",
        ),
        (
            with(&|b| b["billing_address"]["country"] = json!("Japan")),
            "invalid_field",
            "billing_address.country",
        ),
        (
            with(&|b| b["billing_address"]["email"] = json!("nope")),
            "invalid_field",
            "billing_address.email",
        ),
        (
            with(&|b| {
                b.as_object_mut()
                    .map(|c| c.remove("card"))
                    .map(drop)
                    .unwrap_or_default()
            }),
            "required",
            "card",
        ),
        (
            with(&|b| b["saved_card_id"] = json!("x")),
            "invalid_field",
            "saved_card_id",
        ),
    ];
    for (body, code, field) in cases {
        let reply = h.pay(&session, &body, None).await;
        reply.assert_error(400, code, Some(field));
        assert!(
            !reply.text.contains("4242424242424242") && !reply.text.contains("4242 4242"),
            "{}",
            reply.text
        );
    }
    let malformed = Reply::read(
        h.checkout(reqwest::Method::POST, &session, "/pay")
            .header("content-type", "application/json")
            .body("{\"card\": {\"number\": \"4242424242424242\"")
            .send()
            .await
            .expect("sent"),
    )
    .await;
    malformed.assert_error(400, "invalid_json", None);
    assert!(!malformed.text.contains("4242"), "{}", malformed.text);
    let not_json = Reply::read(
        h.checkout(reqwest::Method::POST, &session, "/pay")
            .body("card=4242424242424242")
            .send()
            .await
            .expect("sent"),
    )
    .await;
    not_json.assert_error(415, "unsupported_media_type", None);
    assert_eq!(h.gateway_charges(&session.reference), 0);
    let page = h
        .store()
        .list_payments(PaymentQuery {
            session_id: Some(session.id.clone()),
            ..PaymentQuery::default()
        })
        .await
        .expect("list");
    assert!(
        page.items.is_empty(),
        "no payment is recorded for invalid input"
    );
    // The session is still payable after all that.
    let redirect = h.pay_to_redirect(&session, cards::VISA_OK).await;
    assert!(redirect.contains("/_sandbox/"));
}

async fn session_errors_name_the_field(h: &Harness) {
    let create = |body: Value| async move {
        Reply::read(
            h.merchant(reqwest::Method::POST, "/v1/sessions")
                .json(&body)
                .send()
                .await
                .expect("sent"),
        )
        .await
    };
    let cases = [
        (
            json!({"amount": 100, "currency": "JPY", "reference": "x".repeat(46)}),
            "invalid_field",
            "reference",
        ),
        (
            json!({"amount": 100, "currency": "usd", "reference": "r"}),
            "invalid_field",
            "currency",
        ),
        (
            json!({"amount": 100, "currency": "XXX", "reference": "r"}),
            "invalid_field",
            "currency",
        ),
        (
            json!({"amount": 0, "currency": "JPY", "reference": "r"}),
            "invalid_field",
            "amount",
        ),
        (
            json!({"amount": -5, "currency": "JPY", "reference": "r"}),
            "invalid_field",
            "amount",
        ),
        (
            json!({"amount": 1.5, "currency": "JPY", "reference": "r"}),
            "invalid_field",
            "amount",
        ),
        (
            json!({"currency": "JPY", "reference": "r"}),
            "required",
            "amount",
        ),
        (
            json!({"amount": 100, "currency": "JPY"}),
            "invalid_field",
            "reference",
        ),
        // The contract's limits hold for the text as sent, also at the ends trimming takes off.
        (
            json!({"amount": 100, "currency": "JPY", "reference": "\tr"}),
            "invalid_field",
            "reference",
        ),
        (
            json!({"amount": 100, "currency": "JPY", "reference": format!("{} ", "x".repeat(45))}),
            "invalid_field",
            "reference",
        ),
        (
            json!({"amount": 100, "currency": "JPY", "reference": "r", "description": "\n"}),
            "invalid_field",
            "description",
        ),
        (
            json!({"amount": 100, "currency": "JPY", "reference": "r", "email": "not-an-email"}),
            "invalid_field",
            "email",
        ),
        (
            json!({"amount": 100, "currency": "JPY", "reference": "r", "customer_id": "a\u{7}b"}),
            "invalid_field",
            "customer_id",
        ),
        (
            json!({"amount": 100, "currency": "JPY", "reference": "r", "amout": 5}),
            "invalid_field",
            "amout",
        ),
        (
            json!({"reference": "r", "plan_id": "no-such-plan", "customer_id": "c"}),
            "unknown_plan",
            "plan_id",
        ),
        (
            json!({"reference": "r", "plan_id": "demo-monthly"}),
            "required",
            "customer_id",
        ),
        (
            json!({"reference": "r", "plan_id": "demo-monthly", "customer_id": "c", "capture": false}),
            "invalid_field",
            "capture",
        ),
    ];
    for (body, code, field) in cases {
        create(body).await.assert_error(400, code, Some(field));
    }
    let anonymous = Reply::read(
        h.api
            .post(format!("{}/v1/sessions", h.base))
            .json(&json!({}))
            .send()
            .await
            .expect("sent"),
    )
    .await;
    anonymous.assert_error(401, "unauthorized", None);
    let wrong = Reply::read(
        h.api
            .post(format!("{}/v1/sessions", h.base))
            .bearer_auth("sk_test_0123456789abcdeX")
            .json(&json!({}))
            .send()
            .await
            .expect("sent"),
    )
    .await;
    wrong.assert_error(401, "unauthorized", None);
    let missing = Reply::read(
        h.merchant(reqwest::Method::GET, "/v1/sessions/nope")
            .send()
            .await
            .expect("sent"),
    )
    .await;
    missing.assert_error(404, "not_found", None);
    let list = Reply::read(
        h.merchant(reqwest::Method::GET, "/v1/payments?limit=1000")
            .send()
            .await
            .expect("sent"),
    )
    .await;
    list.assert_error(400, "invalid_field", Some("limit"));
    let nowhere = Reply::read(
        h.api
            .get(format!("{}/v1/nowhere", h.base))
            .send()
            .await
            .expect("sent"),
    )
    .await;
    nowhere.assert_error(404, "not_found", None);
}

async fn browser_credentials_are_checked(h: &Harness) {
    let session = h.session(1000, json!({})).await;
    let no_secret = Reply::read(
        h.api
            .get(format!("{}/v1/checkout/{}", h.base, session.id))
            .send()
            .await
            .expect("sent"),
    )
    .await;
    no_secret.assert_error(401, "missing_client_secret", None);
    let mut wrong = session.clone();
    wrong.secret.push('x');
    let reply = Reply::read(
        h.checkout(reqwest::Method::GET, &wrong, "")
            .send()
            .await
            .expect("sent"),
    )
    .await;
    reply.assert_error(401, "invalid_client_secret", None);
    let reply = h.pay(&wrong, &pay_body(cards::VISA_OK, "123"), None).await;
    reply.assert_error(401, "invalid_client_secret", None);
    let mut unknown = session.clone();
    unknown.id = uuid::Uuid::new_v4().to_string();
    let reply = Reply::read(
        h.checkout(reqwest::Method::GET, &unknown, "/result")
            .send()
            .await
            .expect("sent"),
    )
    .await;
    reply.assert_error(401, "invalid_client_secret", None);
    let reply = Reply::read(
        h.checkout(reqwest::Method::GET, &session, "/result")
            .send()
            .await
            .expect("sent"),
    )
    .await;
    reply.assert_error(404, "not_found", None);

    // An expired session takes no payment.
    let expired = h
        .store()
        .create_session(NewSession {
            id: new_session_id(),
            client_secret_hash: SecretHash::of("cs_expired_secret"),
            amount: 100,
            currency: "JPY".into(),
            reference: "expired-order".into(),
            capture_mode: CaptureMode::Capture,
            customer_id: None,
            email: None,
            plan_id: None,
            description: None,
            expires_at: time::OffsetDateTime::now_utc() - time::Duration::minutes(1),
            link: None,
        })
        .await
        .expect("stored");
    let expired = crate::api::support::TestSession {
        id: expired.id,
        secret: "cs_expired_secret".into(),
        reference: "expired-order".into(),
    };
    h.pay(&expired, &pay_body(cards::VISA_OK, "123"), None)
        .await
        .assert_error(410, "session_expired", None);
    assert_eq!(h.gateway_charges("expired-order"), 0);
}
