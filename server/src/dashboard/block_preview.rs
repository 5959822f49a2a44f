//! `POST /risk/blocks/preview` (admins): the block form's first step. It reads the entry as
//! adding it would (a bad value is a 400 naming the field), counts the payments of the last 24
//! hours the entry would have caught, and shows that count with a button that confirms the
//! block: the confirmation posts the same fields to `POST /risk/blocks`
//! ([`super::blocks::add`]), which adds and audits it. Nothing is written here.

use axum::Form;
use axum::extract::State;
use axum::response::Html;
use maud::html;
use time::{Duration, OffsetDateTime};

use super::auth::Staff;
use super::blocks::BlockForm;
use super::error::DashboardError;
use super::pages::blocks::kind_label;
use super::pages::filters::encode;
use super::pages::layout::{csrf_field, page};
use super::state::DashboardState;
use crate::risk::blocks::{BadBlockValue, BlockValue};
use crate::store::model::client_key::{key_range, short_fingerprint};
use crate::store::model::{BlockKind, PaymentQuery};
use crate::store::prelude::StaffRole;

/// How far back the preview counts.
pub const WINDOW: Duration = Duration::DAY;

/// `POST /risk/blocks/preview`.
pub async fn preview(
    State(state): State<DashboardState>,
    staff: Staff,
    Form(form): Form<BlockForm>,
) -> Result<Html<String>, DashboardError> {
    staff.check_csrf(&form.csrf)?;
    staff.require(StaffRole::Admin)?;
    let kind = form.kind()?;
    let entry = BlockValue::parse(kind, &form.value)
        .map_err(|BadBlockValue(reason)| DashboardError::bad("value", reason))?;
    let caught = state
        .app
        .store
        .count_payments(caught_by(&entry, OffsetDateTime::now_utc() - WINDOW)?)
        .await?;
    let label = match kind {
        BlockKind::Bin => kind_label(kind).to_owned(),
        _ => kind_label(kind).to_lowercase(),
    };
    let list = list_link(&entry);
    Ok(page(
        "Confirm the block",
        Some(&staff),
        html! {
            p role="status" id="block-preview" {
                "Blocking " (label) " " strong { (entry.value) } " would have caught "
                strong { (caught) } " payment" @if caught != 1 { "s" } " of the last 24 hours."
            }
            @if let Some(list) = list {
                p { a href=(list) { "See these payments" } }
            }
            p { "Every later try matching it will be refused before the gateway." }
            form method="post" action="/risk/blocks" class="actions" {
                (csrf_field(&staff))
                input type="hidden" name="kind" value=(kind.name());
                input type="hidden" name="value" value=(form.value);
                input type="hidden" name="note" value=(form.note);
                button type="submit" class="danger" { "Confirm the block" }
            }
            p { a href="/risk/blocks" { "Cancel" } }
        },
    ))
}

/// The payments since `since` that an entry `entry` would have caught.
pub fn caught_by(
    entry: &BlockValue,
    since: OffsetDateTime,
) -> Result<PaymentQuery, DashboardError> {
    let mut query = PaymentQuery {
        created_from: Some(since),
        ..PaymentQuery::default()
    };
    let value = entry.value.clone();
    match entry.kind {
        // A card by its fingerprint's short form: 48 bits of the MAC, as the list filters.
        BlockKind::Card => query.card_short = Some(short_fingerprint(&value).to_owned()),
        BlockKind::Bin => query.card_bin = Some(value),
        BlockKind::Address => {
            query.client_keys =
                Some(key_range(&value).map_err(|reason| DashboardError::bad("value", reason))?);
        }
        BlockKind::Email => query.shopper_email = Some(value),
        BlockKind::EmailDomain => query.email_domain = Some(value),
        BlockKind::Customer => query.customer_id = Some(value),
    }
    Ok(query)
}

/// The payments list filtered as the entry would catch, where the list has that filter.
fn list_link(entry: &BlockValue) -> Option<String> {
    let filter = match entry.kind {
        BlockKind::Bin => "bin",
        BlockKind::Address => "address",
        BlockKind::Customer => "customer",
        _ => return None,
    };
    Some(format!("/payments?{filter}={}", encode(&entry.value)))
}
