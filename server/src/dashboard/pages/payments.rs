//! `GET /payments`: every payment, newest first, with the filter form (state, date range,
//! currency and amount range, reference, card last four, card brand, customer) and keyset
//! pagination (the store's cursor, as the merchant API pages), and a link to the CSV export
//! of the same filters.

use axum::extract::{Query, RawQuery, State};
use axum::response::Html;
use maud::{Markup, html};

use super::filters::Filters;
use super::format;
use super::layout::page;
use crate::dashboard::auth::Staff;
use crate::dashboard::error::DashboardError;
use crate::dashboard::money;
use crate::dashboard::state::DashboardState;
use crate::store::model::Payment;
use crate::store::transitions::{ALL_STATES, state_name};
use checkout::card::Brand;

/// `GET /payments`.
pub async fn list(
    State(state): State<DashboardState>,
    staff: Staff,
    Query(filters): Query<Filters>,
    RawQuery(raw): RawQuery,
) -> Result<Html<String>, DashboardError> {
    let query = filters.query()?;
    let found = state.app.store.list_payments(query).await?;
    Ok(page(
        "Payments",
        Some(&staff),
        html! {
            (filter_form(&filters))
            p { a href={ "/payments/export.csv?" (raw.unwrap_or_default()) } download { "Export these payments as CSV" } }
            @if found.items.is_empty() {
                p { "No payment matches these filters." }
            } @else {
                (table(&found.items))
            }
            @if let Some(cursor) = &found.next {
                p { a href={ "/payments?" (filters.next_page(cursor)) } rel="next" { "Older payments →" } }
            }
        },
    ))
}

fn filter_form(filters: &Filters) -> Markup {
    let text = |id: &str, label: &str, value: &str, kind: &str, hint: &str| {
        html! {
            div {
                label for=(id) { (label) }
                input id=(id) name=(id) type=(kind) value=(value) placeholder=(hint);
            }
        }
    };
    html! {
        form method="get" action="/payments" {
            fieldset {
                legend { "Filters" }
                div class="filters" {
                    div {
                        label for="state" { "State" }
                        select id="state" name="state" {
                            option value="" { "Any" }
                            @for s in ALL_STATES {
                                option value=(state_name(s)) selected[filters.state == state_name(s)] { (format::state(s)) }
                            }
                        }
                    }
                    (text("from", "From (UTC day)", &filters.from, "date", "YYYY-MM-DD"))
                    (text("to", "To (UTC day)", &filters.to, "date", "YYYY-MM-DD"))
                    (text("currency", "Currency", &filters.currency, "text", "EUR"))
                    (text("min", "Amount at least", &filters.min, "text", "10.00"))
                    (text("max", "Amount at most", &filters.max, "text", "99.99"))
                    (text("reference", "Reference", &filters.reference, "text", "order-1042"))
                    (text("last4", "Card last four", &filters.last4, "text", "4242"))
                    div {
                        label for="brand" { "Card brand" }
                        select id="brand" name="brand" {
                            option value="" { "Any" }
                            @for b in Brand::ALL {
                                option value=(b.id()) selected[filters.brand.eq_ignore_ascii_case(b.id())] { (b.display_name()) }
                            }
                        }
                    }
                    (text("customer", "Customer id", &filters.customer, "text", "cust-1042"))
                }
                p { button type="submit" { "Apply filters" } " " a href="/payments" { "Clear" } }
            }
        }
    }
}

/// Payments as a table, newest first (also a payment link's, on its page).
pub(crate) fn table(payments: &[Payment]) -> Markup {
    html! {
        div class="table-wrap" {
            table {
                caption class="skip" { "Payments, newest first" }
                thead {
                    tr {
                        th scope="col" { "Created" }
                        th scope="col" { "Reference" }
                        th scope="col" class="num" { "Amount" }
                        th scope="col" { "State" }
                        th scope="col" { "Card" }
                        th scope="col" { "Customer" }
                    }
                }
                tbody {
                    @for p in payments {
                        tr {
                            td { a href={ "/payments/" (p.id) } { (format::when(p.created_at)) } }
                            td { (p.merchant_txn_ref) }
                            td class="num" { (money::format(p.amount, &p.currency)) }
                            td { (format::state(p.state)) }
                            td { (format::card(p.card.as_ref())) }
                            td { (p.customer_id.as_deref().unwrap_or("—")) }
                        }
                    }
                }
            }
        }
    }
}
