//! Merchant API, the card-testing block lists (`Authorization: Bearer <MERCHANT_SECRET_KEY>`):
//! - `GET /v1/risk/blocks?limit=&after=` → [`BlockList`] (newest first);
//! - `POST /v1/risk/blocks` `{kind, value?, payment_id?, note?}` → 201 [`BlockView`]; `kind` is
//!   `card`, `bin`, `address`, `email`, `email_domain` or `customer`. A card is blocked by one
//!   of its payments (`payment_id`), never by its number; an address by `value` (an address or
//!   CIDR range) or by a payment's client (`payment_id`). An entry already there is a 409
//!   `already_blocked` naming `value` (or `payment_id`); `Idempotency-Key` honoured;
//! - `DELETE /v1/risk/blocks/{id}` → 204; an unknown id 404.
//!
//! Bad input is a 400 naming the field. Every change is written to the audit log with the
//! actor `api`. The rules live in [`crate::risk::block_list`].

use axum::Router;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{delete, get};
use serde::Deserialize;
use time::OffsetDateTime;

use super::auth::MerchantAuth;
use super::ids::known;
use super::json::{Json, JsonWithDigest};
use super::query;
use crate::risk::block_list::{BlockError, BlockTarget};
use crate::store::model::{BlockEntry, BlockKind};
use crate::store::staff::NewAuditEntry;
use crate::views::blocks::describe;
use crate::views::{BlockList, BlockView};
use crate::web::ApiFailure;
use crate::web::AppState;
use crate::web::idempotency::{Reply, run_idempotent};

/// Who the audit log names for a change made through this API.
pub const API_ACTOR: &str = "api";

/// The block-list routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/v1/risk/blocks", get(list).post(create))
        .route("/v1/risk/blocks/{id}", delete(remove))
}

/// Body of `POST /v1/risk/blocks`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateBlock {
    /// The list.
    pub kind: String,
    /// The value (not for `card`).
    #[serde(default)]
    pub value: Option<String>,
    /// The payment whose card (`card`) or client (`address`) to block.
    #[serde(default)]
    pub payment_id: Option<String>,
    /// Why.
    #[serde(default)]
    pub note: Option<String>,
}

/// What `body` asks to block, or a 400 naming the field.
fn target(body: &CreateBlock) -> Result<BlockTarget, ApiFailure> {
    let kind = BlockKind::from_name(&body.kind).ok_or_else(|| {
        ApiFailure::invalid(
            "invalid_field",
            "kind",
            "kind: one of card, bin, address, email, email_domain, customer",
        )
    })?;
    match (kind, &body.value, &body.payment_id) {
        (BlockKind::Card, Some(_), _) => Err(ApiFailure::invalid(
            "invalid_field",
            "value",
            "value: a card is blocked by one of its payments (payment_id), never by its number",
        )),
        (BlockKind::Card, None, Some(id)) => Ok(BlockTarget::CardOf(id.clone())),
        (BlockKind::Address, None, Some(id)) => Ok(BlockTarget::AddressOf(id.clone())),
        (BlockKind::Card, None, None) => Err(ApiFailure::invalid(
            "missing_field",
            "payment_id",
            "payment_id: required to block a card",
        )),
        (_, Some(_), Some(_)) => Err(ApiFailure::invalid(
            "invalid_field",
            "payment_id",
            "payment_id: give either value or payment_id",
        )),
        (_, None, Some(_)) => Err(ApiFailure::invalid(
            "invalid_field",
            "payment_id",
            "payment_id: only for card and address",
        )),
        (_, Some(value), None) => Ok(BlockTarget::Value(kind, value.clone())),
        (_, None, None) => Err(ApiFailure::invalid(
            "missing_field",
            "value",
            "value: required",
        )),
    }
}

