//! 3-D Secure on the emulator: `/paymentv2` with the ACS page driven like a browser (follow
//! the redirect, parse the form, submit it): a challenge approved or rejected, frictionless
//! and declining cards; and the checks the other 3-D Secure files share
//! (three_ds_requests.rs, acs_page.rs).

use std::collections::BTreeSet;
use std::time::Duration;

use serde_json::{Value, json};

use super::support::{AcsForm, Gateway, Receiver, Reply, query_param, three_ds_body};

pub(super) const WAIT: Duration = Duration::from_secs(5);

/// A client that follows redirects, like a browser.
pub(super) fn browser() -> reqwest::Client {
    reqwest::Client::builder().build().expect("client builds")
}

pub(super) fn assert_initiation(reply: &Reply, gateway: &Gateway) -> String {
    assert_eq!(reply.status, 200, "{}", reply.text);
    let json = &reply.json;
    assert_eq!(json["statusCode"], 200);
    assert!(json.get("status_code").is_none());
    assert_eq!(json["success"], true);
    let base = gateway.sandbox.base_url();
    assert_eq!(json["url"], format!("{base}/sandbox/acs").as_str());
    let redirect = json["redirect_url"]
        .as_str()
        .expect("redirect_url")
        .to_owned();
    assert!(
        redirect.starts_with(&format!("{base}/sandbox/acs?_token=")),
        "{redirect}"
    );
    assert!(query_param(&redirect, "_token").is_some_and(|token| token.len() >= 40));
    redirect
}

/// Checks the webhook has exactly the contract's keys and returns it.
pub(super) fn assert_webhook_shape(webhook: &Value) {
    let keys: BTreeSet<&str> = webhook
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    let expected: BTreeSet<&str> = [
        "success",
        "status_code",
        "is_live",
        "transaction_type",
        "gateway_response",
        "merchant_details",
        "payment_details",
        "transaction_details",
        "risk-details",
    ]
    .into_iter()
    .collect();
    assert_eq!(keys, expected);
    assert_eq!(webhook["risk-details"], json!({}));
    assert_eq!(webhook["is_live"], false);
    assert_eq!(webhook["gateway_response"]["version"], "1");
    let merchant: BTreeSet<&str> = webhook["merchant_details"]
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        merchant,
        ["legal_name", "merchant_txn_ref", "mid"]
            .into_iter()
            .collect()
    );
    for key in ["id", "ref", "timestamp", "merchant_txn_ref"] {
        assert!(webhook["transaction_details"].get(key).is_some(), "{key}");
    }
    for key in [
        "amount",
        "response_code",
        "auth_code",
        "currency",
        "payment_method",
        "scheme",
        "card",
        "additional_data",
    ] {
        assert!(webhook["payment_details"].get(key).is_some(), "{key}");
    }
}

#[tokio::test]
async fn challenge_approved_in_the_browser() {
    let gateway = Gateway::start().await;
    let merchant = Receiver::start().await;
    let started = gateway
        .post("paymentv2", &three_ds_body("4000002500003155", &merchant))
        .await;
    let redirect = assert_initiation(&started, &gateway);

    let browser = browser();
    let page = browser.get(&redirect).send().await.expect("page loads");
    assert_eq!(page.status(), 200);
    let csp = page.headers()["content-security-policy"]
        .to_str()
        .expect("ascii")
        .to_owned();
    assert!(csp.contains("default-src 'none'"), "{csp}");
    assert!(
        page.headers()["content-type"]
            .to_str()
            .expect("ascii")
            .starts_with("text/html")
    );
    let html = page.text().await.expect("html");
    assert!(html.contains("1000 JPY"), "amount shown");
    assert!(html.contains("Sandbox Merchant Ltd"), "merchant shown");
    assert!(html.contains("3155"), "last four shown");
    assert!(!html.contains("4000002500003155"), "full number hidden");
    assert!(html.contains("<button type=\"submit\" name=\"decision\" value=\"approve\""));
    assert!(html.contains("value=\"reject\""));
    let form = AcsForm::parse(&html);
    assert_eq!(
        form.action,
        format!("{}/sandbox/acs", gateway.sandbox.base_url())
    );

    let landed = form.submit(&browser, "approve").await;
    assert_eq!(
        landed.status(),
        200,
        "the browser lands on the merchant's success page"
    );
    let landing = landed.url().to_string();
    assert!(
        landing.starts_with(&merchant.url("/pay-1/success?lang=en&")),
        "{landing}"
    );
    let transaction_id = query_param(&landing, "transaction_id").expect("transaction_id");
    assert_eq!(
        query_param(&landing, "merchant_txn_ref").as_deref(),
        Some("order-1001")
    );

    let webhooks = merchant.wait_for_posts(1, WAIT).await;
    assert_eq!(webhooks.len(), 1);
    assert_eq!(webhooks[0].uri.path(), "/webhook/pay-1");
    let webhook = webhooks[0].json();
    assert_webhook_shape(&webhook);
    assert_eq!(webhook["success"], true);
    assert_eq!(webhook["status_code"], 200);
    assert_eq!(webhook["transaction_type"], "CAPTURE");
    assert_eq!(webhook["gateway_response"]["code"], "INFO0000");
    assert_eq!(
        webhook["transaction_details"]["id"],
        transaction_id.as_str()
    );
    assert_eq!(webhook["payment_details"]["response_code"], 0);

    let status = gateway.status(&transaction_id).await;
    assert_eq!(status.json["success"], true);
    assert_eq!(
        status.json["payment_details"]["responseDescription"],
        "Approved"
    );
}

