//! Request validation on the emulator: every contract limit names its field (400), card
//! problems are 406, malformed JSON and wrong types are 400, unknown ids 404, oversized bodies
//! 413, unknown endpoints and methods get the JSON failure body too. Nothing is recorded.

use checkout_sandbox::SandboxConfig;
use serde_json::{Value, json};

use super::support::{Gateway, fast_config, payment_body};

fn with(mutate: impl FnOnce(&mut Value)) -> Value {
    let mut body = payment_body("4242424242424242");
    mutate(&mut body);
    body
}

#[tokio::test]
async fn contract_limits_name_their_field() {
    let gateway = Gateway::start().await;
    let cases: Vec<(&str, Value)> = vec![
        (
            "merchant_txn_ref",
            with(|b| b["merchant_txn_ref"] = json!("r".repeat(46))),
        ),
        (
            "merchant_txn_ref",
            with(|b| b["merchant_txn_ref"] = json!("")),
        ),
        (
            "customer_ip",
            with(|b| b["customer_ip"] = json!(format!("2001:db8::{}", "1".repeat(40)))),
        ),
        (
            "customer_ip",
            with(|b| b["customer_ip"] = json!("not an ip")),
        ),
        (
            "merchant_id",
            with(|b| b["merchant_id"] = json!("m".repeat(129))),
        ),
        (
            "time_zone",
            with(|b| b["time_zone"] = json!("Z".repeat(129))),
        ),
        ("currency", with(|b| b["currency"] = json!("JP"))),
        ("currency", with(|b| b["currency"] = json!("usd"))),
        ("currency", with(|b| b["currency"] = json!("ABC"))),
        ("amount", with(|b| b["amount"] = json!("0"))),
        ("amount", with(|b| b["amount"] = json!("1000000000000"))),
        ("card.name", with(|b| b["card"]["name"] = json!("  "))),
        (
            "payment_method.type",
            with(|b| b["payment_method"] = json!({"type": "wallet"})),
        ),
        (
            "stored_payment_method_id",
            with(|b| {
                b["payment_method"] = json!({"type": "scheme", "stored_payment_method_id": "t"})
            }),
        ),
        (
            "card",
            with(|b| {
                b.as_object_mut().map(|o| o.remove("card"));
            }),
        ),
    ];
    for (field, body) in cases {
        let reply = gateway.post("payment", &body).await;
        let message = reply.failure(400, "ERR0003");
        assert!(message.contains(field), "{field}: {message}");
    }
    assert_eq!(gateway.transaction_count().await, 0);
}

#[tokio::test]
async fn bad_amounts_and_types_are_malformed_bodies_naming_the_field() {
    let gateway = Gateway::start().await;
    for amount in [
        json!("-5"),
        json!("10.5"),
        json!("abc"),
        json!(10.5),
        json!(null),
    ] {
        let reply = gateway
            .post("payment", &with(|b| b["amount"] = amount.clone()))
            .await;
        let message = reply.failure(400, "ERR0002");
        assert!(message.contains("amount"), "{amount}: {message}");
    }
    let missing = gateway
        .post(
            "payment",
            &with(|b| {
                b.as_object_mut().map(|o| o.remove("currency"));
            }),
        )
        .await;
    assert!(missing.failure(400, "ERR0002").contains("currency"));
    let numeric_card = gateway
        .post(
            "payment",
            &with(|b| b["card"]["number"] = json!(4242424242424242u64)),
        )
        .await;
    let message = numeric_card.failure(400, "ERR0002");
    assert!(message.contains("card.number"), "{message}");
    assert!(
        !numeric_card.text.contains("4242424242424242"),
        "{}",
        numeric_card.text
    );
}

