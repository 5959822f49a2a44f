//! `GET /links/{id}`: one payment link: its address to send (a read-only field to select and
//! copy: the dashboard runs no script) and its QR code (SVG drawn here, [`super::qr`]), its
//! terms, its figures (views, paid payments, amount, the share of visits that paid) and the
//! payments made through it. Operators and admins can deactivate it.

use axum::extract::{Path, Query, State};
use axum::response::Html;
use maud::{Markup, html};
use serde::Deserialize;

use super::layout::{csrf_field, page};
use super::links::{amount, status};
use super::{format, payments, qr};
use crate::dashboard::auth::Staff;
use crate::dashboard::error::DashboardError;
use crate::dashboard::links::refused;
use crate::dashboard::money;
use crate::dashboard::state::DashboardState;
use crate::store::model::link::billing_field_name;
use crate::store::model::{AfterPayment, LinkFigures, PaymentLink};
use crate::store::prelude::StaffRole;

/// Payments shown on the page.
const PAYMENTS: u32 = 50;

/// `?done=`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct LinkQuery {
    done: String,
}

/// `GET /links/{id}`.
pub async fn show(
    State(state): State<DashboardState>,
    staff: Staff,
    Path(id): Path<String>,
    Query(query): Query<LinkQuery>,
) -> Result<Html<String>, DashboardError> {
    let links = &state.app.links;
    let link = links.get(&id).await.map_err(refused)?;
    let figures = links.figures(&id).await.map_err(refused)?;
    let paid = links.payments_of(&id, PAYMENTS).await.map_err(refused)?;
    let url = state.app.urls.link_page(&link.public_id);
    let done = match query.done.as_str() {
        "created" => Some("The link is ready: send its address or its QR code."),
        "deactivated" => Some("The link is deactivated: its page takes no payment."),
        _ => None,
    };
    Ok(page(
        &link.terms.description,
        Some(&staff),
        html! {
            @if let Some(done) = done { p role="status" class="notice" { (done) } }
            h2 { "Its address" }
            label for="link-url" { "Send payers this address" }
            input id="link-url" type="url" readonly value=(url) size="60";
            (qr::svg(&url, "QR code of the link's address")?)
            h2 { "Terms" }
            (terms(&link))
            h2 { "Figures" }
            (figures_list(&link, &figures))
            @if link.active && staff.can(StaffRole::Operator) {
                form method="post" action={ "/links/" (link.id) "/deactivate" } {
                    (csrf_field(&staff))
                    button type="submit" class="danger" { "Deactivate this link" }
                }
            }
            h2 { "Payments through this link" }
            @if paid.items.is_empty() {
                p { "No payment yet." }
            } @else {
                (payments::table(&paid.items))
            }
        },
    ))
}

fn terms(link: &PaymentLink) -> Markup {
    let terms = &link.terms;
    let billing: Vec<_> = terms
        .billing_fields
        .iter()
        .map(|f| billing_field_name(*f).replace('_', " "))
        .collect();
    html! {
        dl {
            dt { "Id" } dd { code { (link.id) } }
            dt { "Status" } dd { (status(link)) }
            dt { "Amount" } dd { (amount(link)) }
            dt { "Quantity" } dd {
                @match terms.quantity_max {
                    Some(max) => { "up to " (max) }
                    None => { "one" }
                }
            }
            dt { "Payments" } dd {
                @match (terms.reusable, terms.payment_limit) {
                    (false, _) => { "one only" }
                    (true, Some(limit)) => { "up to " (limit) }
                    (true, None) => { "no limit" }
                }
            }
            dt { "Expires" } dd { (terms.expires_at.map_or("never".to_owned(), format::when)) }
            dt { "Asks for e-mail" } dd { (terms.ask_email.as_str()) }
            dt { "Asks for the payer's reference" } dd { (terms.ask_payer_reference.as_str()) }
            dt { "Billing fields" } dd {
                @if billing.is_empty() { "country and postal code (as every payment)" }
                @else { (billing.join(", ")) }
            }
            dt { "After paying" } dd {
                @match &terms.after_payment {
                    AfterPayment::Receipt => { "the receipt page" }
                    AfterPayment::Redirect(url) => { "your page " code { (url) } }
                }
            }
            @if let Some(plan) = &terms.plan_id { dt { "Subscription plan" } dd { (plan) } }
            dt { "Created" } dd { (format::when(link.created_at)) }
        }
    }
}

fn figures_list(link: &PaymentLink, figures: &LinkFigures) -> Markup {
    html! {
        dl class="figures" {
            dt { "Views" } dd { (figures.views) }
            dt { "Paid" } dd { (figures.payments) }
            dt { "Amount paid" } dd { (money::format(figures.amount, &link.terms.currency)) }
            dt { "Visits that paid" } dd {
                @match figures.paid_per_hundred_views() {
                    Some(share) => { (share) " %" }
                    None => { "—" }
                }
            }
        }
    }
}
