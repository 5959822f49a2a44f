//! What a 3-D Secure request may ask of the emulator and what it keeps: an abandoned challenge
//! stays pending, `/authorizationv2` is a pre-auth that can be captured, a card stored on v2
//! comes back in the webhook, and the return URLs must be absolute.

use std::time::Duration;

use serde_json::json;

use super::support::{AcsForm, Gateway, Receiver, query_param, three_ds_body, token_body};

use super::three_ds::{WAIT, assert_initiation};

#[tokio::test]
async fn an_abandoned_challenge_stays_pending() {
    let gateway = Gateway::start().await;
    let merchant = Receiver::start().await;
    let started = gateway
        .post("paymentv2", &three_ds_body("4000002500003155", &merchant))
        .await;
    let redirect = assert_initiation(&started, &gateway);
    let page = gateway.client.get(&redirect).send().await.expect("page");
    assert_eq!(page.status(), 200);
    let state = gateway.state().await;
    assert_eq!(state["open_3ds_sessions"], 1);
    let id = state["transactions"][0]["id"]
        .as_str()
        .expect("id")
        .to_owned();
    assert_eq!(state["transactions"][0]["outcome"], "pending");

    let status = gateway.status(&id).await;
    assert_eq!(status.status, 200);
    let json = &status.json;
    assert_eq!(json["success"], false);
    assert_eq!(json["status_code"], 200);
    assert_eq!(json["gateway_response"]["type"], "INFO");
    assert_eq!(json["gateway_response"]["code"], "INFO0100");
    assert_eq!(json["payment_details"]["response_code"], -2);
    assert_eq!(json["payment_details"]["responseDescription"], "Pending");
    assert!(json["payment_details"]["auth_code"].is_null());
    assert!(json["risk_details"]["risk_score"].is_null());
    // Nothing can follow a pending payment, and no webhook is sent for it.
    let refund = gateway
        .post(
            "refund",
            &json!({"transactionId": id, "amount": "1", "merchant_id": "merchant-1"}),
        )
        .await;
    refund.failure(400, "ERR1007");
    assert!(
        merchant
            .wait_for_posts(1, Duration::from_millis(300))
            .await
            .is_empty()
    );
}

#[tokio::test]
async fn authorization_v2_is_a_pre_auth_that_can_be_captured() {
    let gateway = Gateway::start().await;
    let merchant = Receiver::start().await;
    let started = gateway
        .post(
            "authorizationv2",
            &three_ds_body("4000000000001000", &merchant),
        )
        .await;
    let redirect = assert_initiation(&started, &gateway);
    let answer = gateway
        .client
        .get(&redirect)
        .send()
        .await
        .expect("redirect");
    let location = answer.headers()["location"]
        .to_str()
        .expect("ascii")
        .to_owned();
    let id = query_param(&location, "transaction_id").expect("id");
    let webhook = merchant.wait_for_posts(1, WAIT).await[0].json();
    assert_eq!(webhook["transaction_type"], "PRE_AUTH");
    let capture = gateway
        .post(
            "capture",
            &json!({"transactionId": id, "amount": "1000", "merchant_id": "merchant-1"}),
        )
        .await;
    assert_eq!(capture.status, 201, "{}", capture.text);
}

#[tokio::test]
async fn a_card_stored_on_v2_comes_back_in_the_webhook() {
    let gateway = Gateway::start().await;
    let merchant = Receiver::start().await;
    let mut body = three_ds_body("4000002500003155", &merchant);
    body["payment_method"] = json!({"type": "scheme", "store_payment_method": true});
    let started = gateway.post("paymentv2", &body).await;
    let html = gateway
        .client
        .get(started.json["redirect_url"].as_str().expect("url"))
        .send()
        .await
        .expect("page")
        .text()
        .await
        .expect("html");
    assert_eq!(
        AcsForm::parse(&html)
            .submit(&gateway.client, "approve")
            .await
            .status(),
        303
    );
    let webhook = merchant.wait_for_posts(1, WAIT).await[0].json();
    let token = webhook["transaction_details"]["stored_payment_method_id"]
        .as_str()
        .expect("token")
        .to_owned();
    let reused = gateway.post("payment", &token_body(&token)).await;
    assert_eq!(reused.status, 201, "{}", reused.text);
    assert_eq!(
        reused.json["payment_details"]["card"]["number"],
        "400000******3155"
    );
}

#[tokio::test]
async fn v2_requires_absolute_return_urls() {
    let gateway = Gateway::start().await;
    let merchant = Receiver::start().await;
    let mut body = three_ds_body("4000002500003155", &merchant);
    body.as_object_mut().expect("object").remove("return_url");
    for endpoint in ["paymentv2", "authorizationv2"] {
        let message = gateway.post(endpoint, &body).await.failure(400, "ERR0003");
        assert!(message.contains("return_url"), "{message}");
    }
    let mut relative = three_ds_body("4000002500003155", &merchant);
    relative["return_url"]["success_url"] = json!("/success");
    let message = gateway
        .post("paymentv2", &relative)
        .await
        .failure(400, "ERR0003");
    assert!(message.contains("return_url.success_url"), "{message}");
    assert_eq!(gateway.transaction_count().await, 0);
}
