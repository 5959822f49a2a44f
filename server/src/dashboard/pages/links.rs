//! `GET /links`: the payment links, newest first, 50 a page (`?after=<cursor>`). Every staff
//! member sees them; operators and admins also get the form that makes one
//! ([`crate::dashboard::links`]). Each links to its page ([`super::link`]).

use axum::extract::{Query, State};
use axum::response::Html;
use maud::{Markup, html};
use serde::Deserialize;

use super::format;
use super::layout::{csrf_field, page};
use crate::dashboard::auth::Staff;
use crate::dashboard::error::DashboardError;
use crate::dashboard::money;
use crate::dashboard::state::DashboardState;
use crate::store::model::link::{ALL_BILLING_FIELDS, billing_field_name};
use crate::store::model::{LinkAmount, PageCursor, PaymentLink};
use crate::store::prelude::StaffRole;

/// Links per page.
const PAGE: u32 = 50;

/// `?after=`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct LinksQuery {
    after: String,
}

/// `GET /links`.
pub async fn list(
    State(state): State<DashboardState>,
    staff: Staff,
    Query(query): Query<LinksQuery>,
) -> Result<Html<String>, DashboardError> {
    let after = match query.after.trim() {
        "" => None,
        text => Some(
            text.parse::<PageCursor>()
                .map_err(|_| DashboardError::bad("after", "not a cursor of this page"))?,
        ),
    };
    let links = state
        .app
        .links
        .list(PAGE, after)
        .await
        .map_err(crate::dashboard::links::refused)?;
    Ok(page(
        "Payment links",
        Some(&staff),
        html! {
            p {
                "A payment link is a page on this server where a payer pays without a website of "
                "yours: send its address (or its QR code) by e-mail, chat or on paper."
            }
            @if staff.can(StaffRole::Operator) { (create_form(&staff, &state)) }
            @if links.items.is_empty() {
                p { "No payment link yet." }
            } @else {
                div class="table-wrap" {
                    table {
                        caption class="skip" { "Payment links, newest first" }
                        thead {
                            tr {
                                th scope="col" { "Description" }
                                th scope="col" class="num" { "Amount" }
                                th scope="col" { "Kind" }
                                th scope="col" { "Status" }
                                th scope="col" { "Created" }
                            }
                        }
                        tbody {
                            @for link in &links.items {
                                tr {
                                    td { a href={ "/links/" (link.id) } { (link.terms.description) } }
                                    td class="num" { (amount(link)) }
                                    td { (if link.terms.reusable { "Reusable" } else { "One payment" }) }
                                    td { (status(link)) }
                                    td { (format::when(link.created_at)) }
                                }
                            }
                        }
                    }
                }
            }
            @if let Some(next) = &links.next {
                p { a href={ "/links?after=" (next) } rel="next" { "Older links →" } }
            }
        },
    ))
}

/// A link's amount for people: fixed, or the payer's range.
pub fn amount(link: &PaymentLink) -> String {
    let currency = &link.terms.currency;
    match link.terms.amount {
        LinkAmount::Fixed { amount } => money::format(amount, currency),
        LinkAmount::PayerChosen { min, max } => format!(
            "{} to {}",
            money::format(min, currency),
            money::format(max, currency)
        ),
    }
}

/// Active, expired or deactivated.
pub fn status(link: &PaymentLink) -> &'static str {
    if !link.active {
        "Deactivated"
    } else if link.is_expired_at(time::OffsetDateTime::now_utc()) {
        "Expired"
    } else {
        "Active"
    }
}

/// The form that makes a link (the field names are the merchant API's).
fn create_form(staff: &Staff, state: &DashboardState) -> Markup {
    let plans = &state.app.config.plans;
    html! {
        h2 { "Make a payment link" }
        form method="post" action="/links" class="stacked" {
            (csrf_field(staff))
            label for="link-description" { "Description (the item or the invoice)" }
            input id="link-description" name="description" required maxlength="500";
            label for="link-currency" { "Currency (ISO 4217)" }
            input id="link-currency" name="currency" value="EUR" required
                pattern="[A-Za-z]{3}" maxlength="3" autocomplete="off";
            fieldset {
                legend { "Amount" }
                input type="radio" id="link-fixed" name="amount_kind" value="fixed" checked;
                label for="link-fixed" { "Fixed" }
                input type="radio" id="link-chosen" name="amount_kind" value="chosen";
                label for="link-chosen" { "The payer chooses" }
                label for="link-amount" { "Fixed amount (e.g. 12.50)" }
                input id="link-amount" name="amount" inputmode="decimal" autocomplete="off";
                label for="link-min" { "Least the payer may choose" }
                input id="link-min" name="min_amount" inputmode="decimal" autocomplete="off";
                label for="link-max" { "Most the payer may choose" }
                input id="link-max" name="max_amount" inputmode="decimal" autocomplete="off";
            }
            label for="link-quantity" { "Let the payer choose a quantity, up to (optional)" }
            input id="link-quantity" name="quantity_max" type="number" min="1" max="1000";
            input type="checkbox" id="link-reusable" name="reusable" value="on";
            label for="link-reusable" { "Reusable (a product): several payers may pay" }
            label for="link-limit" { "At most this many payments (reusable links, optional)" }
            input id="link-limit" name="payment_limit" type="number" min="1";
            label for="link-expires" { "Expires (UTC, optional)" }
            input id="link-expires" name="expires_at" type="datetime-local";
            (ask_select("link-email", "ask_email", "Ask for the payer's e-mail"))
            (ask_select("link-reference", "ask_payer_reference", "Ask for the payer's reference (an order or invoice number)"))
            fieldset {
                legend { "Billing address fields to ask for" }
                @for field in ALL_BILLING_FIELDS {
                    @let name = billing_field_name(field);
                    input type="checkbox" id={ "link-billing-" (name) } name="billing_field" value=(name);
                    label for={ "link-billing-" (name) } { (name.replace('_', " ")) }
                }
            }
            label for="link-redirect" { "After paying, send the payer to (optional; else the receipt)" }
            input id="link-redirect" name="redirect_url" type="url" maxlength="2000";
            @if !plans.is_empty() {
                label for="link-plan" { "Subscription plan (optional)" }
                select id="link-plan" name="plan_id" {
                    option value="" { "None: a one-off payment" }
                    @for plan in plans.iter() {
                        option value=(plan.id) { (plan.name) }
                    }
                }
            }
            button type="submit" { "Make the link" }
        }
    }
}

/// A select of off / optional / required.
fn ask_select(id: &str, name: &str, label: &str) -> Markup {
    html! {
        label for=(id) { (label) }
        select id=(id) name=(name) {
            option value="off" { "No" }
            option value="optional" { "Yes, optional" }
            option value="required" { "Yes, required" }
        }
    }
}
