//! `/payment` and `/authorization` on the emulator: response shapes, every test card, tokens,
//! the velocity rule, the approve-once card and the hanging card.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use super::support::{Gateway, Reply, TEST_HANG, payment_body, token_body};

/// Checks every field of an approved payment-form answer; returns nothing, panics on a gap.
fn assert_approved_payment(reply: &Reply, transaction_type: &str, number: &str) {
    let body = &reply.json;
    assert_eq!(reply.status, 201, "{}", reply.text);
    assert_eq!(body["success"], true);
    assert_eq!(body["status_code"], 201);
    assert_eq!(body["is_live"], false);
    assert_eq!(body["transaction_type"], transaction_type);
    let gateway = &body["gateway_response"];
    assert_eq!(gateway["version"], "1");
    assert_eq!(gateway["type"], "INFO");
    assert_eq!(gateway["code"], "INFO0000");
    assert!(gateway["message"].as_str().is_some_and(|m| !m.is_empty()));
    let merchant = &body["merchant_details"];
    assert_eq!(merchant["legal_name"], "Sandbox Merchant Ltd");
    assert_eq!(merchant["mid"], "SANDBOX-MID-0001");
    assert_eq!(merchant["merchant_txn_ref"], "order-1001");
    assert_eq!(
        merchant["billing_details"]["billing_address"]["city"],
        "Tokyo"
    );
    assert_eq!(
        merchant["billing_details"]["billing_address"]["postal_code"],
        "100-0001"
    );
    assert_eq!(merchant["device_details"]["customer_ip"], "203.0.113.7");
    assert_eq!(merchant["device_details"]["merchant_ip"], "127.0.0.1");
    assert!(merchant["device_details"].get("visited_ip").is_some());
    let payment = &body["payment_details"];
    assert_eq!(payment["amount"], 1000);
    assert_eq!(payment["response_code"], 0);
    assert!(payment["auth_code"].as_str().is_some_and(|c| c.len() == 6));
    assert_eq!(payment["currency"], "JPY");
    assert!(payment["scheme"].is_string());
    assert!(payment.get("payment_method").is_some());
    let masked = format!("{}******{}", &number[..6], &number[number.len() - 4..]);
    assert_eq!(payment["card"]["number"], masked.as_str());
    assert_eq!(payment["card"]["name"], "Jane Doe");
    assert_eq!(payment["card"]["exp_month"], "12");
    assert_eq!(payment["card"]["exp_year"], "39");
    assert_eq!(
        payment["additional_data"]["payment_data_source"]["type"],
        "card"
    );
    assert!(payment.get("responseDescription").is_none());
    let details = &body["transaction_details"];
    let id = details["id"].as_str().expect("id");
    assert_eq!(id.len(), 36);
    assert!(uuid::Uuid::parse_str(id).is_ok());
    assert!(details["ref"].is_u64());
    let timestamp = details["timestamp"].as_str().expect("timestamp");
    assert!(
        OffsetDateTime::parse(timestamp, &Rfc3339).is_ok(),
        "{timestamp}"
    );
    assert_eq!(details["merchant_txn_ref"], "order-1001");
    assert!(
        details
            .as_object()
            .expect("object")
            .contains_key("stored_payment_method_id")
    );
    assert!(
        body["risk-details"]
            .as_object()
            .expect("risk-details")
            .contains_key("risk_score")
    );
    assert!(body.get("risk_details").is_none());
    assert!(!reply.text.contains(number), "full number echoed");
    assert!(!reply.text.contains("cvc"), "cvc echoed");
}

#[tokio::test]
async fn payment_answers_the_full_contract_shape_with_increasing_refs() {
    let gateway = Gateway::start().await;
    let first = gateway
        .post("payment", &payment_body("5200000000001005"))
        .await;
    assert_approved_payment(&first, "CAPTURE", "5200000000001005");
    assert_eq!(first.json["payment_details"]["scheme"], "MASTERCARD");
    assert!(first.json["transaction_details"]["stored_payment_method_id"].is_null());
    let second = gateway
        .post("payment", &payment_body("4242424242424242"))
        .await;
    assert_approved_payment(&second, "CAPTURE", "4242424242424242");
    let ref_of = |reply: &Reply| {
        reply.json["transaction_details"]["ref"]
            .as_u64()
            .expect("ref")
    };
    assert!(ref_of(&second) > ref_of(&first));
    assert_ne!(first.id(), second.id());
}

