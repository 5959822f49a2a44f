//! Turning a gateway [`Reply`] into a typed result or a [`GatewayError`].
//!
//! gateway-notes.md: "A client must decide the outcome from `success` and
//! `payment_details.response_code`, never from the HTTP status alone, and must survive a
//! failure body that is not JSON." So a body that is a transaction decides by itself; the
//! HTTP status only decides what an unreadable or transaction-less answer means.

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::error::GatewayError;
use super::transport::Reply;
use checkout::wire::{
    GatewayResponse, SubscriptionResponse, ThreeDsInitiationResponse, TransactionResponse,
};

/// Longest gateway message kept in an error.
const MAX_MESSAGE_CHARS: usize = 200;

/// A money-moving answer (payment, authorization, capture, refund, void, subscription
/// payment): approved → `Ok`; a transaction that is not approved → `Declined`; a 4xx failure
/// body → `Rejected`; anything unreadable, 5xx or contradictory → `OutcomeUnknown`.
pub(crate) fn transaction(reply: Reply) -> Result<TransactionResponse, GatewayError> {
    credentials_or_missing(&reply)?;
    if let Some(decided) = decided_transaction(&reply) {
        return decided;
    }
    state_change(&reply, "transaction", |r: &TransactionResponse| {
        (r.success, Some(&r.gateway_response))
    })
}

/// A 3DS start (`paymentv2`, `authorizationv2`): `Ok` with the redirect when `success`; a
/// declined transaction body → `Declined`; otherwise as [`transaction`].
pub(crate) fn three_ds_start(reply: Reply) -> Result<ThreeDsInitiationResponse, GatewayError> {
    credentials_or_missing(&reply)?;
    if let Some(Err(declined)) = decided_transaction(&reply) {
        return Err(declined);
    }
    state_change(&reply, "3DS initiation", |r: &ThreeDsInitiationResponse| {
        (r.success, r.gateway_response.as_ref())
    })
}

/// Pause, resume, cancel: state-changing `POST`s, so an unreadable answer is
/// `OutcomeUnknown` (confirm with a subscription read).
pub(crate) fn subscription_change(reply: Reply) -> Result<SubscriptionResponse, GatewayError> {
    credentials_or_missing(&reply)?;
    state_change(&reply, "subscription", |r: &SubscriptionResponse| {
        (r.success, r.gateway_response.as_ref())
    })
}

/// A state-changing answer that no transaction in it has decided. `judge` gives a parsed body's
/// `success` and `gateway_response`: a 2xx body with `success` → `Ok`; without → `Rejected`
/// (with its `gateway_response` if any); a 4xx → `Rejected`; anything unreadable or any other
/// status → `OutcomeUnknown`. `noun` names the body in those reasons.
fn state_change<T: DeserializeOwned>(
    reply: &Reply,
    noun: &str,
    judge: impl FnOnce(&T) -> (bool, Option<&GatewayResponse>),
) -> Result<T, GatewayError> {
    match class(reply.status) {
        Class::Success => match serde_json::from_slice::<T>(&reply.body) {
            Ok(answer) => match judge(&answer) {
                (true, _) => Ok(answer),
                (false, Some(gateway)) => Err(rejected_by(reply.status, gateway)),
                (false, None) => Err(rejected(reply)),
            },
            Err(e) => Err(unknown(
                reply,
                &format!("body is not a {noun} response: {e}"),
            )),
        },
        Class::ClientError => Err(rejected(reply)),
        Class::Other => Err(unknown(reply, &format!("no {noun} in the answer"))),
    }
}

/// A safe read (status, subscription get and list). `accept` says whether a parsed 2xx body
/// is an answer (`Ok`) or a refusal (`Rejected`). 5xx and 429 (after the transport's
/// retries) are `Unavailable`; a 2xx that does not parse is `InvalidResponse`.
pub(crate) fn read<T: DeserializeOwned>(
    reply: Reply,
    accept: impl FnOnce(&T) -> bool,
) -> Result<T, GatewayError> {
    let body = read_with(&reply, |body| serde_json::from_slice::<T>(body))?;
    if accept(&body) {
        Ok(body)
    } else {
        Err(rejected(&reply))
    }
}

