//! `GET /risk/blocks`: the card-testing block lists, newest first, 50 entries a page
//! (`?after=<cursor>`). Every staff member sees them; admins also get the form that adds an
//! entry (after a preview of what it would have caught) and a button removing each ([`crate::dashboard::blocks`]). A card entry is shown by
//! the payment it was blocked from, never by its fingerprint.

use axum::extract::{Query, State};
use axum::response::Html;
use maud::{Markup, html};
use serde::Deserialize;

use super::format;
use super::layout::{csrf_field, page};
use crate::dashboard::auth::Staff;
use crate::dashboard::error::DashboardError;
use crate::dashboard::state::DashboardState;
use crate::store::model::{BlockEntry, BlockKind};
use crate::store::prelude::StaffRole;

/// Entries per page.
const PAGE: u32 = 50;

/// `?after=` and `?done=`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct BlocksQuery {
    after: String,
    done: String,
}

/// What an admin can add from the form: every kind but a card (blocked from a payment).
const FORM_KINDS: [(BlockKind, &str); 5] = [
    (BlockKind::Bin, "First six digits (BIN)"),
    (BlockKind::Address, "Client address or range (CIDR)"),
    (BlockKind::Email, "E-mail"),
    (BlockKind::EmailDomain, "E-mail domain"),
    (BlockKind::Customer, "Customer id"),
];

/// `GET /risk/blocks`.
pub async fn list(
    State(state): State<DashboardState>,
    staff: Staff,
    Query(query): Query<BlocksQuery>,
) -> Result<Html<String>, DashboardError> {
    let after = format::after(&query.after)?;
    let entries = state.app.payments.risk().list_blocks(PAGE, after).await?;
    let done = match query.done.as_str() {
        "added" => Some("Added to the block list."),
        "removed" => Some("Removed from the block list."),
        "duplicate" => Some("That is already on the block list."),
        _ => None,
    };
    let admin = staff.can(StaffRole::Admin);
    Ok(page(
        "Block lists",
        Some(&staff),
        html! {
            @if let Some(done) = done { p role="status" class="notice" { (done) } }
            p {
                "A payment try matching an entry is refused before the gateway and recorded as "
                "blocked; the shopper sees one neutral refusal, never the rule. Cards are blocked from a "
                "payment's page."
            }
            @if admin { (add_form(&staff)) }
            @if entries.items.is_empty() {
                p { "The block lists are empty." }
            } @else {
                div class="table-wrap" {
                    table {
                        caption class="skip" { "Block-list entries, newest first" }
                        thead {
                            tr {
                                th scope="col" { "Kind" }
                                th scope="col" { "Value" }
                                th scope="col" { "Note" }
                                th scope="col" { "Added by" }
                                th scope="col" { "Added" }
                                @if admin { th scope="col" { "Remove" } }
                            }
                        }
                        tbody {
                            @for entry in &entries.items {
                                tr {
                                    td { (kind_label(entry.kind)) }
                                    td { (value(entry)) }
                                    td { (entry.note.as_deref().unwrap_or("—")) }
                                    td { (entry.added_by) }
                                    td { (format::when(entry.created_at)) }
                                    @if admin { td { (remove_form(&staff, entry)) } }
                                }
                            }
                        }
                    }
                }
            }
            @if let Some(next) = &entries.next {
                p { a href={ "/risk/blocks?after=" (next) } rel="next" { "Older entries →" } }
            }
        },
    ))
}

/// How a kind is named on the page.
pub fn kind_label(kind: BlockKind) -> &'static str {
    match kind {
        BlockKind::Card => "Card",
        BlockKind::Bin => "BIN",
        BlockKind::Address => "Address",
        BlockKind::Email => "E-mail",
        BlockKind::EmailDomain => "E-mail domain",
        BlockKind::Customer => "Customer",
    }
}

/// An entry's value: a card's by the payment it came from.
fn value(entry: &BlockEntry) -> Markup {
    match (entry.kind, &entry.payment_id) {
        (BlockKind::Card, Some(id)) => {
            html! { "card of payment " a href={ "/payments/" (id) } { (id) } }
        }
        (BlockKind::Card, None) => html! { "a card" },
        (_, Some(id)) => html! {
            (entry.value) " (from payment " a href={ "/payments/" (id) } { (id) } ")"
        },
        _ => html! { (entry.value) },
    }
}

fn add_form(staff: &Staff) -> Markup {
    html! {
        h2 { "Add an entry" }
        form method="post" action="/risk/blocks/preview" class="actions" {
            (csrf_field(staff))
            label for="block-kind" { "Kind" }
            select id="block-kind" name="kind" {
                @for (kind, label) in FORM_KINDS {
                    option value=(kind.name()) { (label) }
                }
            }
            label for="block-value" { "Value" }
            input id="block-value" name="value" required
                aria-describedby="block-value-help";
            p id="block-value-help" {
                small { "E.g. 424242, 192.0.2.0/24, 2001:db8::/64, bot@example.com, example.com." }
            }
            label for="block-note" { "Note (optional)" }
            input id="block-note" name="note" maxlength="500";
            p { small { "Next: how many payments of the last 24 hours it would have caught, before you confirm." } }
            button type="submit" { "Preview the block…" }
        }
    }
}

fn remove_form(staff: &Staff, entry: &BlockEntry) -> Markup {
    html! {
        form method="post" action={ "/risk/blocks/" (entry.id) "/remove" } class="inline" {
            (csrf_field(staff))
            button type="submit" aria-label={ "Remove " (kind_label(entry.kind)) " entry " (value_label(entry)) } {
                "Remove"
            }
        }
    }
}

/// The value as a screen reader hears it on a button (a card's by its payment).
fn value_label(entry: &BlockEntry) -> String {
    match (entry.kind, &entry.payment_id) {
        (BlockKind::Card, Some(id)) => format!("card of payment {id}"),
        (BlockKind::Card, None) => "card".into(),
        _ => entry.value.clone(),
    }
}
