//! `GET /payments/{id}`: one payment — amount in its currency's format, state, card (brand,
//! first six, last four, expiry), customer, session, reference — what the card-testing defence
//! recorded of it ([`super::payment_defence`]: the rule that refused it among them), its
//! timeline, and, for operators, the actions its state allows. A viewer sees no action at all.

use axum::extract::{Path, Query, State};
use axum::response::Html;
use checkout::contract::PaymentState;
use maud::{Markup, html};
use serde::Deserialize;

use super::format;
use super::layout::{csrf_field, page};
use super::payment_defence::{Catches, caught};
use super::timeline::timeline;
use crate::dashboard::auth::Staff;
use crate::dashboard::error::DashboardError;
use crate::dashboard::money;
use crate::dashboard::payment_lookup::load;
use crate::dashboard::state::DashboardState;
use crate::store::model::{Payment, SessionKeeper};
use crate::store::prelude::*;

/// `?done=`: the action that just succeeded, to say so.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Notice {
    done: String,
}

impl Notice {
    /// The action that just succeeded (empty when none).
    pub fn done(&self) -> &str {
        &self.done
    }
}

/// `GET /payments/{id}`.
pub async fn show(
    State(state): State<DashboardState>,
    staff: Staff,
    Path(id): Path<String>,
    Query(notice): Query<Notice>,
) -> Result<Html<String>, DashboardError> {
    let payment = load(&state, &id).await?;
    let timeline = timeline(&state, &payment).await?;
    let keeper = state
        .app
        .payments
        .keeper(&payment.session_id)
        .await
        .map_err(|e| DashboardError::Internal(e.to_string()))?;
    let catches = if staff.can(StaffRole::Admin) {
        Some(super::payment_defence::catches(&state, &payment).await?)
    } else {
        None
    };
    let done = match notice.done.as_str() {
        "refund" => Some("Refund done."),
        "capture" => Some("Capture done."),
        "void" => Some("Void done."),
        "repeat" => Some("That form was already submitted; it was done once."),
        "added" => Some("Added to the block list."),
        "duplicate" => Some("That is already on the block list."),
        "settled" => Some("The gateway confirmed the outcome; the payment is settled."),
        "still_pending" => Some("The gateway has no final answer yet."),
        "no_id" => {
            Some("No gateway transaction id is known: attach the one from the gateway's portal.")
        }
        "lookup_failed" => Some("The gateway could not be asked; try again later."),
        "disowned" => Some("The gateway's record does not match this payment; nothing changed."),
        "resolved" => Some("Resolved as failed."),
        _ => None,
    };
    Ok(page(
        &format!("Payment {}", payment.merchant_txn_ref),
        Some(&staff),
        html! {
            @if let Some(done) = done { p role="status" class="notice" { (done) } }
            (facts(&payment, keeper.as_ref()))
            (super::payment_defence::defence(&payment))
            @if matches!(payment.state, PaymentState::Pending | PaymentState::NeedsReview) {
                h2 id="review" { "Review" }
                (super::review_reason::explain(&payment))
                @if staff.can(StaffRole::Operator) {
                    (super::review::review_forms(&staff, &payment))
                }
            }
            @if staff.can(StaffRole::Operator) {
                (actions(&staff, &payment))
            }
            @if let Some(catches) = catches {
                (block_buttons(&staff, &payment, catches))
            }
            h2 { "Timeline" }
            (timeline)
            p { a href="/payments" { "← All payments" } }
        },
    ))
}

