//! Credentials on the emulator: both headers required on the gateway and control APIs, both
//! Basic spellings accepted, refusals that never echo what was sent.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use checkout_sandbox::{DEFAULT_X_API_KEY, SandboxConfig};
use secrecy::SecretString;

use super::support::{Gateway, basic_default, fast_config, payment_body};

async fn pay_with(
    gateway: &Gateway,
    authorization: Option<&str>,
    x_api_key: Option<&str>,
) -> (u16, String) {
    let mut request = gateway
        .client
        .post(gateway.sandbox.api_url("payment"))
        .json(&payment_body("4242424242424242"));
    if let Some(value) = authorization {
        request = request.header("Authorization", value);
    }
    if let Some(value) = x_api_key {
        request = request.header("x-api-key", value);
    }
    let answer = request.send().await.expect("answer");
    (answer.status().as_u16(), answer.text().await.expect("body"))
}

fn assert_unauthorized(status: u16, body: &str, names: &str) {
    assert_eq!(status, 401, "{body}");
    let json: serde_json::Value = serde_json::from_str(body).expect("json failure body");
    assert_eq!(json["success"], false);
    assert_eq!(json["status_code"], 401);
    assert_eq!(json["is_live"], false);
    assert_eq!(json["gateway_response"]["type"], "ERROR");
    assert_eq!(json["gateway_response"]["code"], "ERR0001");
    let message = json["gateway_response"]["message"]
        .as_str()
        .unwrap_or_default();
    assert!(message.contains(names), "{message} should name {names}");
}

#[tokio::test]
async fn both_headers_are_required() {
    let gateway = Gateway::start().await;
    let basic = basic_default();
    let (status, body) = pay_with(&gateway, None, Some(DEFAULT_X_API_KEY)).await;
    assert_unauthorized(status, &body, "Authorization");
    let (status, body) = pay_with(&gateway, Some(&basic), None).await;
    assert_unauthorized(status, &body, "x-api-key");
    let (status, body) = pay_with(&gateway, None, None).await;
    assert_unauthorized(status, &body, "x-api-key");
    assert_eq!(gateway.transaction_count().await, 0);
}

#[tokio::test]
async fn wrong_values_are_refused_without_echo() {
    let gateway = Gateway::start().await;
    let wrong_key = format!("Basic {}", STANDARD.encode("guessed-key-123"));
    let (status, body) = pay_with(&gateway, Some(&wrong_key), Some(DEFAULT_X_API_KEY)).await;
    assert_unauthorized(status, &body, "credentials");
    assert!(
        !body.contains("guessed-key-123") && !body.contains(&wrong_key[6..]),
        "{body}"
    );
    let (status, body) =
        pay_with(&gateway, Some(&basic_default()), Some("guessed-x-key-456")).await;
    assert_unauthorized(status, &body, "credentials");
    assert!(!body.contains("guessed-x-key-456"), "{body}");
    let (status, body) = pay_with(
        &gateway,
        Some("Bearer sandbox_api_key"),
        Some(DEFAULT_X_API_KEY),
    )
    .await;
    assert_unauthorized(status, &body, "Basic");
    assert!(!body.contains("sandbox_api_key"), "{body}");
    let with_password = format!("Basic {}", STANDARD.encode("sandbox_api_key:secret"));
    let (status, _) = pay_with(&gateway, Some(&with_password), Some(DEFAULT_X_API_KEY)).await;
    assert_eq!(status, 401);
}

#[tokio::test]
async fn key_with_an_empty_password_is_accepted() {
    let gateway = Gateway::start().await;
    let colon = format!("Basic {}", STANDARD.encode("sandbox_api_key:"));
    let (status, body) = pay_with(&gateway, Some(&colon), Some(DEFAULT_X_API_KEY)).await;
    assert_eq!(status, 201, "{body}");
    let (status, body) = pay_with(&gateway, Some(&basic_default()), Some(DEFAULT_X_API_KEY)).await;
    assert_eq!(status, 201, "{body}");
}

#[tokio::test]
async fn configured_keys_replace_the_defaults() {
    let config = SandboxConfig {
        api_key: SecretString::from("live_like_key"),
        x_api_key: SecretString::from("live_like_x_key"),
        ..fast_config()
    };
    let gateway = Gateway::with_config(config).await;
    let (status, _) = pay_with(&gateway, Some(&basic_default()), Some(DEFAULT_X_API_KEY)).await;
    assert_eq!(status, 401, "the default keys no longer work");
    let custom = format!("Basic {}", STANDARD.encode("live_like_key"));
    let (status, body) = pay_with(&gateway, Some(&custom), Some("live_like_x_key")).await;
    assert_eq!(status, 201, "{body}");
}

#[tokio::test]
async fn every_api_route_and_the_control_api_require_credentials() {
    let gateway = Gateway::start().await;
    let base = gateway.sandbox.base_url().to_owned();
    let id = uuid::Uuid::new_v4();
    let gets = [
        gateway.sandbox.api_url(&format!("transaction/status/{id}")),
        format!("{base}/sandbox/state"),
        format!("{base}/sandbox/faults"),
        format!("{base}/sandbox/clock"),
    ];
    for url in gets {
        let answer = gateway.client.get(&url).send().await.expect("answer");
        assert_eq!(answer.status(), 401, "{url}");
    }
    for endpoint in [
        "payment",
        "authorization",
        "paymentv2",
        "authorizationv2",
        "capture",
        "refund",
        "void",
    ] {
        let answer = gateway
            .client
            .post(gateway.sandbox.api_url(endpoint))
            .json(&serde_json::json!({}))
            .send()
            .await
            .expect("answer");
        assert_eq!(answer.status(), 401, "{endpoint}");
    }
    let advance = gateway
        .client
        .post(format!("{base}/sandbox/clock/advance"))
        .json(&serde_json::json!({"days": 1}))
        .send()
        .await
        .expect("answer");
    assert_eq!(advance.status(), 401);
}
