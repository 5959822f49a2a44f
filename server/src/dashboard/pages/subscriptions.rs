//! `GET /subscriptions`: every subscription, newest first, with the filter form (status,
//! customer, plan, currency) and keyset pagination (the store's cursor, as the payments list
//! pages). Reads through the subscription service, as the merchant API does.

use axum::extract::{Query, State};
use axum::response::Html;
use maud::{Markup, html};

use super::format;
use super::layout::page;
use super::subscription_filters::SubscriptionFilters;
use crate::config::PlanCatalogue;
use crate::dashboard::auth::Staff;
use crate::dashboard::error::DashboardError;
use crate::dashboard::money;
use crate::dashboard::state::DashboardState;
use crate::store::model::Subscription;
use crate::store::model::subscription::{ALL_STATUSES, status_name};

/// `GET /subscriptions`.
pub async fn list(
    State(state): State<DashboardState>,
    staff: Staff,
    Query(filters): Query<SubscriptionFilters>,
) -> Result<Html<String>, DashboardError> {
    let query = filters.query()?;
    let found = state
        .app
        .subscriptions()
        .list(query)
        .await
        .map_err(|e| DashboardError::Internal(e.to_string()))?;
    Ok(page(
        "Subscriptions",
        Some(&staff),
        html! {
            (filter_form(&filters, &state.app.config.plans))
            @if found.items.is_empty() {
                p { "No subscription matches these filters." }
            } @else {
                (table(&found.items))
            }
            @if let Some(cursor) = &found.next {
                p { a href={ "/subscriptions?" (filters.next_page(cursor)) } rel="next" { "Older subscriptions →" } }
            }
        },
    ))
}

fn filter_form(filters: &SubscriptionFilters, plans: &PlanCatalogue) -> Markup {
    html! {
        form method="get" action="/subscriptions" {
            fieldset {
                legend { "Filters" }
                div class="filters" {
                    div {
                        label for="status" { "Status" }
                        select id="status" name="status" {
                            option value="" { "Any" }
                            @for s in ALL_STATUSES {
                                option value=(status_name(s)) selected[filters.status == status_name(s)] { (status_name(s)) }
                            }
                        }
                    }
                    div {
                        label for="customer" { "Customer id" }
                        input id="customer" name="customer" type="text" value=(filters.customer) placeholder="cust-42";
                    }
                    div {
                        label for="plan" { "Plan" }
                        select id="plan" name="plan" {
                            option value="" { "Any" }
                            @for plan in plans.iter() {
                                option value=(plan.id) selected[filters.plan == plan.id] { (plan.name) " (" (plan.id) ")" }
                            }
                        }
                    }
                    div {
                        label for="currency" { "Currency" }
                        input id="currency" name="currency" type="text" value=(filters.currency) placeholder="EUR";
                    }
                }
                p { button type="submit" { "Apply filters" } " " a href="/subscriptions" { "Clear" } }
            }
        }
    }
}

fn table(subscriptions: &[Subscription]) -> Markup {
    html! {
        div class="table-wrap" {
            table {
                caption class="skip" { "Subscriptions, newest first" }
                thead {
                    tr {
                        th scope="col" { "Created" }
                        th scope="col" { "Customer" }
                        th scope="col" { "Plan" }
                        th scope="col" class="num" { "Amount a cycle" }
                        th scope="col" { "Status" }
                        th scope="col" class="num" { "Cycles paid" }
                        th scope="col" { "Next charge" }
                    }
                }
                tbody {
                    @for s in subscriptions {
                        tr {
                            td { a href={ "/subscriptions/" (s.id) } { (format::when(s.created_at)) } }
                            td { (s.customer_id.as_deref().unwrap_or("—")) }
                            td { (s.plan_id) }
                            td class="num" { (money::format(s.amount, &s.currency)) }
                            td { (status_name(s.status)) }
                            td class="num" { (s.completed_cycles) }
                            td { (s.next_payment_at.map_or_else(|| "—".to_owned(), format::when)) }
                        }
                    }
                }
            }
        }
    }
}
