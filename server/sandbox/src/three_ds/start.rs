//! Starting a 3DS payment (`/paymentv2`, `/authorizationv2`): the transaction is recorded as
//! pending and an ACS session is opened; the answer carries the page's address.

use std::sync::Arc;

use crate::acs_sessions::AcsSession;
use crate::charge::{ChargeRequest, new_record, record_kind};
use crate::charge_card::ChargeCard;
use crate::error::SandboxError;
use crate::faults::Fault;
use crate::ledger::Outcome;
use crate::state::SandboxState;
use crate::test_cards::CardBehaviour;
use checkout::wire::{ReturnUrl, StatusCodeField, ThreeDsInitiationResponse};

/// Path of the ACS page, relative to the emulator's base URL.
pub const ACS_PATH: &str = "/sandbox/acs";

/// A started 3DS payment. The answer also carries `is_live: false`, like every emulator answer.
#[derive(Debug, Clone)]
pub struct Started {
    /// `{url, redirect_url, statusCode: 200, success: true}`.
    pub response: ThreeDsInitiationResponse,
    /// The card's test behaviour (the handler delays its answer for the hanging card).
    pub behaviour: CardBehaviour,
}

/// Records `request` as pending and opens its ACS session. Challenge cards get the
/// Approve/Reject page; every other card passes straight through on the first visit.
pub fn start(
    state: &SandboxState,
    request: &ChargeRequest,
    return_url: ReturnUrl,
    webhook_faults: Vec<Fault>,
) -> Result<Started, SandboxError> {
    let card = ChargeCard::resolve(state, &request.source)?;
    let now = state.clock.now();
    let kind = record_kind(&request.transaction_type);
    let record = new_record(
        state,
        request,
        kind,
        Arc::clone(&card.snapshot),
        Outcome::Pending,
        None,
        now,
    );
    let transaction_id = record.id;
    state.ledger.insert(record);
    let behaviour = card.behaviour;
    let token = state.acs.open(AcsSession {
        transaction_id,
        challenge: behaviour == CardBehaviour::Challenge,
        card,
        purpose: request.purpose,
        return_url,
        store_payment_method: request.store_payment_method,
        webhook_faults,
        decided: false,
    });
    let url = state.config.public_url(ACS_PATH);
    let redirect_url = format!("{url}?_token={token}");
    Ok(Started {
        response: ThreeDsInitiationResponse {
            url,
            redirect_url,
            status_code: StatusCodeField::camel(200),
            success: true,
            is_live: Some(false),
            gateway_response: None,
        },
        behaviour,
    })
}