fn facts(p: &Payment, keeper: Option<&SessionKeeper>) -> Markup {
    let money = |minor| money::format(minor, &p.currency);
    html! {
        dl class="facts" {
            dt { "Amount" } dd { (money(p.amount)) }
            dt { "State" } dd { (format::state(p.state)) }
            dt { "Captured" } dd { (money(p.captured_amount)) }
            dt { "Refunded" } dd { (money(p.refunded_amount)) }
            dt { "Card" } dd { (format::card(p.card.as_ref())) }
            dt { "Customer" } dd { (p.customer_id.as_deref().unwrap_or("—")) }
            @if let Some(link) = &p.payment_link_id {
                dt { "Payment link" } dd { a href={ "/links/" (link) } { (link) } }
            }
            dt { "Reference (as the gateway saw it)" } dd { (p.merchant_txn_ref) }
            @if let Some(keeper) = &p.retry.surplus_of {
                dt { "Duplicate of" } dd { a href={ "/payments/" (keeper) } { (keeper) } " (this second charge of the session is reversed)" }
            }
            dt { "Session" } dd {
                (p.session_id)
                @match keeper {
                    Some(k) if k.payment_id == p.id => { " (paid by this payment)" }
                    Some(k) => { " (paid by " a href={ "/payments/" (k.payment_id) } { (k.payment_id) } ")" }
                    None => { " (not paid)" }
                }
            }
            dt { "Payment id" } dd { (p.id) }
            dt { "Gateway transaction" } dd { (p.gateway_transaction_id.as_deref().unwrap_or("—")) }
            dt { "Created" } dd { (format::when(p.created_at)) }
        }
    }
}

/// "Block this card" (when the payment has a card fingerprint) and "Block this address" (when
/// it has a client address), for admins, each with what it would have caught.
fn block_buttons(staff: &Staff, p: &Payment, catches: Catches) -> Markup {
    if p.card_fingerprint.is_none() && p.client_key.is_none() {
        return html! {};
    }
    html! {
        h2 { "Block lists" }
        div class="actions" {
            @if p.card_fingerprint.is_some() {
                form method="post" action={ "/payments/" (p.id) "/block_card" } {
                    (csrf_field(staff))
                    p { "Refuse every later try with this card, before the gateway." (caught(catches.card)) }
                    button type="submit" class="danger" { "Block this card" }
                }
            }
            @if p.client_key.is_some() {
                form method="post" action={ "/payments/" (p.id) "/block_address" } {
                    (csrf_field(staff))
                    p { "Refuse every later try from this client's address (an IPv6 one by its /64)." (caught(catches.address)) }
                    button type="submit" class="danger" { "Block this address" }
                }
            }
        }
        p { a href="/risk/blocks" { "The block lists →" } }
    }
}

/// The action forms the payment's state allows. Each posts to a confirmation step first and
/// carries a fresh idempotency key, so a double submit does one thing.
fn actions(staff: &Staff, p: &Payment) -> Markup {
    let key = uuid::Uuid::new_v4().to_string();
    let refundable = matches!(
        p.state,
        PaymentState::Captured | PaymentState::PartiallyRefunded
    ) && p.refundable() > 0;
    let authorized = p.state == PaymentState::Authorized;
    if !refundable && !authorized {
        return html! {};
    }
    html! {
        h2 { "Actions" }
        div class="actions" {
            @if refundable {
                form method="post" action={ "/payments/" (p.id) "/refund" } {
                    (csrf_field(staff))
                    input type="hidden" name="idempotency_key" value=(key);
                    label for="refund-amount" { "Refund amount (" (p.currency) ")" }
                    input id="refund-amount" name="amount" inputmode="decimal"
                        value=(money::major_text(p.refundable(), &p.currency));
                    p { small { "At most " (money::format(p.refundable(), &p.currency)) "; empty refunds all that is left." } }
                    button type="submit" class="danger" { "Refund…" }
                }
            }
            @if authorized {
                form method="post" action={ "/payments/" (p.id) "/capture" } {
                    (csrf_field(staff))
                    input type="hidden" name="idempotency_key" value=(key);
                    label for="capture-amount" { "Capture amount (" (p.currency) ")" }
                    input id="capture-amount" name="amount" inputmode="decimal"
                        value=(money::major_text(p.amount, &p.currency));
                    button type="submit" { "Capture…" }
                }
                form method="post" action={ "/payments/" (p.id) "/void" } {
                    (csrf_field(staff))
                    input type="hidden" name="idempotency_key" value=(key);
                    p { "Release the whole authorization." }
                    button type="submit" class="danger" { "Void…" }
                }
            }
        }
    }
}