#[tokio::test]
async fn authorization_is_a_pre_auth() {
    let gateway = Gateway::start().await;
    let reply = gateway
        .post("authorization", &payment_body("4242424242424242"))
        .await;
    assert_approved_payment(&reply, "PRE_AUTH", "4242424242424242");
    let status = gateway.status(&reply.id()).await;
    assert_eq!(status.json["transaction_type"], "PRE_AUTH");
    assert_eq!(
        status.json["payment_details"]["responseDescription"],
        "Authorized"
    );
}

#[tokio::test]
async fn status_answers_the_status_form() {
    let gateway = Gateway::start().await;
    let mut body = payment_body("4242424242424242");
    body["shipping_address"] = json!({"country": "JP", "city": "Osaka"});
    let paid = gateway.post("payment", &body).await;
    let status = gateway.status(&paid.id()).await;
    let json = &status.json;
    assert_eq!(status.status, 200, "{}", status.text);
    assert_eq!(json["success"], true);
    assert_eq!(json["status_code"], 200);
    assert_eq!(json["is_live"], false);
    assert_eq!(json["transaction_type"], "CAPTURE");
    assert_eq!(json["gateway_response"]["code"], "INFO0000");
    assert_eq!(json["gateway_response"]["version"], "1");
    assert!(json["risk_details"].is_object());
    assert!(json.get("risk-details").is_none());
    assert_eq!(json["payment_details"]["responseDescription"], "Approved");
    assert_eq!(
        json["payment_details"]["card"]["number"],
        "424242******4242"
    );
    let details = &json["transaction_details"];
    assert_eq!(details["id"], paid.id().as_str());
    assert_eq!(details["ref"], paid.json["transaction_details"]["ref"]);
    assert_eq!(
        details["billing_details"]["billing_address"]["city"],
        "Tokyo"
    );
    assert_eq!(
        details["billing_details"]["shipping_address"]["city"],
        "Osaka"
    );
    assert!(details.get("stored_payment_method_id").is_none());
    assert_eq!(json["merchant_details"]["merchant_txn_ref"], "order-1001");
}

#[tokio::test]
async fn every_approving_test_card_is_approved_on_payment() {
    let gateway = Gateway::start().await;
    for number in [
        "4242424242424242",
        "5200000000001005",
        "2223003122003222",
        "378282246310005",
        "4000000000001000",
        "4000002500003155",
        "4000000000001091",
        "4000000000000341",
        "4000000000006975",
        "4111111111111111",
    ] {
        let reply = gateway.post("payment", &payment_body(number)).await;
        assert_approved_payment(&reply, "CAPTURE", number);
    }
    let amex = gateway
        .post("payment", &payment_body("378282246310005"))
        .await;
    assert_eq!(amex.json["payment_details"]["scheme"], "AMEX");
}

#[tokio::test]
async fn every_declining_test_card_returns_the_full_body_with_its_code() {
    let gateway = Gateway::start().await;
    for (number, response_code) in [
        ("4000000000000002", 5),
        ("4000000000009995", 51),
        ("4000000000000069", 54),
        ("4000000000009987", 43),
        ("4000000000000119", 91),
    ] {
        for endpoint in ["payment", "authorization"] {
            let reply = gateway.post(endpoint, &payment_body(number)).await;
            assert_eq!(reply.status, 412, "{number}: {}", reply.text);
            let json = &reply.json;
            assert_eq!(json["success"], false);
            assert_eq!(json["status_code"], 412);
            assert_eq!(json["is_live"], false);
            assert_eq!(json["gateway_response"]["type"], "ERROR");
            assert_eq!(json["gateway_response"]["code"], "ERR2001");
            assert_eq!(
                json["payment_details"]["response_code"], response_code,
                "{number}"
            );
            assert!(json["payment_details"]["auth_code"].is_null());
            assert_eq!(json["payment_details"]["amount"], 1000);
            assert!(json["risk-details"].is_object());
            let status = gateway.status(&reply.id()).await;
            assert_eq!(status.status, 200);
            assert_eq!(status.json["success"], false);
            assert_eq!(
                status.json["payment_details"]["response_code"],
                response_code
            );
            let description = status.json["payment_details"]["responseDescription"]
                .as_str()
                .unwrap_or_default();
            assert!(description.starts_with("Declined"), "{description}");
        }
    }
}

