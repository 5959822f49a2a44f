//! `POST /paymentv2` and `POST /authorizationv2`: 3-D Secure variants. The transaction is
//! recorded as pending and the answer is `{url, redirect_url, statusCode: 200, success: true}`;
//! the ACS page settles it.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};

use super::extract::PeerIp;
use super::request::check_payment;
use crate::error::SandboxError;
use crate::state::SandboxState;
use crate::test_cards::CardBehaviour;
use crate::three_ds;
use crate::web::RequestedWebhookFaults;
use crate::web::WireJson;
use checkout::wire::{PaymentRequest, TransactionType};

/// `POST /paymentv2`: 3DS purchase.
pub async fn payment_v2(
    State(state): State<SandboxState>,
    PeerIp(peer): PeerIp,
    faults: Option<Extension<RequestedWebhookFaults>>,
    WireJson(body): WireJson<PaymentRequest>,
) -> Result<Response, SandboxError> {
    start(state, peer, faults, body, TransactionType::Capture).await
}

/// `POST /authorizationv2`: 3DS authorization only.
pub async fn authorization_v2(
    State(state): State<SandboxState>,
    PeerIp(peer): PeerIp,
    faults: Option<Extension<RequestedWebhookFaults>>,
    WireJson(body): WireJson<PaymentRequest>,
) -> Result<Response, SandboxError> {
    start(state, peer, faults, body, TransactionType::PreAuth).await
}

async fn start(
    state: SandboxState,
    peer: Option<String>,
    faults: Option<Extension<RequestedWebhookFaults>>,
    body: PaymentRequest,
    transaction_type: TransactionType,
) -> Result<Response, SandboxError> {
    let checked = check_payment(&state, body, true, transaction_type, peer)?;
    let return_url = checked.return_url.ok_or_else(|| {
        SandboxError::invalid("return_url", "is mandatory for 3D Secure payments")
    })?;
    let webhook_faults = faults
        .map(|Extension(RequestedWebhookFaults(faults))| faults)
        .unwrap_or_default();
    let started = three_ds::start(&state, &checked.charge, return_url, webhook_faults)?;
    if started.behaviour == CardBehaviour::Hang {
        tokio::time::sleep(state.config.hang).await;
    }
    Ok((StatusCode::OK, Json(started.response)).into_response())
}