/// The API's answer for a refused entry.
fn refused(error: BlockError, from_payment: bool) -> ApiFailure {
    match error {
        BlockError::Invalid { field, reason } => {
            ApiFailure::invalid("invalid_field", field, format!("{field}: {reason}"))
        }
        BlockError::NoPayment => ApiFailure::NotFound("payment"),
        BlockError::Duplicate => ApiFailure::Conflict {
            code: "already_blocked",
            message: "already on the block list".into(),
            field: Some(if from_payment { "payment_id" } else { "value" }.into()),
        },
        BlockError::Store(error) => error.into(),
    }
}

/// The audit line of a change through the API.
pub fn audit_line(action: &str, entry: &BlockEntry) -> NewAuditEntry {
    NewAuditEntry {
        staff_id: None,
        staff_email: API_ACTOR.into(),
        action: action.into(),
        payment_id: entry.payment_id.clone(),
        object_type: Some("risk_block".into()),
        object_id: Some(entry.id.clone()),
        amount: None,
        currency: None,
        address: None,
        outcome: "ok".into(),
        detail: Some(describe(entry)),
    }
}

async fn audit(state: &AppState, line: NewAuditEntry) {
    if let Err(error) = state
        .store
        .append_audit(line, OffsetDateTime::now_utc())
        .await
    {
        tracing::error!(%error, "block-list change not written to the audit log");
    }
}

async fn create(
    State(state): State<AppState>,
    _auth: MerchantAuth,
    headers: HeaderMap,
    body: JsonWithDigest<CreateBlock>,
) -> axum::response::Response {
    let task_state = state.clone();
    run_idempotent(
        &state,
        &headers,
        "merchant:/v1/risk/blocks".into(),
        body.digest,
        move || async move {
            let request = body.value;
            let target = target(&request)?;
            let from_payment = request.payment_id.is_some();
            let entry = task_state
                .payments
                .risk()
                .add_block(target, request.note.as_deref(), API_ACTOR)
                .await
                .map_err(|error| refused(error, from_payment))?;
            tracing::info!(block_id = %entry.id, kind = entry.kind.name(), "block-list entry added");
            audit(&task_state, audit_line("block_added", &entry)).await;
            Reply::json(StatusCode::CREATED, &BlockView::new(&entry))
        },
    )
    .await
}

async fn list(
    State(state): State<AppState>,
    _auth: MerchantAuth,
    RawQuery(raw): RawQuery,
) -> Result<Json<BlockList>, ApiFailure> {
    let (limit, after) = query::page_only(raw.as_deref())?;
    let page = state.payments.risk().list_blocks(limit, after).await?;
    Ok(Json(BlockList {
        data: page.items.iter().map(BlockView::new).collect(),
        has_more: page.next.is_some(),
        next_cursor: page.next.map(|cursor| cursor.to_string()),
    }))
}

/// Removing is naturally idempotent (a second call is a 404 and changes nothing), so it takes
/// no `Idempotency-Key`.
async fn remove(
    State(state): State<AppState>,
    _auth: MerchantAuth,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiFailure> {
    known(&id, "block-list entry")?;
    let entry = state
        .payments
        .risk()
        .remove_block(&id)
        .await?
        .ok_or(ApiFailure::NotFound("block-list entry"))?;
    tracing::info!(block_id = %entry.id, "block-list entry removed");
    audit(&state, audit_line("block_removed", &entry)).await;
    Ok(StatusCode::NO_CONTENT)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(json: &str) -> CreateBlock {
        serde_json::from_str(json).expect("valid")
    }

    fn field_of(json: &str) -> String {
        match target(&body(json)) {
            Err(ApiFailure::BadRequest { field, .. }) => field.unwrap_or_default(),
            other => panic!("{json}: {other:?}"),
        }
    }

    #[test]
    fn a_bad_body_names_its_field() {
        assert_eq!(field_of(r#"{"kind": "ip"}"#), "kind");
        assert_eq!(
            field_of(r#"{"kind": "card", "value": "4242424242424242"}"#),
            "value"
        );
        assert_eq!(field_of(r#"{"kind": "card"}"#), "payment_id");
        assert_eq!(field_of(r#"{"kind": "bin"}"#), "value");
        assert_eq!(
            field_of(r#"{"kind": "email", "payment_id": "p"}"#),
            "payment_id"
        );
    }
}
