//! The gateway client against a recording test server: exact paths, methods, headers and
//! bodies for every endpoint. What it refuses or hides is in client_refusals.rs, which shares
//! the fixtures' ids and the typed fixture here.

use checkout::wire::*;
use checkout_server::gateway::{API_PREFIX, GatewayClient, GatewayError};
use serde_json::{Value, json};

use super::test_server::{API_KEY_BASE64, Action, TestServer, X_API_KEY};
use super::wire::fixture;

pub(super) const TRANSACTION_ID: &str = "0b6f3a52-3c6e-4f0e-9a53-1d2c3b4a5f60";
pub(super) const SUBSCRIPTION_ID: &str = "5d1e8c2a-9b7f-4c3d-8e6a-2f1b0c9d8e7a";

pub(super) fn typed<T: serde::de::DeserializeOwned>(name: &str) -> T {
    serde_json::from_value(fixture(name)).expect("fixture parses")
}

fn path(tail: &str) -> String {
    format!("{API_PREFIX}{tail}")
}

#[tokio::test]
async fn payment_sends_exact_headers_and_body() {
    let server = TestServer::start(vec![Action::json(201, &fixture("response_payment"))]).await;
    let request: PaymentRequest = typed("request_payment_card");
    let response = server.client().payment(&request).await.expect("approved");
    assert_eq!(response, typed::<TransactionResponse>("response_payment"));

    let sent = server.requests();
    assert_eq!(sent.len(), 1);
    let sent = &sent[0];
    assert_eq!(sent.method, "POST");
    assert_eq!(sent.path, "/api/v1/server-to-server-interface/payment");
    assert_eq!(
        sent.header("authorization"),
        Some(format!("Basic {API_KEY_BASE64}").as_str())
    );
    assert_eq!(sent.header("x-api-key"), Some(X_API_KEY));
    assert_eq!(sent.header("content-type"), Some("application/json"));
    assert_eq!(
        sent.json(),
        fixture("request_payment_card"),
        "body is the contract's JSON"
    );
    assert_eq!(
        sent.json()["amount"],
        json!("1000"),
        "request amount is a string"
    );
    assert_eq!(sent.json()["card"]["number"], json!("5200000000001005"));
}

/// (endpoint, expected method, expected path, request body fixture or none, response fixture)
struct Case {
    name: &'static str,
    method: &'static str,
    path: String,
    body: Option<&'static str>,
    response: &'static str,
}

async fn call(client: &GatewayClient, name: &str) -> Result<Value, GatewayError> {
    fn v<T: serde::Serialize>(t: T) -> Value {
        serde_json::to_value(t).expect("serialises")
    }
    Ok(match name {
        "payment" => v(client.payment(&typed("request_payment_token")).await?),
        "authorization" => v(client
            .authorization(&typed("request_payment_card_store"))
            .await?),
        "payment_v2" => v(client.payment_v2(&typed("request_payment_v2")).await?),
        "authorization_v2" => v(client
            .authorization_v2(&typed("request_payment_v2"))
            .await?),
        "capture" => v(client.capture(&typed("request_capture")).await?),
        "refund" => v(client.refund(&typed("request_refund")).await?),
        "void" => v(client.void(&typed("request_void")).await?),
        "transaction_status" => v(client.transaction_status(TRANSACTION_ID).await?),
        "subscription_payment" => v(client
            .subscription_payment(&typed("request_subscription"))
            .await?),
        "subscription_pause" => v(client.subscription_pause(SUBSCRIPTION_ID).await?),
        "subscription_resume" => v(client.subscription_resume(SUBSCRIPTION_ID).await?),
        "subscription_cancel" => v(client.subscription_cancel(SUBSCRIPTION_ID).await?),
        "subscription_get" => v(client.subscription_get(SUBSCRIPTION_ID).await?),
        "subscription_list" => v(client.subscription_list().await?),
        other => panic!("no endpoint {other}"),
    })
}

#[tokio::test]
async fn every_endpoint_uses_its_method_path_headers_and_body() {
    let sub = |tail: &str| path(&format!("subscription/{SUBSCRIPTION_ID}{tail}"));
    let cases = [
        Case {
            name: "payment",
            method: "POST",
            path: path("payment"),
            body: Some("request_payment_token"),
            response: "response_payment_token",
        },
        Case {
            name: "authorization",
            method: "POST",
            path: path("authorization"),
            body: Some("request_payment_card_store"),
            response: "response_authorization",
        },
        Case {
            name: "payment_v2",
            method: "POST",
            path: path("paymentv2"),
            body: Some("request_payment_v2"),
            response: "response_three_ds_initiation",
        },
        Case {
            name: "authorization_v2",
            method: "POST",
            path: path("authorizationv2"),
            body: Some("request_payment_v2"),
            response: "response_three_ds_initiation",
        },
        Case {
            name: "capture",
            method: "POST",
            path: path("capture"),
            body: Some("request_capture"),
            response: "response_capture",
        },
        Case {
            name: "refund",
            method: "POST",
            path: path("refund"),
            body: Some("request_refund"),
            response: "response_refund",
        },
        Case {
            name: "void",
            method: "POST",
            path: path("void"),
            body: Some("request_void"),
            response: "response_void",
        },
        Case {
            name: "transaction_status",
            method: "GET",
            path: path(&format!("transaction/status/{TRANSACTION_ID}")),
            body: None,
            response: "response_status",
        },
        Case {
            name: "subscription_payment",
            method: "POST",
            path: path("subscription/payment"),
            body: Some("request_subscription"),
            response: "response_subscription_creation",
        },
        Case {
            name: "subscription_pause",
            method: "POST",
            path: sub("/pause"),
            body: None,
            response: "response_subscription_pause",
        },
        Case {
            name: "subscription_resume",
            method: "POST",
            path: sub("/resume"),
            body: None,
            response: "response_subscription_resume",
        },
        Case {
            name: "subscription_cancel",
            method: "POST",
            path: sub("/cancel"),
            body: None,
            response: "response_subscription_cancel",
        },
        Case {
            name: "subscription_get",
            method: "GET",
            path: sub(""),
            body: None,
            response: "response_subscription_retrieve",
        },
        Case {
            name: "subscription_list",
            method: "GET",
            path: path("subscription/list"),
            body: None,
            response: "response_subscription_list",
        },
    ];
    for case in cases {
        let server = TestServer::start(vec![Action::json(200, &fixture(case.response))]).await;
        let answer = call(&server.client(), case.name)
            .await
            .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        assert_eq!(
            answer,
            fixture(case.response),
            "{}: typed answer",
            case.name
        );

        let sent = server.requests();
        assert_eq!(sent.len(), 1, "{}", case.name);
        let sent = &sent[0];
        assert_eq!(sent.method, case.method, "{}", case.name);
        assert_eq!(sent.path, case.path, "{}", case.name);
        assert_eq!(
            sent.header("authorization"),
            Some(format!("Basic {API_KEY_BASE64}").as_str()),
            "{}",
            case.name
        );
        assert_eq!(sent.header("x-api-key"), Some(X_API_KEY), "{}", case.name);
        match case.body {
            Some(body) => {
                assert_eq!(
                    sent.header("content-type"),
                    Some("application/json"),
                    "{}",
                    case.name
                );
                assert_eq!(sent.json(), fixture(body), "{}: body", case.name);
            }
            None => {
                assert_eq!(
                    sent.header("content-type"),
                    None,
                    "{}: no body, no Content-Type",
                    case.name
                );
                assert!(sent.body.is_empty(), "{}: no body", case.name);
            }
        }
    }
}
