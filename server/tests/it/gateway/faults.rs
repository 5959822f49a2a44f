//! Fault injection: how the client classifies timeouts, 5xx, garbage, resets and truncated
//! bodies. A money-moving `POST` is sent once and any doubt is `OutcomeUnknown`; a `GET` is
//! retried with backoff and then succeeds or fails with a transport-level error.

use std::time::Duration;

use checkout::wire::PaymentRequest;
use checkout_server::gateway::GatewayError;
use tokio::net::TcpListener;

use super::test_server::{Action, TestServer, config};
use super::wire::fixture;

/// Checks the error a fault ends in.
type Expectation = fn(&GatewayError) -> bool;

const TRANSACTION_ID: &str = "0b6f3a52-3c6e-4f0e-9a53-1d2c3b4a5f60";

fn card_request() -> PaymentRequest {
    serde_json::from_value(fixture("request_payment_card")).expect("fixture")
}

fn status_ok() -> Action {
    Action::json(200, &fixture("response_status"))
}

/// Longer than the test client's 1 s total timeout.
fn stall(then: Action) -> Action {
    Action::Delay(Duration::from_millis(2500), Box::new(then))
}

fn faults() -> Vec<(&'static str, Action)> {
    vec![
        (
            "timeout",
            stall(Action::json(201, &fixture("response_payment"))),
        ),
        ("HTTP 500", Action::text(500, "Internal Server Error")),
        (
            "HTTP 503",
            Action::json(503, &serde_json::json!({"success": false})),
        ),
        ("non-JSON 200 body", Action::text(200, "<html>ok</html>")),
        ("connection reset mid-response", Action::ResetMidResponse),
        ("truncated body", Action::TruncatedBody),
        (
            "connection closed before any response",
            Action::CloseWithoutResponse,
        ),
    ]
}

/// Fragments of which the `OutcomeUnknown` reason for each fault must contain one
/// (lower-cased). A reset can land before or after the client has read the headers.
fn post_reason(label: &str) -> &'static [&'static str] {
    match label {
        "timeout" => &["timed out"],
        "HTTP 500" => &["http 500"],
        "HTTP 503" => &["http 503"],
        "non-JSON 200 body" => &["not a transaction response"],
        "connection reset mid-response" => &["connection reset", "connection closed"],
        "truncated body" => &["body unreadable", "end of file"],
        "connection closed before any response" => &["connection closed"],
        other => panic!("no expectation for {other}"),
    }
}

#[tokio::test]
async fn post_faults_are_outcome_unknown_and_never_retried() {
    for (label, fault) in faults() {
        let server =
            TestServer::start(vec![fault, Action::json(201, &fixture("response_payment"))]).await;
        let result = server.client().payment(&card_request()).await;
        match &result {
            Err(GatewayError::OutcomeUnknown { reason }) => {
                let lower = reason.to_lowercase();
                assert!(
                    post_reason(label).iter().any(|f| lower.contains(f)),
                    "{label}: {reason}"
                );
            }
            other => panic!("{label}: {other:?}"),
        }
        assert_eq!(
            server.requests().len(),
            1,
            "{label}: a POST is sent exactly once"
        );
        assert_eq!(
            server.remaining(),
            1,
            "{label}: the success was never asked for"
        );
    }
}

#[tokio::test]
async fn get_faults_are_retried_then_succeed() {
    for (label, fault) in faults() {
        if label == "HTTP 500" || label == "non-JSON 200 body" {
            continue; // not transient: see get_non_transient_answers_are_not_retried
        }
        let server = TestServer::start(vec![fault, status_ok()]).await;
        let response = server
            .client()
            .transaction_status(TRANSACTION_ID)
            .await
            .unwrap_or_else(|e| panic!("{label}: {e}"));
        assert!(response.is_approved(), "{label}");
        assert_eq!(server.requests().len(), 2, "{label}: one retry");
        assert!(server.requests().iter().all(|r| r.method == "GET"));
    }
}

