//! `POST /payment` (purchase) and `POST /authorization` (authorization only), card and token
//! forms. Approvals answer 201, declines 412 with the full transaction body.

use axum::Json;
use axum::extract::State;
use axum::response::{IntoResponse, Response};

use super::extract::PeerIp;
use super::request::check_payment;
use crate::charge::charge;
use crate::error::SandboxError;
use crate::state::SandboxState;
use crate::test_cards::CardBehaviour;
use crate::web::WireJson;
use checkout::wire::{PaymentRequest, TransactionType};

/// `POST /payment`: authorize and capture (`transaction_type` `CAPTURE`).
pub async fn payment(
    State(state): State<SandboxState>,
    PeerIp(peer): PeerIp,
    WireJson(body): WireJson<PaymentRequest>,
) -> Result<Response, SandboxError> {
    pay(state, peer, body, TransactionType::Capture).await
}

/// `POST /authorization`: authorize only (`transaction_type` `PRE_AUTH`).
pub async fn authorization(
    State(state): State<SandboxState>,
    PeerIp(peer): PeerIp,
    WireJson(body): WireJson<PaymentRequest>,
) -> Result<Response, SandboxError> {
    pay(state, peer, body, TransactionType::PreAuth).await
}

async fn pay(
    state: SandboxState,
    peer: Option<String>,
    body: PaymentRequest,
    transaction_type: TransactionType,
) -> Result<Response, SandboxError> {
    let checked = check_payment(&state, body, false, transaction_type, peer)?;
    let outcome = charge(&state, checked.charge)?;
    if outcome.behaviour == CardBehaviour::Hang {
        // The charge is recorded; only the answer is late, as with a slow acquirer.
        tokio::time::sleep(state.config.hang).await;
    }
    Ok((
        outcome.http_status(),
        Json(outcome.to_response(&state, false)),
    )
        .into_response())
}
