//! `POST /capture`, `POST /refund` and `POST /void`: each records its own transaction
//! (201, codes `INFO0001`..`INFO0003`) or refuses with a 4xx naming the rule (see
//! [`Ledger::capture`](crate::ledger::Ledger::capture) and its siblings).

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use crate::error::SandboxError;
use crate::ledger::TransactionRecord;
use crate::render::payment_response;
use crate::state::SandboxState;
use crate::validate;
use crate::web::WireJson;
use checkout::wire::{AmountAdjustmentRequest, VoidRequest};

/// `POST /capture` `{transactionId, amount, merchant_id, notes?}`.
pub async fn capture(
    State(state): State<SandboxState>,
    WireJson(body): WireJson<AmountAdjustmentRequest>,
) -> Result<Response, SandboxError> {
    let (id, amount) = check_amount_request(&body)?;
    let record = state
        .ledger
        .capture(&id, &body.merchant_id, amount, state.clock.now())?;
    Ok(created(&state, &record))
}

/// `POST /refund` `{transactionId, amount, merchant_id, notes?}`.
pub async fn refund(
    State(state): State<SandboxState>,
    WireJson(body): WireJson<AmountAdjustmentRequest>,
) -> Result<Response, SandboxError> {
    let (id, amount) = check_amount_request(&body)?;
    let record = state
        .ledger
        .refund(&id, &body.merchant_id, amount, state.clock.now())?;
    Ok(created(&state, &record))
}

/// `POST /void` `{transactionId, merchant_id}`.
pub async fn void(
    State(state): State<SandboxState>,
    WireJson(body): WireJson<VoidRequest>,
) -> Result<Response, SandboxError> {
    body.validate().map_err(validate::from_wire)?;
    let id = validate::transaction_id("transactionId", &body.transaction_id)?;
    let record = state
        .ledger
        .void(&id, &body.merchant_id, state.clock.now())?;
    Ok(created(&state, &record))
}

fn check_amount_request(body: &AmountAdjustmentRequest) -> Result<(uuid::Uuid, u64), SandboxError> {
    body.validate().map_err(validate::from_wire)?;
    let amount = validate::amount(body.amount.minor_units())?;
    let id = validate::transaction_id("transactionId", &body.transaction_id)?;
    Ok((id, amount))
}

fn created(state: &SandboxState, record: &TransactionRecord) -> Response {
    (
        StatusCode::CREATED,
        Json(payment_response(&state.config, record, false)),
    )
        .into_response()
}
