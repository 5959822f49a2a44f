//! The gateway client against a recording test server: exact paths, methods, headers and
//! bodies for every endpoint; declines, 401, 404; ids and bodies checked before sending;
//! credentials absent from `Debug` and errors.

use checkout::wire::*;
use checkout_server::gateway::{API_PREFIX, GatewayClient, GatewayError};
use serde_json::{Value, json};

use super::test_server::{API_KEY, API_KEY_BASE64, Action, TestServer, X_API_KEY, config};
use super::wire::fixture;

const TRANSACTION_ID: &str = "0b6f3a52-3c6e-4f0e-9a53-1d2c3b4a5f60";
const SUBSCRIPTION_ID: &str = "5d1e8c2a-9b7f-4c3d-8e6a-2f1b0c9d8e7a";

fn typed<T: serde::de::DeserializeOwned>(name: &str) -> T {
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

#[tokio::test]
async fn declined_body_is_declined_with_the_transaction() {
    let server = TestServer::start(vec![Action::json(
        201,
        &fixture("response_payment_declined"),
    )])
    .await;
    match server
        .client()
        .payment(&typed("request_payment_card"))
        .await
    {
        Err(GatewayError::Declined {
            response_code,
            code,
            message,
            transaction,
        }) => {
            assert_eq!(
                (response_code, code.as_str(), message.as_str()),
                (51, "ERR5001", "Insufficient funds")
            );
            assert_eq!(transaction.transaction_id(), Some(TRANSACTION_ID));
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn unauthorized_and_not_found() {
    let server = TestServer::start(vec![
        Action::json(401, &fixture("response_failure")),
        Action::text(401, "Unauthorized"),
        Action::json(404, &json!({"success": false})),
        Action::text(404, "Not Found"),
    ])
    .await;
    let client = server.client();
    assert!(matches!(
        client.payment(&typed("request_payment_card")).await,
        Err(GatewayError::Unauthorized { status: 401 })
    ));
    assert!(matches!(
        client.subscription_list().await,
        Err(GatewayError::Unauthorized { status: 401 })
    ));
    assert!(matches!(
        client.transaction_status(TRANSACTION_ID).await,
        Err(GatewayError::NotFound)
    ));
    assert!(matches!(
        client.subscription_pause(SUBSCRIPTION_ID).await,
        Err(GatewayError::NotFound)
    ));
    assert_eq!(server.requests().len(), 4, "401 and 404 are not retried");
}

#[tokio::test]
async fn failure_bodies_are_rejected_json_or_not() {
    let server = TestServer::start(vec![
        Action::json(406, &fixture("response_failure")),
        Action::text(400, "<html><body>Bad Request</body></html>"),
    ])
    .await;
    let client = server.client();
    match client.payment(&typed("request_payment_card")).await {
        Err(GatewayError::Rejected {
            status: 406,
            code,
            message,
        }) => {
            assert_eq!(code.as_deref(), Some("ERR1006"));
            assert_eq!(message.as_deref(), Some("Invalid card"));
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        client.capture(&typed("request_capture")).await,
        Err(GatewayError::Rejected {
            status: 400,
            code: None,
            message: None
        })
    ));
}

#[tokio::test]
async fn invalid_ids_and_bodies_are_refused_before_sending() {
    let server = TestServer::start(vec![]).await;
    let client = server.client();
    for id in [
        "../../payment",
        "short",
        "0b6f3a52-3c6e-4f0e-9a53-1d2c3b4a5f6%",
        "",
    ] {
        match client.transaction_status(id).await {
            Err(GatewayError::InvalidRequest(e)) => assert_eq!(e.field, "transactionId"),
            other => panic!("{id}: {other:?}"),
        }
    }
    for id in ["list", "a/b", "x?y=1", &"a".repeat(37)] {
        assert!(
            matches!(
                client.subscription_get(id).await,
                Err(GatewayError::InvalidRequest(_))
            ),
            "{id}"
        );
        assert!(
            matches!(
                client.subscription_cancel(id).await,
                Err(GatewayError::InvalidRequest(_))
            ),
            "{id}"
        );
    }
    let mut no_return: PaymentRequest = typed("request_payment_v2");
    no_return.return_url = None;
    match client.payment_v2(&no_return).await {
        Err(GatewayError::InvalidRequest(e)) => assert_eq!(e.field, "return_url"),
        other => panic!("{other:?}"),
    }
    let mut bad_void: VoidRequest = typed("request_void");
    bad_void.merchant_id = "m".repeat(129);
    assert!(matches!(
        client.void(&bad_void).await,
        Err(GatewayError::InvalidRequest(_))
    ));
    assert!(server.requests().is_empty(), "nothing reached the gateway");
}

#[tokio::test]
async fn credentials_never_appear_in_debug_or_errors() {
    let server =
        TestServer::start(vec![Action::text(500, "boom"), Action::text(503, "down")]).await;
    let client = server.client();
    let secrets = [API_KEY, X_API_KEY, API_KEY_BASE64];
    let shown_config = format!("{:?}", config(&server.base_url()));
    let shown_client = format!("{client:?}");
    let error = client
        .payment(&typed("request_payment_card"))
        .await
        .expect_err("500");
    let shown_error = format!("{error} {error:?}");
    for text in [&shown_config, &shown_client, &shown_error] {
        for secret in secrets {
            assert!(!text.contains(secret), "{secret} leaked in {text}");
        }
        assert!(
            !text.contains("5200000000001005"),
            "card number leaked in {text}"
        );
    }
    assert!(shown_client.contains(&server.base_url()));
}

#[tokio::test]
async fn bad_configuration_is_refused() {
    for base in [
        "ftp://127.0.0.1",
        "http://user:pw@127.0.0.1:1",
        "http://127.0.0.1:1/api/v1",
        "nonsense",
    ] {
        assert!(
            matches!(
                GatewayClient::new(config(base)),
                Err(GatewayError::Config { .. })
            ),
            "{base}"
        );
    }
    let mut newline_key = config("http://127.0.0.1:1");
    newline_key.x_api_key = "bad\nkey".into();
    match GatewayClient::new(newline_key) {
        Err(error) => assert!(!error.to_string().contains("bad\nkey")),
        Ok(_) => panic!("a header value with a newline must be refused"),
    }
}
