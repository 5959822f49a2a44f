//! `GET /review`: the review queue — every `needs_review` payment and every `pending` one
//! older than `REVIEW_PENDING_AFTER_MINUTES`, oldest first, with its age and the gateway's
//! last answer (the newest call in the payment's log); then the subscriptions the gateway
//! bills that checkout-server did not start ([`super::review_found`]). Operators get the review actions of
//! [`review_forms`] on each row; a viewer sees the queue read-only.

use axum::extract::State;
use axum::response::Html;
use maud::{Markup, html};
use time::OffsetDateTime;

use super::format;
use super::layout::{csrf_field, page};
use crate::dashboard::auth::Staff;
use crate::dashboard::error::DashboardError;
use crate::dashboard::money;
use crate::dashboard::state::DashboardState;
use crate::store::model::Payment;
use crate::store::prelude::*;
use checkout::contract::PaymentState;

/// The most rows the queue shows.
const QUEUE_ROWS: usize = 200;

/// `GET /review`.
pub async fn list(
    State(state): State<DashboardState>,
    staff: Staff,
) -> Result<Html<String>, DashboardError> {
    let now = OffsetDateTime::now_utc();
    let after = state.app.config.dashboard.review_pending_after;
    let queue = state
        .app
        .payments
        .review_queue(now, after, QUEUE_ROWS)
        .await
        .map_err(|e| DashboardError::Internal(e.to_string()))?;
    let mut rows = Vec::with_capacity(queue.len());
    for payment in queue {
        let last = last_answer(&state, &payment).await?;
        rows.push((payment, last));
    }
    let operator = staff.can(StaffRole::Operator);
    let subscriptions = super::review_found::section(&state, &staff).await?;
    Ok(page(
        "Review queue",
        Some(&staff),
        html! {
            p { "Payments in needs review, and pending ones older than " (after.as_secs() / 60) " minutes, oldest first." }
            @if rows.is_empty() {
                p { "Nothing to review." }
            } @else {
                div class="table-wrap" {
                    table {
                        caption class="skip" { "Payments to review, oldest first" }
                        thead { tr {
                            th scope="col" { "Created" }
                            th scope="col" { "Age" }
                            th scope="col" { "Reference" }
                            th scope="col" class="num" { "Amount" }
                            th scope="col" { "State" }
                            th scope="col" { "Why" }
                            th scope="col" { "Last gateway answer" }
                            @if operator { th scope="col" { "Actions" } }
                        } }
                        tbody {
                            @for (p, last) in &rows {
                                tr class="review-row" {
                                    td { a href={ "/payments/" (p.id) } { (format::when(p.created_at)) } }
                                    td { (age(now - p.created_at)) }
                                    td { (p.merchant_txn_ref) }
                                    td class="num" { (money::format(p.amount, &p.currency)) }
                                    td { (format::state(p.state)) }
                                    td { a href={ "/payments/" (p.id) "#review" } { (super::review_reason::headline(p)) } }
                                    td { (last) }
                                    @if operator { td { (review_forms(&staff, p)) } }
                                }
                            }
                        }
                    }
                }
            }
            (subscriptions)
        },
    ))
}

/// The gateway's newest answer about `payment`, as one line.
async fn last_answer(state: &DashboardState, payment: &Payment) -> Result<String, DashboardError> {
    let attempts = state.app.store.list_attempts(&payment.id).await?;
    Ok(attempts.iter().max_by_key(|a| a.started_at).map_or_else(
        || "none".to_owned(),
        |a| {
            let status = a
                .http_status
                .map_or_else(String::new, |s| format!(", HTTP {s}"));
            format!(
                "{}: {}{status} at {}",
                a.endpoint,
                a.outcome.as_str(),
                format::when(a.started_at)
            )
        },
    ))
}

/// `3 d 4 h`, `2 h 5 min`, `7 min`.
fn age(span: time::Duration) -> String {
    let minutes = span.whole_minutes().max(0);
    let (days, hours, mins) = (minutes / 1440, minutes / 60 % 24, minutes % 60);
    match (days, hours) {
        (0, 0) => format!("{mins} min"),
        (0, _) => format!("{hours} h {mins} min"),
        _ => format!("{days} d {hours} h"),
    }
}

/// The review actions for a `pending` or `needs_review` payment (operators only): ask the
/// gateway now, attach the gateway's transaction id, and (for `needs_review`) resolve as
/// failed with a note. Each goes through a confirmation step first.
pub fn review_forms(staff: &Staff, p: &Payment) -> Markup {
    if !matches!(p.state, PaymentState::Pending | PaymentState::NeedsReview) {
        return html! {};
    }
    let txn = format!("txn-{}", p.id);
    let note = format!("note-{}", p.id);
    html! {
        div class="actions" {
            form method="post" action={ "/payments/" (p.id) "/lookup" } {
                (csrf_field(staff))
                button type="submit" { "Ask the gateway now…" }
            }
            form method="post" action={ "/payments/" (p.id) "/attach" } {
                (csrf_field(staff))
                label for=(txn) { "Gateway transaction id" }
                input id=(txn) name="transaction_id" required autocomplete="off"
                    placeholder="0b6f3a52-3c6e-4f0e-9a53-1d2c3b4a5f60";
                button type="submit" { "Attach and confirm…" }
            }
            @if p.state == PaymentState::NeedsReview {
                form method="post" action={ "/payments/" (p.id) "/resolve" } {
                    (csrf_field(staff))
                    label for=(note) { "Why it failed (required)" }
                    input id=(note) name="note" required maxlength="500";
                    button type="submit" class="danger" { "Resolve as failed…" }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn ages() {
        assert_eq!(super::age(time::Duration::minutes(7)), "7 min");
        assert_eq!(super::age(time::Duration::minutes(125)), "2 h 5 min");
        assert_eq!(
            super::age(time::Duration::minutes(3 * 1440 + 250)),
            "3 d 4 h"
        );
    }
}
