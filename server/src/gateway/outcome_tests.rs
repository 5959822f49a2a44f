//! Tests of [`super`]: every kind of answer the gateway gives, and what each means.

use serde_json::json;

use super::*;

fn approved() -> Value {
    json!({
        "success": true, "status_code": 201, "is_live": false, "transaction_type": "CAPTURE",
        "gateway_response": {"version": "1", "type": "INFO", "code": "INFO0000", "message": "ok"},
        "payment_details": {"amount": 1000, "response_code": 0, "auth_code": "A1",
            "currency": "JPY", "payment_method": null, "scheme": "VISA"},
        "transaction_details": {"id": "0b6f3a52-3c6e-4f0e-9a53-1d2c3b4a5f60", "ref": 1,
            "timestamp": "2024-06-01T09:30:15Z", "merchant_txn_ref": "o1"}
    })
}

fn declined(code: i64) -> Value {
    let mut body = approved();
    body["success"] = json!(false);
    body["payment_details"]["response_code"] = json!(code);
    body["gateway_response"]["code"] = json!("ERR5001");
    body["gateway_response"]["message"] = json!("Insufficient funds");
    body
}

fn reply(status: u16, body: &Value) -> Reply {
    Reply::new(status, body.to_string().as_bytes())
}

#[test]
fn approved_transaction_is_ok() {
    let response = transaction(reply(201, &approved())).unwrap();
    assert_eq!(response.response_code(), Some(0));
}

#[test]
fn declines_are_decided_by_the_body_at_any_status() {
    for status in [200, 201, 402, 406, 500] {
        match transaction(reply(status, &declined(51))) {
            Err(GatewayError::Declined {
                response_code: 51,
                code,
                ..
            }) => assert_eq!(code, "ERR5001"),
            other => panic!("HTTP {status}: {other:?}"),
        }
    }
    // success true but a non-zero response code is still a decline
    let mut body = approved();
    body["payment_details"]["response_code"] = json!(5);
    assert!(matches!(
        transaction(reply(201, &body)),
        Err(GatewayError::Declined {
            response_code: 5,
            ..
        })
    ));
}

#[test]
fn approved_body_with_failure_status_is_unknown() {
    assert!(matches!(
        transaction(reply(502, &approved())),
        Err(GatewayError::OutcomeUnknown { .. })
    ));
}

#[test]
fn failure_bodies() {
    let failure = json!({"success": false, "status_code": 412,
        "gateway_response": {"type": "ERROR", "code": "ERR3006", "message": "amount is outside the allowed range"}});
    match transaction(reply(412, &failure)) {
        Err(GatewayError::Rejected {
            status: 412,
            code,
            message,
        }) => {
            assert_eq!(code.as_deref(), Some("ERR3006"));
            assert_eq!(
                message.as_deref(),
                Some("amount is outside the allowed range")
            );
        }
        other => panic!("{other:?}"),
    }
    let html = Reply::new(400, b"<html>Bad Request</html>");
    assert!(matches!(
        transaction(html),
        Err(GatewayError::Rejected {
            status: 400,
            code: None,
            message: None
        })
    ));
    // 2xx with success false and no transaction: a refusal
    assert!(matches!(
        transaction(reply(200, &failure)),
        Err(GatewayError::Rejected { status: 200, .. })
    ));
}

#[test]
fn unreadable_or_server_errors_on_posts_are_unknown() {
    for (status, body) in [
        (201, &b"{\"succ"[..]),
        (200, b""),
        (500, b"oops"),
        (504, b""),
        (302, b""),
    ] {
        assert!(
            matches!(
                transaction(Reply::new(status, body)),
                Err(GatewayError::OutcomeUnknown { .. })
            ),
            "HTTP {status}"
        );
    }
    let failure = json!({"success": false, "gateway_response": {"type": "ERROR", "code": "ERR9", "message": "x"}});
    match transaction(reply(500, &failure)) {
        Err(GatewayError::OutcomeUnknown { reason }) => {
            assert!(reason.contains("ERR9"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn credentials_and_missing() {
    for status in [401, 403] {
        assert!(matches!(
            transaction(reply(status, &approved())),
            Err(GatewayError::Unauthorized { .. })
        ));
    }
    assert!(matches!(
        subscription_change(Reply::new(404, b"")),
        Err(GatewayError::NotFound)
    ));
}

#[test]
fn three_ds_start_outcomes() {
    let start = json!({"url": "https://acs/x", "redirect_url": "https://acs/x?r", "statusCode": 200, "success": true});
    assert_eq!(
        three_ds_start(reply(200, &start)).unwrap().redirect_url,
        "https://acs/x?r"
    );
    let mut refused = start.clone();
    refused["success"] = json!(false);
    assert!(matches!(
        three_ds_start(reply(200, &refused)),
        Err(GatewayError::Rejected { .. })
    ));
    assert!(matches!(
        three_ds_start(reply(200, &declined(5))),
        Err(GatewayError::Declined { .. })
    ));
    assert!(matches!(
        three_ds_start(Reply::new(503, b"")),
        Err(GatewayError::OutcomeUnknown { .. })
    ));
}

#[test]
fn reads() {
    let ok = |r: &TransactionResponse| r.success || r.transaction_details.is_some();
    assert!(
        read(reply(200, &declined(51)), ok).is_ok(),
        "a declined transaction's status is an answer"
    );
    assert!(matches!(
        read(Reply::new(200, b"nope"), ok),
        Err(GatewayError::InvalidResponse { status: 200, .. })
    ));
    assert!(matches!(
        read(Reply::new(503, b""), ok),
        Err(GatewayError::Unavailable { status: 503 })
    ));
    assert!(matches!(
        read(Reply::new(500, b""), ok),
        Err(GatewayError::Unavailable { status: 500 })
    ));
    assert!(matches!(
        read(Reply::new(429, b""), ok),
        Err(GatewayError::Unavailable { status: 429 })
    ));
    assert!(matches!(
        read(Reply::new(400, b""), ok),
        Err(GatewayError::Rejected { status: 400, .. })
    ));
    let failure = json!({"success": false, "status_code": 200,
        "gateway_response": {"type": "ERROR", "code": "ERR1", "message": "no"}});
    assert!(matches!(
        read(reply(200, &failure), ok),
        Err(GatewayError::Rejected { .. })
    ));
}

#[test]
fn long_messages_are_clipped() {
    let failure = json!({"success": false, "gateway_response": {"type": "ERROR", "code": "E", "message": "m".repeat(5000)}});
    match transaction(reply(400, &failure)) {
        Err(GatewayError::Rejected {
            message: Some(message),
            ..
        }) => assert_eq!(message.len(), MAX_MESSAGE_CHARS),
        other => panic!("{other:?}"),
    }
}
