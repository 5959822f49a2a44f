//! The control API (clock, state dump) and mounting the emulator under a path prefix, as the
//! checkout server does in-process.

use std::net::SocketAddr;

use axum::Router;
use checkout_sandbox::{self as sandbox, SandboxState};
use serde_json::json;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use super::support::{Gateway, Receiver, basic_default, fast_config, payment_body, three_ds_body};

#[tokio::test]
async fn the_clock_moves_forward_and_dates_transactions() {
    let gateway = Gateway::start().await;
    let clock = gateway
        .control(reqwest::Method::GET, "/sandbox/clock", None)
        .await;
    assert_eq!(clock.json["offset_seconds"], 0);
    let moved = gateway
        .control(
            reqwest::Method::POST,
            "/sandbox/clock/advance",
            Some(&json!({"days": 2, "hours": 3, "seconds": 5})),
        )
        .await;
    assert_eq!(moved.status, 200, "{}", moved.text);
    assert_eq!(moved.json["offset_seconds"], 2 * 86_400 + 3 * 3_600 + 5);
    let paid = gateway
        .post("payment", &payment_body("4242424242424242"))
        .await;
    let stamp = paid.json["transaction_details"]["timestamp"]
        .as_str()
        .expect("timestamp");
    let ahead =
        OffsetDateTime::parse(stamp, &Rfc3339).expect("rfc 3339") - OffsetDateTime::now_utc();
    assert!(ahead > time::Duration::days(2), "{ahead}");
    for bad in [
        json!({"days": -1}),
        json!({"weeks": 1}),
        json!({"seconds": "ten"}),
        json!({"days": 4_000_000}),
    ] {
        let reply = gateway
            .control(reqwest::Method::POST, "/sandbox/clock/advance", Some(&bad))
            .await;
        assert_eq!(reply.status, 400, "{bad}: {}", reply.text);
    }
}

#[tokio::test]
async fn the_state_dump_lists_transactions_with_masked_cards_only() {
    let gateway = Gateway::start().await;
    let paid = gateway
        .post("payment", &payment_body("5200000000001005"))
        .await;
    gateway
        .post("payment", &payment_body("4000000000000002"))
        .await;
    let reply = gateway
        .control(reqwest::Method::GET, "/sandbox/state", None)
        .await;
    assert_eq!(reply.status, 200);
    assert!(!reply.text.contains("5200000000001005") && !reply.text.contains("4000000000000002"));
    let transactions = reply.json["transactions"].as_array().expect("list");
    assert_eq!(transactions.len(), 2);
    assert_eq!(transactions[0]["id"], paid.id().as_str());
    assert_eq!(transactions[0]["card"], "520000******1005");
    assert_eq!(transactions[0]["outcome"], "approved");
    assert_eq!(transactions[1]["outcome"], "declined");
    assert_eq!(transactions[1]["response_code"], 5);
    assert!(transactions[1]["ref"].as_u64() > transactions[0]["ref"].as_u64());
}

#[tokio::test]
async fn nested_under_a_prefix_every_url_carries_it() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("binds");
    let address = listener.local_addr().expect("address");
    let base = format!("http://{address}/gateway");
    let config = sandbox::SandboxConfig {
        public_base_url: Some(base.clone()),
        ..fast_config()
    };
    let state = SandboxState::new(config);
    let app = Router::new().nest("/gateway", sandbox::router(state));
    let server = tokio::spawn(async move {
        axum::serve(
            listener,
            app.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .await
        .expect("serves");
    });
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client");
    let merchant = Receiver::start().await;
    let api = format!("{base}/api/v1/server-to-server-interface");
    let started = client
        .post(format!("{api}/paymentv2"))
        .header("Authorization", basic_default())
        .header("x-api-key", sandbox::DEFAULT_X_API_KEY)
        .json(&three_ds_body("4000002500003155", &merchant))
        .send()
        .await
        .expect("answer");
    assert_eq!(started.status(), 200);
    let json: serde_json::Value = started.json().await.expect("json");
    assert_eq!(json["url"], format!("{base}/sandbox/acs").as_str());
    let redirect = json["redirect_url"].as_str().expect("url");
    let page = client
        .get(redirect)
        .send()
        .await
        .expect("page")
        .text()
        .await
        .expect("html");
    assert!(
        page.contains(&format!("action=\"{base}/sandbox/acs\"")),
        "form posts under the prefix"
    );
    let armed = client
        .post(format!("{base}/sandbox/faults"))
        .header("Authorization", basic_default())
        .header("x-api-key", sandbox::DEFAULT_X_API_KEY)
        .json(&json!({"endpoint": "payment", "fault": "status:503"}))
        .send()
        .await
        .expect("answer");
    assert_eq!(armed.status(), 201);
    let paid = client
        .post(format!("{api}/payment"))
        .header("Authorization", basic_default())
        .header("x-api-key", sandbox::DEFAULT_X_API_KEY)
        .json(&payment_body("4242424242424242"))
        .send()
        .await
        .expect("answer");
    assert_eq!(paid.status(), 503, "endpoint names ignore the mount prefix");
    server.abort();
}
