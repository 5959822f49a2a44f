//! The review queue's part about subscriptions (issue 46): subscriptions the gateway bills that
//! checkout-server did not start (found by the whole-list check, or several a lost sign-up
//! could have made), the sign-ups whose subscription could not be told apart, and when the
//! gateway's list was last compared with the store. Operators mark a found subscription as
//! looked at ([`acknowledge_form`], `POST /subscriptions/{id}/acknowledge`).

use maud::{Markup, html};

use super::format;
use super::layout::csrf_field;
use crate::dashboard::auth::Staff;
use crate::dashboard::error::DashboardError;
use crate::dashboard::money;
use crate::dashboard::state::DashboardState;
use crate::store::model::subscription::status_name;
use crate::store::prelude::*;

/// The most rows each list shows.
const ROWS: u32 = 200;

/// The section, for `staff`.
pub async fn section(state: &DashboardState, staff: &Staff) -> Result<Markup, DashboardError> {
    let store = &state.app.store;
    let found = store.subscriptions_to_review(ROWS).await?;
    let signups = store.signups_in_review(ROWS).await?;
    let (last, next) = store.list_check_status().await?;
    let operator = staff.can(StaffRole::Operator);
    Ok(html! {
        h2 { "Subscriptions the gateway bills that checkout-server did not start" }
        p {
            "The gateway's list was last compared with this server's "
            @match last.ran_at {
                Some(at) => { (format::when(at)) ": " (last.listed) " listed, " (last.found) " found" }
                None => { "never" }
            }
            "; next " (format::when(next)) "."
            @if let Some(error) = &last.error { " " strong class="warning" { "It could not finish: " (error) } }
        }
        @if found.is_empty() {
            p { "None." }
        } @else {
            div class="table-wrap" {
                table {
                    caption class="skip" { "Subscriptions found in the gateway's list, oldest first" }
                    thead { tr {
                        th scope="col" { "Found" }
                        th scope="col" { "Gateway subscription" }
                        th scope="col" { "Plan" }
                        th scope="col" class="num" { "Amount a cycle" }
                        th scope="col" { "Status" }
                        th scope="col" { "Why" }
                        @if operator { th scope="col" { "Actions" } }
                    } }
                    tbody {
                        @for s in &found {
                            tr class="found-row" {
                                td { a href={ "/subscriptions/" (s.id) } { (format::when(s.created_at)) } }
                                td { (s.gateway_subscription_id) }
                                td { (s.plan_id) }
                                td class="num" { (money::format(s.amount, &s.currency)) }
                                td { (status_name(s.status)) }
                                td { (s.review_note.as_deref().unwrap_or("")) }
                                @if operator { td { (acknowledge_form(staff, s)) } }
                            }
                        }
                    }
                }
            }
        }
        h2 { "Sign-ups whose subscription could not be told apart" }
        @if signups.is_empty() {
            p { "None." }
        } @else {
            ul {
                @for signup in &signups {
                    li {
                        a href={ "/payments/" (signup.id) } { (format::when(signup.called_at)) }
                        " — customer " (signup.customer_id.as_deref().unwrap_or("none"))
                        ", plan " (signup.plan_id) ": " (signup.note.as_deref().unwrap_or(""))
                    }
                }
            }
        }
    })
}

/// "Looked at" for a subscription still in the queue (operators).
pub fn acknowledge_form(staff: &Staff, s: &Subscription) -> Markup {
    if s.review_note.is_none() {
        return html! {};
    }
    html! {
        form method="post" action={ "/subscriptions/" (s.id) "/acknowledge" } {
            (csrf_field(staff))
            button type="submit" { "Looked at…" }
        }
    }
}
