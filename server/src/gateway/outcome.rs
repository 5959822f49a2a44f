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
#[path = "outcome_tests.rs"]
mod tests;
