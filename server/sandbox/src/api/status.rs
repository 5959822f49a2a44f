//! `GET /transaction/status/{id}`: any recorded transaction (payment, authorization, capture,
//! refund, void, subscription cycle) in the status form, 200. Pending 3DS payments show as
//! pending (docs/sandbox.md, "Pending").

use axum::Json;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};

use crate::error::SandboxError;
use crate::render::status_response;
use crate::state::SandboxState;
use crate::validate;
use checkout::wire::TransactionResponse;

/// The transaction's current state.
pub async fn status(
    State(state): State<SandboxState>,
    path: Result<Path<String>, PathRejection>,
) -> Result<Json<TransactionResponse>, SandboxError> {
    let Path(id) =
        path.map_err(|_| SandboxError::invalid("transactionId", "must be a path segment"))?;
    let id = validate::transaction_id("transactionId", &id)?;
    let record = state
        .ledger
        .get(&id)
        .ok_or_else(|| SandboxError::NotFound("transaction".to_owned()))?;
    Ok(Json(status_response(&state.config, &record)))
}
