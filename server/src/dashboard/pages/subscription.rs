//! `GET /subscriptions/{id}`: one subscription — customer, plan, amount a cycle, status,
//! cycles paid, next charge — its billing history (each charge with the payment it made,
//! linked to `/payments/{id}` when this server recorded one), the staff actions on it from the
//! audit log, and, for operators, the actions its status allows (pause, resume, cancel). A
//! viewer sees no action at all.

use axum::extract::{Path, Query, State};
use axum::response::Html;
use checkout::contract::{SubscriptionAction, SubscriptionStatus};
use maud::{Markup, html};

use super::format;
use super::layout::{csrf_field, page};
use super::payment::Notice;
use crate::dashboard::auth::Staff;
use crate::dashboard::error::DashboardError;
use crate::dashboard::money;
use crate::dashboard::state::DashboardState;
use crate::dashboard::subscriptions::{failed, label, load};
use crate::store::model::subscription::status_name;
use crate::store::model::{Subscription, SubscriptionCycle};
use crate::store::prelude::*;

/// `GET /subscriptions/{id}`.
pub async fn show(
    State(state): State<DashboardState>,
    staff: Staff,
    Path(id): Path<String>,
    Query(notice): Query<Notice>,
) -> Result<Html<String>, DashboardError> {
    let subscription = load(&state, &id).await?;
    let cycles = state
        .app
        .subscriptions()
        .history(&subscription)
        .await
        .map_err(failed)?;
    let mut charges = Vec::with_capacity(cycles.len());
    for cycle in cycles {
        let payment = charge_payment(&state, &subscription, &cycle).await?;
        charges.push((cycle, payment));
    }
    let staff_lines = state.app.store.object_audit(&subscription.id).await?;
    let done = match notice.done() {
        "pause" => Some("Paused."),
        "resume" => Some("Resumed."),
        "cancel" => Some("Cancelled."),
        "acknowledged" => Some("Marked as looked at: it left the review queue."),
        "repeat" => Some("That form was already submitted; it was done once."),
        _ => None,
    };
    Ok(page(
        &format!(
            "Subscription of {}",
            subscription.customer_id.as_deref().unwrap_or("no customer")
        ),
        Some(&staff),
        html! {
            @if let Some(done) = done { p role="status" class="notice" { (done) } }
            (facts(&subscription))
            @if staff.can(StaffRole::Operator) {
                (actions(&staff, &subscription))
                (super::review_found::acknowledge_form(&staff, &subscription))
            }
            h2 { "Billing history" }
            (history(&charges))
            h2 { "Staff actions" }
            @if staff_lines.is_empty() {
                p { "None." }
            } @else {
                ol class="timeline" {
                    @for line in &staff_lines {
                        li {
                            time datetime=(format::iso(line.at)) { (format::when(line.at)) }
                            " — " (line.entry.action) " by " (line.entry.staff_email) ": " (line.entry.outcome)
                            @if let Some(detail) = &line.entry.detail { " (" (detail) ")" }
                        }
                    }
                }
            }
            p { a href="/subscriptions" { "← All subscriptions" } }
        },
    ))
}

/// The payment this server recorded for a charge: found by the gateway's transaction, or, for
/// the first cycle, the payment that created the subscription.
async fn charge_payment(
    state: &DashboardState,
    subscription: &Subscription,
    cycle: &SubscriptionCycle,
) -> Result<Option<String>, DashboardError> {
    if let Some(txn) = &cycle.gateway_transaction_id
        && let Some(payment) = state.app.store.find_payment_by_gateway_id(txn).await?
    {
        return Ok(Some(payment.id));
    }
    Ok(subscription
        .first_payment_id
        .clone()
        .filter(|_| cycle.cycle == 1))
}

fn facts(s: &Subscription) -> Markup {
    let when = |at: Option<time::OffsetDateTime>| at.map_or_else(|| "—".to_owned(), format::when);
    html! {
        dl class="facts" {
            dt { "Status" } dd { (status_name(s.status)) }
            dt { "Customer" } dd { (s.customer_id.as_deref().unwrap_or("—")) }
            dt { "Plan" } dd { (s.plan_id) }
            dt { "Amount a cycle" } dd { (money::format(s.amount, &s.currency)) }
            dt { "Cycles paid" } dd { (s.completed_cycles) }
            dt { "Next charge" } dd { (when(s.next_payment_at)) }
            dt { "Last charge at the gateway" } dd { (s.last_payment_status.as_deref().unwrap_or("—")) }
            dt { "First payment" } dd {
                @if let Some(id) = &s.first_payment_id { a href={ "/payments/" (id) } { (id) } } @else { "—" }
            }
            @if let Some(note) = &s.review_note {
                dt { "To review" } dd class="warning" { (note) }
            }
            dt { "Origin" } dd { (match s.origin {
                SubscriptionOrigin::Checkout => "a sign-up through checkout-server",
                SubscriptionOrigin::GatewayList => "found in the gateway's list",
            }) }
            dt { "Subscription id" } dd { (s.id) }
            dt { "Gateway subscription" } dd { (s.gateway_subscription_id) }
            dt { "Created" } dd { (format::when(s.created_at)) }
        }
    }
}

/// The actions the status allows, each to a confirmation step first with a fresh idempotency
/// key, so a double submit does one thing.
fn actions(staff: &Staff, s: &Subscription) -> Markup {
    let allowed: &[SubscriptionAction] = match s.status {
        SubscriptionStatus::Active => &[SubscriptionAction::Pause, SubscriptionAction::Cancel],
        SubscriptionStatus::Paused => &[SubscriptionAction::Resume, SubscriptionAction::Cancel],
        SubscriptionStatus::Cancelled | SubscriptionStatus::Expired => &[],
    };
    if allowed.is_empty() {
        return html! {};
    }
    let key = uuid::Uuid::new_v4().to_string();
    html! {
        h2 { "Actions" }
        div class="actions" {
            @for action in allowed {
                form method="post" action={ "/subscriptions/" (s.id) "/" (action.as_str()) } {
                    (csrf_field(staff))
                    input type="hidden" name="idempotency_key" value=(key);
                    button type="submit" class=[(*action == SubscriptionAction::Cancel).then_some("danger")] {
                        (label(*action)) "…"
                    }
                }
            }
        }
    }
}

fn history(charges: &[(SubscriptionCycle, Option<String>)]) -> Markup {
    if charges.is_empty() {
        return html! { p { "No charge recorded yet." } };
    }
    html! {
        div class="table-wrap" {
            table {
                caption class="skip" { "Charges, first cycle first" }
                thead {
                    tr {
                        th scope="col" class="num" { "Cycle" }
                        th scope="col" { "Charged" }
                        th scope="col" class="num" { "Amount" }
                        th scope="col" { "Outcome" }
                        th scope="col" { "Payment" }
                        th scope="col" { "Gateway transaction" }
                    }
                }
                tbody {
                    @for (cycle, payment) in charges {
                        tr {
                            td class="num" { (cycle.cycle) }
                            td { (format::when(cycle.charged_at)) }
                            td class="num" { (money::format(cycle.amount, &cycle.currency)) }
                            td { (cycle.status.as_str()) }
                            td {
                                @if let Some(id) = payment { a href={ "/payments/" (id) } { (id) } } @else { "—" }
                            }
                            td { (cycle.gateway_transaction_id.as_deref().unwrap_or("—")) }
                        }
                    }
                }
            }
        }
    }
}