#[tokio::test]
async fn the_velocity_card_is_rejected_on_its_third_use_within_ten_minutes() {
    let gateway = Gateway::start().await;
    let body = payment_body("4000000000006975");
    assert_eq!(gateway.post("payment", &body).await.status, 201);
    assert_eq!(gateway.post("authorization", &body).await.status, 201);
    let third = gateway.post("payment", &body).await;
    assert_eq!(third.status, 412, "{}", third.text);
    assert_eq!(third.code(), "ERR3010");
    assert_eq!(third.json["payment_details"]["response_code"], -8009);
    assert_eq!(third.json["risk-details"]["risk_score"], 100);
    // Eleven minutes later on the sandbox clock the window is clear again.
    let moved = gateway
        .control(
            reqwest::Method::POST,
            "/sandbox/clock/advance",
            Some(&json!({"minutes": 11})),
        )
        .await;
    assert_eq!(moved.status, 200, "{}", moved.text);
    assert_eq!(gateway.post("payment", &body).await.status, 201);
}

#[tokio::test]
async fn storing_a_card_returns_a_token_that_pays_again() {
    let gateway = Gateway::start().await;
    let mut body = payment_body("5200000000001005");
    body["payment_method"] = json!({"type": "scheme", "store_payment_method": true});
    let stored = gateway.post("payment", &body).await;
    assert_eq!(stored.status, 201, "{}", stored.text);
    let token = stored.json["transaction_details"]["stored_payment_method_id"]
        .as_str()
        .expect("token")
        .to_owned();
    let again = gateway.post("payment", &token_body(&token)).await;
    assert_eq!(again.status, 201, "{}", again.text);
    assert_eq!(again.json["transaction_type"], "CAPTURE");
    assert_eq!(
        again.json["transaction_details"]["stored_payment_method_id"],
        token.as_str()
    );
    assert_eq!(
        again.json["payment_details"]["card"]["number"],
        "520000******1005"
    );
    let authorized = gateway.post("authorization", &token_body(&token)).await;
    assert_eq!(authorized.json["transaction_type"], "PRE_AUTH");
}

#[tokio::test]
async fn an_unknown_token_is_a_clear_failure() {
    let gateway = Gateway::start().await;
    let reply = gateway
        .post(
            "payment",
            &token_body("11111111-2222-4333-8444-555555555555"),
        )
        .await;
    let message = reply.failure(400, "ERR0007");
    assert!(message.contains("stored_payment_method_id"), "{message}");
    assert_eq!(gateway.transaction_count().await, 0);
}

#[tokio::test]
async fn the_approve_once_card_declines_when_its_token_is_reused() {
    let gateway = Gateway::start().await;
    let mut body = payment_body("4000000000000341");
    body["payment_method"] = json!({"type": "scheme", "store_payment_method": true});
    let first = gateway.post("payment", &body).await;
    assert_eq!(first.status, 201, "{}", first.text);
    let token = first.json["transaction_details"]["stored_payment_method_id"]
        .as_str()
        .expect("token")
        .to_owned();
    let reuse = gateway.post("payment", &token_body(&token)).await;
    assert_eq!(reuse.status, 412, "{}", reuse.text);
    assert_eq!(reuse.json["payment_details"]["response_code"], 51);
}

#[tokio::test]
async fn a_declined_card_is_not_stored() {
    let gateway = Gateway::start().await;
    let mut body = payment_body("4000000000000002");
    body["payment_method"] = json!({"type": "scheme", "store_payment_method": true});
    let reply = gateway.post("payment", &body).await;
    assert_eq!(reply.status, 412);
    assert!(reply.json["transaction_details"]["stored_payment_method_id"].is_null());
    assert_eq!(gateway.state().await["stored_cards"], 0);
}

#[tokio::test]
async fn the_hanging_card_answers_late_but_is_charged_at_once() {
    let gateway = Gateway::start().await;
    let body = payment_body("4000000000000259");
    let impatient = gateway
        .authed(reqwest::Method::POST, &gateway.sandbox.api_url("payment"))
        .json(&body)
        .timeout(Duration::from_millis(300))
        .send()
        .await;
    assert!(impatient.is_err_and(|error| error.is_timeout()));
    let state = gateway.state().await;
    let recorded: Vec<&Value> = state["transactions"]
        .as_array()
        .expect("list")
        .iter()
        .collect();
    assert_eq!(
        recorded.len(),
        1,
        "the charge is recorded before the answer"
    );
    assert_eq!(recorded[0]["outcome"], "approved");
    let started = Instant::now();
    let patient = gateway.post("payment", &body).await;
    assert!(
        started.elapsed() >= TEST_HANG,
        "answered after {:?}",
        started.elapsed()
    );
    assert_eq!(patient.status, 201, "{}", patient.text);
}
