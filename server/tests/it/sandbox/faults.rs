//! Fault injection over HTTP: latency, 5xx, malformed and truncated answers, each before
//! processing (nothing recorded) and after (recorded, answer spoiled); armed faults for the
//! next N calls; faults configured for the whole run; dropped and duplicated webhooks.

use std::time::{Duration, Instant};

use checkout_sandbox::SandboxConfig;
use serde_json::{Value, json};

use super::support::{Gateway, Receiver, fast_config, pass_through, payment_body, three_ds_body};

const WAIT: Duration = Duration::from_secs(5);

async fn pay_raw(gateway: &Gateway, fault: Option<&str>) -> reqwest::Response {
    let mut request = gateway
        .authed(reqwest::Method::POST, &gateway.sandbox.api_url("payment"))
        .json(&payment_body("4242424242424242"));
    if let Some(fault) = fault {
        request = request.header("x-sandbox-fault", fault);
    }
    request.send().await.expect("answer head arrives")
}

fn outcomes(state: &Value) -> Vec<String> {
    state["transactions"]
        .as_array()
        .expect("list")
        .iter()
        .map(|t| t["outcome"].as_str().unwrap_or_default().to_owned())
        .collect()
}

#[tokio::test]
async fn latency_delays_then_processes() {
    let gateway = Gateway::start().await;
    let started = Instant::now();
    let answer = pay_raw(&gateway, Some("latency:300")).await;
    assert!(started.elapsed() >= Duration::from_millis(300));
    assert_eq!(answer.status(), 201);
}

#[tokio::test]
async fn server_error_before_processing_records_nothing() {
    let gateway = Gateway::start().await;
    let answer = pay_raw(&gateway, Some("status:503:before")).await;
    assert_eq!(answer.status(), 503);
    let body: Value = answer.json().await.expect("json failure body");
    assert_eq!(body["gateway_response"]["code"], "ERR9000");
    assert_eq!(body["status_code"], 503);
    assert_eq!(gateway.transaction_count().await, 0);
}

#[tokio::test]
async fn server_error_after_processing_leaves_the_charge_recorded() {
    let gateway = Gateway::start().await;
    let answer = pay_raw(&gateway, Some("status:500:after")).await;
    assert_eq!(answer.status(), 500);
    let state = gateway.state().await;
    assert_eq!(outcomes(&state), ["approved"]);
    let id = state["transactions"][0]["id"].as_str().expect("id");
    assert_eq!(
        gateway.status(id).await.json["success"],
        true,
        "settled by the status endpoint"
    );
}

#[tokio::test]
async fn malformed_answers_before_and_after() {
    let gateway = Gateway::start().await;
    let before = pay_raw(&gateway, Some("malformed")).await;
    assert_eq!(before.status(), 500);
    let text = before.text().await.expect("complete body");
    assert!(serde_json::from_str::<Value>(&text).is_err(), "{text}");
    assert_eq!(gateway.transaction_count().await, 0);

    let after = pay_raw(&gateway, Some("malformed:after")).await;
    assert_eq!(after.status(), 201, "the real status, a spoiled body");
    let text = after.text().await.expect("complete body");
    assert!(serde_json::from_str::<Value>(&text).is_err(), "{text}");
    assert_eq!(outcomes(&gateway.state().await), ["approved"]);
}

#[tokio::test]
async fn truncated_answers_before_and_after() {
    let gateway = Gateway::start().await;
    let before = pay_raw(&gateway, Some("truncate:before")).await;
    assert_eq!(before.status(), 500);
    let declared: usize = before.headers()["content-length"]
        .to_str()
        .expect("ascii")
        .parse()
        .expect("number");
    assert!(declared > 0);
    assert!(
        before.bytes().await.is_err(),
        "the body stops short and the connection closes"
    );
    assert_eq!(gateway.transaction_count().await, 0);

    let after = pay_raw(&gateway, Some("truncate:after")).await;
    assert_eq!(after.status(), 201);
    assert!(after.bytes().await.is_err());
    assert_eq!(outcomes(&gateway.state().await), ["approved"]);
}

#[tokio::test]
async fn armed_faults_hit_the_next_calls_of_their_endpoint_only() {
    let gateway = Gateway::start().await;
    let armed = gateway
        .control(
            reqwest::Method::POST,
            "/sandbox/faults",
            Some(&json!({"endpoint": "payment", "fault": "status:502:after", "count": 2})),
        )
        .await;
    assert_eq!(armed.status, 201, "{}", armed.text);
    assert_eq!(armed.json["remaining"], 2);
    let authorized = gateway
        .post("authorization", &payment_body("4242424242424242"))
        .await;
    assert_eq!(authorized.status, 201, "another endpoint is untouched");
    assert_eq!(pay_raw(&gateway, None).await.status(), 502);
    let listed = gateway
        .control(reqwest::Method::GET, "/sandbox/faults", None)
        .await;
    assert_eq!(listed.json["faults"][0]["remaining"], 1);
    assert_eq!(listed.json["faults"][0]["fault"], "status:502:after");
    assert_eq!(pay_raw(&gateway, None).await.status(), 502);
    assert_eq!(
        pay_raw(&gateway, None).await.status(),
        201,
        "disarmed after two calls"
    );
    assert_eq!(
        outcomes(&gateway.state().await).len(),
        4,
        "after-faults still charged"
    );
}