#[tokio::test]
async fn get_faults_exhaust_the_retry_budget() {
    let cases: Vec<(&str, Action, Expectation)> = vec![
        ("timeout", stall(status_ok()), |e| {
            matches!(e, GatewayError::Transport { .. })
        }),
        ("reset", Action::ResetMidResponse, |e| {
            matches!(e, GatewayError::Transport { .. })
        }),
        ("truncated", Action::TruncatedBody, |e| {
            matches!(e, GatewayError::Transport { .. })
        }),
        ("503", Action::text(503, "down"), |e| {
            matches!(e, GatewayError::Unavailable { status: 503 })
        }),
        ("504", Action::text(504, "gateway timeout"), |e| {
            matches!(e, GatewayError::Unavailable { status: 504 })
        }),
    ];
    for (label, fault, expected) in cases {
        let server =
            TestServer::start(vec![fault.clone(), fault.clone(), fault, status_ok()]).await;
        let error = server.client().subscription_list().await.expect_err(label);
        assert!(expected(&error), "{label}: {error:?}");
        assert_eq!(server.requests().len(), 3, "{label}: max_attempts is 3");
        assert_eq!(server.remaining(), 1, "{label}");
    }
}

#[tokio::test]
async fn get_non_transient_answers_are_not_retried() {
    let server = TestServer::start(vec![Action::text(500, "boom"), status_ok()]).await;
    let error = server
        .client()
        .transaction_status(TRANSACTION_ID)
        .await
        .expect_err("500");
    assert!(
        matches!(error, GatewayError::Unavailable { status: 500 }),
        "{error:?}"
    );
    assert_eq!(server.requests().len(), 1);

    let server = TestServer::start(vec![Action::text(200, "not json"), status_ok()]).await;
    let error = server
        .client()
        .transaction_status(TRANSACTION_ID)
        .await
        .expect_err("garbage");
    assert!(
        matches!(error, GatewayError::InvalidResponse { status: 200, .. }),
        "{error:?}"
    );
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn status_retries_503_then_200() {
    let server = TestServer::start(vec![Action::text(503, "busy"), status_ok()]).await;
    let response = server
        .client()
        .transaction_status(TRANSACTION_ID)
        .await
        .expect("second attempt");
    assert_eq!(response.transaction_id(), Some(TRANSACTION_ID));
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn retry_after_is_honoured_on_429() {
    let busy = Action::Respond {
        status: 429,
        body: b"slow down".to_vec(),
        headers: vec![("Retry-After".into(), "0".into())],
    };
    let server = TestServer::start(vec![
        busy,
        Action::json(200, &fixture("response_subscription_list")),
    ])
    .await;
    let list = server
        .client()
        .subscription_list()
        .await
        .expect("after 429");
    assert_eq!(list.subscription_details.len(), 3);
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn post_is_not_retried_on_503() {
    let server = TestServer::start(vec![
        Action::text(503, "busy"),
        Action::json(201, &fixture("response_payment")),
    ])
    .await;
    let error = server
        .client()
        .payment(&card_request())
        .await
        .expect_err("503");
    assert!(
        matches!(error, GatewayError::OutcomeUnknown { .. }),
        "{error:?}"
    );
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn subscription_changes_are_not_retried_either() {
    let server = TestServer::start(vec![
        Action::ResetMidResponse,
        Action::json(200, &fixture("response_subscription_pause")),
    ])
    .await;
    let error = server
        .client()
        .subscription_pause("5d1e8c2a-9b7f-4c3d-8e6a-2f1b0c9d8e7a")
        .await
        .expect_err("reset");
    assert!(
        matches!(error, GatewayError::OutcomeUnknown { .. }),
        "{error:?}"
    );
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn refused_connection_is_transport_for_post_and_get() {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    drop(listener);
    let client = checkout_server::gateway::GatewayClient::new(config(&format!("http://{addr}")))
        .expect("client");
    let error = client.payment(&card_request()).await.expect_err("refused");
    assert!(matches!(error, GatewayError::Transport { .. }), "{error:?}");
    assert!(error.is_safe_to_retry());
    let error = client.subscription_list().await.expect_err("refused");
    assert!(matches!(error, GatewayError::Transport { .. }), "{error:?}");
}
