//! `GET /audit` (admins): the audit log, newest first, 50 lines a page (`?before=<id>`), each
//! line's object (payment, subscription, webhook endpoint, event) linked to its page.

use axum::extract::{Query, State};
use axum::response::Html;
use maud::{Markup, html};
use serde::Deserialize;

use super::format;
use super::layout::page;
use crate::dashboard::auth::Staff;
use crate::dashboard::error::DashboardError;
use crate::dashboard::money;
use crate::dashboard::state::DashboardState;
use crate::store::prelude::*;

/// Lines per page.
const PAGE: u32 = 50;

/// `?before=`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Before {
    before: String,
}

/// `GET /audit`.
pub async fn list(
    State(state): State<DashboardState>,
    staff: Staff,
    Query(before): Query<Before>,
) -> Result<Html<String>, DashboardError> {
    staff.require(StaffRole::Admin)?;
    let before = match before.before.trim() {
        "" => None,
        text => Some(
            text.parse::<i64>()
                .map_err(|_| DashboardError::bad("before", "must be a line number"))?,
        ),
    };
    let lines = state.app.store.list_audit(before, PAGE).await?;
    let next = (lines.len() == PAGE as usize)
        .then(|| lines.last().map(|line| line.id))
        .flatten();
    Ok(page(
        "Audit log",
        Some(&staff),
        html! {
            div class="table-wrap" {
                table {
                    thead {
                        tr {
                            th scope="col" { "When" }
                            th scope="col" { "Who" }
                            th scope="col" { "From" }
                            th scope="col" { "Action" }
                            th scope="col" { "Object" }
                            th scope="col" class="num" { "Amount" }
                            th scope="col" { "Outcome" }
                        }
                    }
                    tbody {
                        @for line in &lines {
                            @let e = &line.entry;
                            tr {
                                td { (format::when(line.at)) }
                                td { (e.staff_email) }
                                td { (e.address.as_deref().unwrap_or("—")) }
                                td { (e.action) }
                                td { (object(e)) }
                                td class="num" {
                                    @match (e.amount, &e.currency) {
                                        (Some(amount), Some(currency)) => (money::format(amount, currency)),
                                        _ => "—",
                                    }
                                }
                                td { (e.outcome) }
                            }
                        }
                    }
                }
            }
            @if let Some(id) = next {
                p { a href={ "/audit?before=" (id) } rel="next" { "Older lines →" } }
            }
        },
    ))
}

/// The object a line is about, linked to its page.
fn object(entry: &NewAuditEntry) -> Markup {
    let linked = |page: &str, id: &str| html! { a href={ (page) (id) } { (id) } };
    if entry.object_type.as_deref() == Some("risk_block") {
        return html! {
            a href="/risk/blocks" { "block list" } ": " (entry.detail.as_deref().unwrap_or("—"))
        };
    }
    if let Some(id) = &entry.payment_id {
        return html! { "payment " (linked("/payments/", id)) };
    }
    match (entry.object_type.as_deref(), entry.object_id.as_deref()) {
        (Some("subscription"), Some(id)) => {
            html! { "subscription " (linked("/subscriptions/", id)) }
        }
        (Some("webhook_endpoint"), Some(id)) => html! { "endpoint " (linked("/webhooks/", id)) },
        (Some("event"), Some(id)) => html! { "event " (linked("/webhooks/events/", id)) },
        (Some(kind), Some(id)) => html! { (kind) " " (id) },
        _ => html! { "—" },
    }
}
