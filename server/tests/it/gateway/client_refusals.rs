//! The gateway client's refusals against a recording test server: declines, 401, 404,
//! failure bodies, ids and bodies checked before sending, a bad configuration; and
//! credentials absent from `Debug` and errors.

use checkout::wire::*;
use checkout_server::gateway::{GatewayClient, GatewayError};
use serde_json::json;

use super::client::{SUBSCRIPTION_ID, TRANSACTION_ID, typed};
use super::test_server::{API_KEY, API_KEY_BASE64, Action, TestServer, X_API_KEY, config};
use super::wire::fixture;

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
