//! Webhook delivery: retries on connection failures and non-2xx answers until the merchant's
//! receiver comes up, giving up after the configured attempts, and sandbox-clock timestamps.

use std::time::Duration;

use serde_json::json;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use super::support::{
    Gateway, Receiver, fast_config, pass_through, reserve_address, three_ds_body, three_ds_body_at,
};
use checkout_sandbox::{SandboxConfig, WebhookRetry};

const WAIT: Duration = Duration::from_secs(5);

async fn delivery(gateway: &Gateway) -> serde_json::Value {
    gateway.state().await["webhooks"][0].clone()
}

#[tokio::test]
async fn retries_until_a_late_receiver_comes_up() {
    let gateway = Gateway::start().await;
    let address = reserve_address();
    let started = gateway
        .post(
            "paymentv2",
            &three_ds_body_at("4000000000001000", &format!("http://{address}")),
        )
        .await;
    pass_through(
        &gateway,
        started.json["redirect_url"].as_str().expect("url"),
    )
    .await;
    // Let a few attempts fail against the closed port (20, 40, 80 ms apart).
    tokio::time::sleep(Duration::from_millis(120)).await;
    let failing = delivery(&gateway).await;
    assert_eq!(failing["state"], "pending", "{failing}");
    assert!(
        failing["attempts"].as_u64().unwrap_or_default() >= 2,
        "{failing}"
    );
    assert_eq!(failing["last_error"], "connection failed");

    let merchant = Receiver::start_on(address, 0).await;
    let posts = merchant.wait_for_posts(1, WAIT).await;
    assert_eq!(posts.len(), 1, "delivered once the receiver is up");
    assert_eq!(posts[0].json()["success"], true);
    tokio::time::sleep(Duration::from_millis(50)).await;
    let delivered = delivery(&gateway).await;
    assert_eq!(delivered["state"], "delivered", "{delivered}");
    assert!(
        delivered["attempts"].as_u64().unwrap_or_default() >= 3,
        "{delivered}"
    );
}

#[tokio::test]
async fn retries_after_non_2xx_answers() {
    let gateway = Gateway::start().await;
    let merchant = Receiver::start_on("127.0.0.1:0".parse().expect("address"), 2).await;
    let started = gateway
        .post("paymentv2", &three_ds_body("4000000000001000", &merchant))
        .await;
    pass_through(
        &gateway,
        started.json["redirect_url"].as_str().expect("url"),
    )
    .await;
    let posts = merchant.wait_for_posts(3, WAIT).await;
    assert_eq!(posts.len(), 3, "two 503s, then accepted");
    assert_eq!(
        posts[0].body, posts[2].body,
        "every attempt carries the same notification"
    );
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(
        merchant
            .wait_for_posts(4, Duration::from_millis(300))
            .await
            .len(),
        3,
        "no attempt after success"
    );
    let record = delivery(&gateway).await;
    assert_eq!(record["state"], "delivered");
    assert_eq!(record["attempts"], 3);
}

#[tokio::test]
async fn gives_up_after_the_configured_attempts() {
    let config = SandboxConfig {
        webhook: WebhookRetry {
            max_attempts: 3,
            base_delay: Duration::from_millis(10),
            max_delay: Duration::from_millis(20),
            attempt_timeout: Duration::from_secs(1),
        },
        ..fast_config()
    };
    let gateway = Gateway::with_config(config).await;
    let merchant = Receiver::start_on("127.0.0.1:0".parse().expect("address"), 100).await;
    let started = gateway
        .post("paymentv2", &three_ds_body("4000000000001000", &merchant))
        .await;
    pass_through(
        &gateway,
        started.json["redirect_url"].as_str().expect("url"),
    )
    .await;
    assert_eq!(merchant.wait_for_posts(3, WAIT).await.len(), 3);
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(merchant.posts().len(), 3, "no fourth attempt");
    let record = delivery(&gateway).await;
    assert_eq!(record["state"], "failed", "{record}");
    assert_eq!(record["last_error"], "HTTP 503");
}

#[tokio::test]
async fn webhook_timestamps_follow_the_sandbox_clock() {
    let gateway = Gateway::start().await;
    let merchant = Receiver::start().await;
    let moved = gateway
        .control(
            reqwest::Method::POST,
            "/sandbox/clock/advance",
            Some(&json!({"days": 30})),
        )
        .await;
    assert_eq!(moved.status, 200, "{}", moved.text);
    let started = gateway
        .post("paymentv2", &three_ds_body("4000000000001000", &merchant))
        .await;
    pass_through(
        &gateway,
        started.json["redirect_url"].as_str().expect("url"),
    )
    .await;
    let webhook = merchant.wait_for_posts(1, WAIT).await[0].json();
    let stamp = webhook["transaction_details"]["timestamp"]
        .as_str()
        .expect("timestamp");
    let at = OffsetDateTime::parse(stamp, &Rfc3339).expect("rfc 3339");
    let ahead = at - OffsetDateTime::now_utc();
    assert!(
        ahead > time::Duration::days(29),
        "timestamp {stamp} is only {ahead} ahead"
    );
}