#[tokio::test]
async fn faults_armed_for_every_endpoint_and_cleared() {
    let gateway = Gateway::start().await;
    let paid = gateway
        .post("payment", &payment_body("4242424242424242"))
        .await;
    for _ in 0..2 {
        let armed = gateway
            .control(
                reqwest::Method::POST,
                "/sandbox/faults",
                Some(&json!({"fault": "status:504", "count": 5})),
            )
            .await;
        assert_eq!(armed.status, 201);
    }
    assert_eq!(gateway.status(&paid.id()).await.status, 504);
    let cleared = gateway
        .control(reqwest::Method::DELETE, "/sandbox/faults", None)
        .await;
    assert_eq!(cleared.json["faults"], json!([]));
    assert_eq!(gateway.status(&paid.id()).await.status, 200);
}

#[tokio::test]
async fn run_wide_faults_from_the_configuration() {
    let config = SandboxConfig {
        default_faults: vec![
            "transaction/status/{id}=status:500"
                .parse()
                .expect("valid fault"),
        ],
        ..fast_config()
    };
    let gateway = Gateway::with_config(config).await;
    let paid = gateway
        .post("payment", &payment_body("4242424242424242"))
        .await;
    assert_eq!(paid.status, 201);
    for _ in 0..3 {
        gateway.status(&paid.id()).await.failure(500, "ERR9000");
    }
}

#[tokio::test]
async fn a_dropped_webhook_is_never_sent() {
    let gateway = Gateway::start().await;
    let merchant = Receiver::start().await;
    let started = gateway
        .post_with(
            "paymentv2",
            &three_ds_body("4000000000001000", &merchant),
            &[("x-sandbox-fault", "drop-webhook")],
        )
        .await;
    assert_eq!(started.status, 200, "{}", started.text);
    pass_through(
        &gateway,
        started.json["redirect_url"].as_str().expect("url"),
    )
    .await;
    assert!(
        merchant
            .wait_for_posts(1, Duration::from_millis(400))
            .await
            .is_empty()
    );
    assert_eq!(gateway.state().await["webhooks"][0]["state"], "dropped");
}

#[tokio::test]
async fn an_armed_duplicate_webhook_arrives_twice() {
    let gateway = Gateway::start().await;
    let merchant = Receiver::start().await;
    let armed = gateway
        .control(
            reqwest::Method::POST,
            "/sandbox/faults",
            Some(&json!({"endpoint": "webhook", "fault": "duplicate-webhook"})),
        )
        .await;
    assert_eq!(armed.status, 201, "{}", armed.text);
    let started = gateway
        .post("paymentv2", &three_ds_body("4000000000001000", &merchant))
        .await;
    pass_through(
        &gateway,
        started.json["redirect_url"].as_str().expect("url"),
    )
    .await;
    let posts = merchant.wait_for_posts(2, WAIT).await;
    assert_eq!(posts.len(), 2);
    assert_eq!(posts[0].body, posts[1].body);
}

#[tokio::test]
async fn bad_fault_specifications_are_refused() {
    let gateway = Gateway::start().await;
    let header = pay_raw(&gateway, Some("explode")).await;
    assert_eq!(header.status(), 400);
    let body: Value = header.json().await.expect("json");
    assert!(
        body["gateway_response"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("x-sandbox-fault")
    );
    assert_eq!(gateway.transaction_count().await, 0);
    for bad in [
        json!({"fault": "status:404"}),
        json!({"fault": "latency:10", "count": 0}),
        json!({"endpoint": "payment", "fault": "drop-webhook"}),
        json!({"fault": "latency:10", "colour": "red"}),
    ] {
        let reply = gateway
            .control(reqwest::Method::POST, "/sandbox/faults", Some(&bad))
            .await;
        assert_eq!(reply.status, 400, "{bad}: {}", reply.text);
    }
}

#[tokio::test]
async fn unauthenticated_calls_get_401_not_faults() {
    let gateway = Gateway::start().await;
    let answer = gateway
        .client
        .post(gateway.sandbox.api_url("payment"))
        .header("x-sandbox-fault", "status:503")
        .json(&payment_body("4242424242424242"))
        .send()
        .await
        .expect("answer");
    assert_eq!(answer.status(), 401);
}