#[tokio::test]
async fn challenge_rejected_goes_to_the_decline_url_with_a_declined_webhook() {
    let gateway = Gateway::start().await;
    let merchant = Receiver::start().await;
    let started = gateway
        .post("paymentv2", &three_ds_body("4000000000001091", &merchant))
        .await;
    let redirect = assert_initiation(&started, &gateway);
    let html = gateway
        .client
        .get(&redirect)
        .send()
        .await
        .expect("page")
        .text()
        .await
        .expect("html");
    let form = AcsForm::parse(&html);
    let answer = form.submit(&gateway.client, "reject").await;
    assert_eq!(answer.status(), 303);
    let location = answer.headers()["location"]
        .to_str()
        .expect("ascii")
        .to_owned();
    assert!(
        location.starts_with(&merchant.url("/pay-1/declined?")),
        "{location}"
    );
    let transaction_id = query_param(&location, "transaction_id").expect("id");

    let webhook = merchant.wait_for_posts(1, WAIT).await[0].json();
    assert_webhook_shape(&webhook);
    assert_eq!(webhook["success"], false);
    assert_eq!(webhook["gateway_response"]["code"], "ERR2002");
    assert_eq!(webhook["payment_details"]["response_code"], 5);
    let status = gateway.status(&transaction_id).await;
    assert_eq!(status.json["success"], false);
    assert_eq!(status.json["payment_details"]["response_code"], 5);

    let again = form.submit(&gateway.client, "approve").await;
    assert_eq!(
        again.status(),
        409,
        "a decided page cannot be decided twice"
    );
    let reload = gateway.client.get(&redirect).send().await.expect("page");
    assert_eq!(reload.status(), 409);
    assert_eq!(
        merchant
            .wait_for_posts(2, Duration::from_millis(300))
            .await
            .len(),
        1
    );
}

#[tokio::test]
async fn frictionless_cards_pass_straight_through() {
    let gateway = Gateway::start().await;
    let merchant = Receiver::start().await;
    let started = gateway
        .post("paymentv2", &three_ds_body("4000000000001000", &merchant))
        .await;
    let redirect = assert_initiation(&started, &gateway);
    let answer = gateway
        .client
        .get(&redirect)
        .send()
        .await
        .expect("redirect");
    assert_eq!(answer.status(), 303);
    let location = answer.headers()["location"]
        .to_str()
        .expect("ascii")
        .to_owned();
    assert!(
        location.starts_with(&merchant.url("/pay-1/success")),
        "{location}"
    );
    let webhook = merchant.wait_for_posts(1, WAIT).await[0].json();
    assert_eq!(webhook["success"], true);
    assert_eq!(
        webhook["transaction_details"]["id"],
        query_param(&location, "transaction_id")
            .expect("id")
            .as_str()
    );

    // Any non-challenge card is frictionless on v2, including plain approvals.
    let plain = gateway
        .post("paymentv2", &three_ds_body("5200000000001005", &merchant))
        .await;
    let answer = gateway
        .client
        .get(plain.json["redirect_url"].as_str().expect("url"))
        .send()
        .await
        .expect("redirect");
    assert_eq!(answer.status(), 303);
}

#[tokio::test]
async fn declining_cards_on_v2_go_to_the_decline_url() {
    let gateway = Gateway::start().await;
    let merchant = Receiver::start().await;
    let started = gateway
        .post("paymentv2", &three_ds_body("4000000000009995", &merchant))
        .await;
    let redirect = assert_initiation(&started, &gateway);
    let answer = gateway
        .client
        .get(&redirect)
        .send()
        .await
        .expect("redirect");
    assert_eq!(answer.status(), 303);
    let location = answer.headers()["location"]
        .to_str()
        .expect("ascii")
        .to_owned();
    assert!(
        location.starts_with(&merchant.url("/pay-1/declined")),
        "{location}"
    );
    let webhook = merchant.wait_for_posts(1, WAIT).await[0].json();
    assert_eq!(webhook["success"], false);
    assert_eq!(webhook["status_code"], 412);
    assert_eq!(webhook["payment_details"]["response_code"], 51);
    assert_eq!(webhook["gateway_response"]["code"], "ERR2001");
}