#[tokio::test]
async fn invalid_cards_are_406_naming_the_field() {
    let gateway = Gateway::start().await;
    let cases: Vec<(&str, Value)> = vec![
        (
            "card.number",
            with(|b| b["card"]["number"] = json!("4242424242424241")),
        ),
        ("card.number", with(|b| b["card"]["number"] = json!("4242"))),
        (
            "card.number",
            with(|b| b["card"]["number"] = json!("4242abcd42424242")),
        ),
        (
            "card.expiry_year",
            with(|b| {
                b["card"]["expiry_month"] = json!("01");
                b["card"]["expiry_year"] = json!("20");
            }),
        ),
        (
            "card.expiry_month",
            with(|b| b["card"]["expiry_month"] = json!("13")),
        ),
        (
            "card.expiry_year",
            with(|b| b["card"]["expiry_year"] = json!("2")),
        ),
        ("card.cvc", with(|b| b["card"]["cvc"] = json!("12"))),
        ("card.cvc", with(|b| b["card"]["cvc"] = json!("1234"))),
    ];
    for (field, body) in cases {
        let reply = gateway.post("payment", &body).await;
        let message = reply.failure(406, "ERR0004");
        assert!(message.contains(field), "{field}: {message}");
        assert!(!reply.text.contains("4242424242424241"), "{}", reply.text);
    }
    let amex_short_cvc = gateway
        .post(
            "payment",
            &with(|b| {
                b["card"]["number"] = json!("378282246310005");
                b["card"]["cvc"] = json!("123");
            }),
        )
        .await;
    assert!(amex_short_cvc.failure(406, "ERR0004").contains("card.cvc"));
    let four_digit_year = gateway
        .post(
            "payment",
            &with(|b| b["card"]["expiry_year"] = json!("2039")),
        )
        .await;
    assert_eq!(
        four_digit_year.status, 201,
        "four-digit years are accepted: {}",
        four_digit_year.text
    );
}

#[tokio::test]
async fn malformed_json_is_a_400() {
    let gateway = Gateway::start().await;
    for text in ["{", "not json", "[1,2]", "{\"amount\": \"1\",}", ""] {
        let answer = gateway
            .authed(reqwest::Method::POST, &gateway.sandbox.api_url("payment"))
            .header("content-type", "application/json")
            .body(text)
            .send()
            .await
            .expect("answer");
        assert_eq!(answer.status(), 400, "{text:?}");
        let body: Value = answer.json().await.expect("json failure body");
        assert_eq!(body["gateway_response"]["code"], "ERR0002", "{text:?}");
    }
}

#[tokio::test]
async fn unknown_and_oversized_ids_on_status() {
    let gateway = Gateway::start().await;
    gateway
        .status(&uuid::Uuid::new_v4().to_string())
        .await
        .failure(404, "ERR0005");
    gateway
        .status("not-a-transaction")
        .await
        .failure(404, "ERR0005");
    let message = gateway
        .status(&"a".repeat(37))
        .await
        .failure(400, "ERR0003");
    assert!(message.contains("transactionId"), "{message}");
}

#[tokio::test]
async fn bodies_over_the_limit_are_413() {
    let config = SandboxConfig {
        body_limit: 2048,
        ..fast_config()
    };
    let gateway = Gateway::with_config(config).await;
    let big = with(|b| b["billing_address"]["address1"] = json!("x".repeat(4096)));
    gateway.post("payment", &big).await.failure(413, "ERR0006");
    assert_eq!(
        gateway
            .post("payment", &payment_body("4242424242424242"))
            .await
            .status,
        201
    );
}

#[tokio::test]
async fn unknown_endpoints_and_methods_get_failure_bodies() {
    let gateway = Gateway::start().await;
    let unknown = gateway.post("teleport", &json!({})).await;
    unknown.failure(404, "ERR0005");
    let wrong_method = gateway
        .authed(reqwest::Method::GET, &gateway.sandbox.api_url("payment"))
        .send()
        .await
        .expect("answer");
    assert_eq!(wrong_method.status(), 405);
    let body: Value = wrong_method.json().await.expect("json");
    assert_eq!(body["gateway_response"]["code"], "ERR0008");
}
