//! The block lists' actions (admins), each through the same service as the merchant API
//! (`risk::block_list`) and written to the audit log with the entry as its object (and the
//! payment, for an entry made from one):
//! - `POST /risk/blocks` `kind, value, note`: adds an entry (not a card: cards are blocked
//!   from a payment), the confirmation of the form's preview ([`super::block_preview`]);
//! - `POST /risk/blocks/{id}/remove`: removes one;
//! - `POST /payments/{id}/block_card`, `/block_address`: "Block this card" (its fingerprint)
//!   and "Block this address" (its client's IPv4 address, or IPv6 /64) on a payment's page.
//!
//! An entry already listed is no error: the page says so (a double submit changes nothing).

use axum::Form;
use axum::extract::{Path, State};
use axum::response::Response;
use serde::Deserialize;

use super::audit::{Actor, Object, record_about};
use super::auth::Staff;
use super::client::Client;
use super::error::DashboardError;
use super::redirect::see_other;
use super::state::DashboardState;
use crate::risk::block_list::{BlockError, BlockTarget};
use crate::store::model::{BlockEntry, BlockKind, plausible_id};
use crate::store::prelude::StaffRole;
use crate::views::blocks::describe;

/// The add form's fields (all strings: an empty one is unset), for its preview
/// ([`super::block_preview`]) and its confirmation alike.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct BlockForm {
    /// The CSRF token.
    pub csrf: String,
    /// The kind's stored name.
    pub kind: String,
    /// The value as typed.
    pub value: String,
    /// The note.
    pub note: String,
}

impl BlockForm {
    /// The kind chosen: any but a card (blocked from a payment).
    pub fn kind(&self) -> Result<BlockKind, DashboardError> {
        BlockKind::from_name(self.kind.trim())
            .filter(|kind| *kind != BlockKind::Card)
            .ok_or_else(|| {
                DashboardError::bad(
                    "kind",
                    "choose BIN, address, e-mail, e-mail domain or customer",
                )
            })
    }
}

/// A form carrying only its CSRF token.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct CsrfForm {
    csrf: String,
}

impl CsrfForm {
    /// The CSRF token the form carried.
    pub fn token(&self) -> &str {
        &self.csrf
    }
}

/// `POST /risk/blocks`.
pub async fn add(
    State(state): State<DashboardState>,
    staff: Staff,
    Client(address): Client,
    Form(form): Form<BlockForm>,
) -> Result<Response, DashboardError> {
    staff.check_csrf(&form.csrf)?;
    staff.require(StaffRole::Admin)?;
    let kind = form.kind()?;
    let target = BlockTarget::Value(kind, form.value);
    let actor = Actor::staff(&staff, address);
    add_entry(&state, &actor, target, &form.note, "/risk/blocks?done=").await
}

/// `POST /payments/{id}/block_card`.
pub async fn block_card(
    state: State<DashboardState>,
    staff: Staff,
    client: Client,
    id: Path<String>,
    form: Form<CsrfForm>,
) -> Result<Response, DashboardError> {
    from_payment(state, staff, client, id, form, BlockTarget::CardOf).await
}

/// `POST /payments/{id}/block_address`.
pub async fn block_address(
    state: State<DashboardState>,
    staff: Staff,
    client: Client,
    id: Path<String>,
    form: Form<CsrfForm>,
) -> Result<Response, DashboardError> {
    from_payment(state, staff, client, id, form, BlockTarget::AddressOf).await
}

async fn from_payment(
    State(state): State<DashboardState>,
    staff: Staff,
    Client(address): Client,
    Path(id): Path<String>,
    Form(form): Form<CsrfForm>,
    target: fn(String) -> BlockTarget,
) -> Result<Response, DashboardError> {
    staff.check_csrf(&form.csrf)?;
    staff.require(StaffRole::Admin)?;
    let payment = super::payment_lookup::load(&state, &id).await?;
    let actor = Actor::staff(&staff, address);
    let back = format!("/payments/{}?done=", payment.id);
    add_entry(&state, &actor, target(payment.id.clone()), "", &back).await
}

/// Adds `target`, audits it, and answers with a redirect to `back` + what happened.
async fn add_entry(
    state: &DashboardState,
    actor: &Actor,
    target: BlockTarget,
    note: &str,
    back: &str,
) -> Result<Response, DashboardError> {
    let added = state
        .app
        .payments
        .risk()
        .add_block(target, Some(note), &actor.email)
        .await;
    match added {
        Ok(entry) => {
            audit(state, actor, "block_added", &entry).await;
            Ok(see_other(&format!("{back}added")))
        }
        Err(BlockError::Duplicate) => Ok(see_other(&format!("{back}duplicate"))),
        Err(BlockError::Invalid { field, reason }) => Err(DashboardError::bad(field, reason)),
        Err(BlockError::NoPayment) => Err(DashboardError::NotFound("payment")),
        Err(BlockError::Store(error)) => Err(error.into()),
    }
}

/// `POST /risk/blocks/{id}/remove`.
pub async fn remove(
    State(state): State<DashboardState>,
    staff: Staff,
    Client(address): Client,
    Path(id): Path<String>,
    Form(form): Form<CsrfForm>,
) -> Result<Response, DashboardError> {
    staff.check_csrf(&form.csrf)?;
    staff.require(StaffRole::Admin)?;
    if !plausible_id(&id) {
        return Err(DashboardError::NotFound("block-list entry"));
    }
    let entry = state
        .app
        .payments
        .risk()
        .remove_block(&id)
        .await?
        .ok_or(DashboardError::NotFound("block-list entry"))?;
    audit(
        &state,
        &Actor::staff(&staff, address),
        "block_removed",
        &entry,
    )
    .await;
    Ok(see_other("/risk/blocks?done=removed"))
}

async fn audit(state: &DashboardState, actor: &Actor, action: &str, entry: &BlockEntry) {
    let object = Object {
        kind: "risk_block",
        id: &entry.id,
        money: None,
    };
    record_about(
        state,
        actor,
        action,
        entry.payment_id.as_deref(),
        object,
        Some(describe(entry)),
    )
    .await;
}
