//! `GET /webhooks/events/{id}`: one event — type, object (linked to its dashboard page), when
//! — its delivery to each endpoint (state, attempts, next attempt) and every attempt (status,
//! duration, error); operators may send it again, to every endpoint it went to or to one.

use axum::extract::{Path, Query, State};
use axum::response::Html;
use maud::{Markup, html};
use serde::Deserialize;

use super::format;
use super::layout::{csrf_field, page};
use super::webhook::attempt_table;
use crate::dashboard::auth::Staff;
use crate::dashboard::endpoint_address::shown_to;
use crate::dashboard::error::DashboardError;
use crate::dashboard::state::DashboardState;
use crate::store::model::{Delivery, DeliveryState, StoredEvent, WebhookEndpoint};
use crate::store::prelude::*;

/// `?done=` and `?count=` after a redelivery.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct EventNotice {
    done: String,
    count: String,
}

/// `GET /webhooks/events/{id}`.
pub async fn show(
    State(state): State<DashboardState>,
    staff: Staff,
    Path(id): Path<String>,
    Query(notice): Query<EventNotice>,
) -> Result<Html<String>, DashboardError> {
    let event = load(&state, &id).await?;
    let store = state.app.store.as_ref();
    let deliveries = store.event_deliveries(&event.id).await?;
    let attempts = store.event_attempts(&event.id).await?;
    let endpoints = store.list_endpoints().await?;
    let done = match notice.done.as_str() {
        "redeliver" => Some(format!(
            "Sent again: {} deliveries are due now.",
            notice.count.parse::<u64>().unwrap_or(0)
        )),
        "repeat" => Some("That form was already submitted; it was done once.".to_owned()),
        _ => None,
    };
    Ok(page(
        &format!("Event {}", event.kind),
        Some(&staff),
        html! {
            @if let Some(done) = done { p role="status" class="notice" { (done) } }
            dl class="facts" {
                dt { "Type" } dd { (event.kind) }
                dt { "Object" } dd { (object_link(&event)) }
                dt { "Created" } dd { (format::when(event.created_at)) }
                dt { "Event id" } dd { (event.id) }
            }
            h2 { "Deliveries" }
            (delivery_table(&deliveries))
            @if staff.can(StaffRole::Operator) { (redeliver_form(&staff, &event, &endpoints)) }
            h2 { "Attempts" }
            (attempt_table(&attempts))
            p { a href="/webhooks/events" { "← All events" } }
        },
    ))
}

/// The event `id`, or 404.
pub async fn load(state: &DashboardState, id: &str) -> Result<StoredEvent, DashboardError> {
    if !plausible_id(id) {
        return Err(DashboardError::NotFound("event"));
    }
    state
        .app
        .store
        .get_event(id)
        .await?
        .ok_or(DashboardError::NotFound("event"))
}

/// The event's object, linked to its page when the dashboard has one.
fn object_link(event: &StoredEvent) -> Markup {
    let page = match event.object_type.as_str() {
        "payment" => Some("/payments/"),
        "subscription" => Some("/subscriptions/"),
        "card_testing" => Some("/risk#"),
        _ => None,
    };
    html! {
        (event.object_type) " "
        @if let Some(page) = page { a href={ (page) (event.object_id) } { (event.object_id) } }
        @else { (event.object_id) }
    }
}

fn delivery_table(deliveries: &[Delivery]) -> Markup {
    if deliveries.is_empty() {
        return html! { p { "Not delivered to any endpoint (yet)." } };
    }
    html! {
        div class="table-wrap" {
            table {
                caption class="skip" { "Deliveries, one per endpoint" }
                thead { tr {
                    th scope="col" { "Endpoint" }
                    th scope="col" { "State" }
                    th scope="col" class="num" { "Attempts" }
                    th scope="col" { "Next attempt" }
                } }
                tbody {
                    @for d in deliveries {
                        tr {
                            td { a href={ "/webhooks/" (d.endpoint_id) } { (d.endpoint_id) } }
                            td { (d.state.as_str()) }
                            td class="num" { (d.attempts) }
                            td {
                                @if d.state == DeliveryState::Pending { (format::when(d.next_attempt_at)) } @else { "—" }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Send the event again (operators): to every endpoint it went to, or to one endpoint.
fn redeliver_form(staff: &Staff, event: &StoredEvent, endpoints: &[WebhookEndpoint]) -> Markup {
    html! {
        h2 { "Send again" }
        form method="post" action={ "/webhooks/events/" (event.id) "/redeliver" } {
            (csrf_field(staff))
            input type="hidden" name="idempotency_key" value=(uuid::Uuid::new_v4().to_string());
            label for="endpoint_id" { "To" }
            select id="endpoint_id" name="endpoint_id" {
                option value="" { "Every endpoint it went to" }
                @for endpoint in endpoints {
                    option value=(endpoint.id) { (shown_to(staff, &endpoint.url)) }
                }
            }
            p { button type="submit" { "Send again…" } }
        }
    }
}