/// [`read`] with the 2xx body parsed by `parse` (a streaming reader, say); what `parse`
/// fails on is `InvalidResponse`.
pub(crate) fn read_with<T>(
    reply: &Reply,
    parse: impl FnOnce(&[u8]) -> Result<T, serde_json::Error>,
) -> Result<T, GatewayError> {
    credentials_or_missing(reply)?;
    match class(reply.status) {
        Class::Success => parse(&reply.body).map_err(|e| GatewayError::InvalidResponse {
            status: reply.status,
            reason: e.to_string(),
        }),
        Class::ClientError if reply.status == 429 => Err(GatewayError::Unavailable { status: 429 }),
        Class::ClientError => Err(rejected(reply)),
        Class::Other if reply.status >= 500 => Err(GatewayError::Unavailable {
            status: reply.status,
        }),
        Class::Other => Err(GatewayError::InvalidResponse {
            status: reply.status,
            reason: "unexpected HTTP status".into(),
        }),
    }
}

enum Class {
    Success,
    ClientError,
    Other,
}

fn class(status: u16) -> Class {
    match status {
        200..=299 => Class::Success,
        400..=499 => Class::ClientError,
        _ => Class::Other,
    }
}

/// 401/403 and 404 mean the same thing whatever the endpoint and body.
fn credentials_or_missing(reply: &Reply) -> Result<(), GatewayError> {
    match reply.status {
        401 | 403 => Err(GatewayError::Unauthorized {
            status: reply.status,
        }),
        404 => Err(GatewayError::NotFound),
        _ => Ok(()),
    }
}

/// A body that is a transaction with `payment_details` decides the outcome on its own:
/// not approved → `Declined` at any HTTP status; approved → `Ok` on 2xx, and
/// `OutcomeUnknown` on any other status (the answer contradicts itself).
fn decided_transaction(reply: &Reply) -> Option<Result<TransactionResponse, GatewayError>> {
    let response = serde_json::from_slice::<TransactionResponse>(&reply.body).ok()?;
    let payment = response.payment_details.as_ref()?;
    if !response.is_approved() {
        return Some(Err(GatewayError::Declined {
            response_code: payment.response_code,
            code: response.gateway_response.code.clone(),
            message: clip(&response.gateway_response.message),
            transaction: Box::new(response),
        }));
    }
    if matches!(class(reply.status), Class::Success) {
        Some(Ok(response))
    } else {
        Some(Err(unknown(
            reply,
            "an approved transaction with a failure status",
        )))
    }
}

/// `Rejected` with whatever `gateway_response.code`/`message` a JSON body offers; a non-JSON
/// body gives neither (and is never quoted: it is not ours to log).
fn rejected(reply: &Reply) -> GatewayError {
    let json = serde_json::from_slice::<Value>(&reply.body).ok();
    let field = |name: &str| {
        let value = json.as_ref()?.get("gateway_response")?.get(name)?;
        match value {
            Value::String(text) => Some(clip(text)),
            Value::Number(number) => Some(number.to_string()),
            _ => None,
        }
    };
    GatewayError::Rejected {
        status: reply.status,
        code: field("code"),
        message: field("message"),
    }
}

fn rejected_by(status: u16, gateway: &GatewayResponse) -> GatewayError {
    GatewayError::Rejected {
        status,
        code: Some(gateway.code.clone()),
        message: Some(clip(&gateway.message)),
    }
}

fn unknown(reply: &Reply, what: &str) -> GatewayError {
    let code = match rejected(reply) {
        GatewayError::Rejected {
            code: Some(code), ..
        } => format!(", gateway code {code}"),
        _ => String::new(),
    };
    GatewayError::OutcomeUnknown {
        reason: format!("HTTP {}{code}: {what}", reply.status),
    }
}

fn clip(text: &str) -> String {
    text.chars().take(MAX_MESSAGE_CHARS).collect()
}

#[cfg(test)]
mod tests {
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
}
