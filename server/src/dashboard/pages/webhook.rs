//! `GET /webhooks/{id}`: one webhook endpoint — address, events, its health — and every
//! attempt to deliver to it, newest first, 50 a page (`?before=<attempt id>`), each linked to
//! its event. Operators may send again the deliveries of a time range that were given up;
//! admins may rotate the signing secret ([`crate::dashboard::webhooks`]).

use axum::extract::{Path, Query, State};
use axum::response::Html;
use maud::{Markup, html};
use serde::Deserialize;
use time::{Duration, OffsetDateTime, Time};

use super::format;
use super::health;
use super::layout::{csrf_field, page};
use crate::dashboard::auth::Staff;
use crate::dashboard::endpoint_address::shown_to;
use crate::dashboard::error::DashboardError;
use crate::dashboard::state::DashboardState;
use crate::events::endpoints::{DEFAULT_OVERLAP, MAX_OVERLAP};
use crate::store::model::{DeliveryAttempt, WebhookEndpoint};
use crate::store::prelude::*;

/// Attempts per page.
const PAGE: u32 = 50;

/// The query: a notice after an action, and the attempts page.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct EndpointQuery {
    done: String,
    count: String,
    before: String,
}

/// `GET /webhooks/{id}`.
pub async fn show(
    State(state): State<DashboardState>,
    staff: Staff,
    Path(id): Path<String>,
    Query(query): Query<EndpointQuery>,
) -> Result<Html<String>, DashboardError> {
    let before = match query.before.trim() {
        "" => None,
        text => Some(
            text.parse::<i64>()
                .ok()
                .filter(|id| *id > 0)
                .ok_or_else(|| DashboardError::bad("before", "must be an attempt number"))?,
        ),
    };
    let now = OffsetDateTime::now_utc();
    let endpoints = state.app.endpoints();
    let endpoint = endpoints.get(&id).await.map_err(DashboardError::from)?;
    let health = endpoints
        .health(&endpoint.id, now)
        .await
        .map_err(DashboardError::from)?;
    let attempts = state
        .app
        .store
        .list_delivery_attempts(&endpoint.id, PAGE, before)
        .await?;
    let next = (attempts.len() == PAGE as usize)
        .then(|| attempts.last().map(|a| a.id))
        .flatten();
    let count = query.count.parse::<u64>().unwrap_or(0);
    let done = match query.done.as_str() {
        "redeliver_failed" => Some(format!("{count} given-up deliveries are due again.")),
        "repeat" => Some("That form was already submitted; it was done once.".to_owned()),
        _ => None,
    };
    Ok(page(
        &format!("Webhook endpoint {}", shown_to(&staff, &endpoint.url)),
        Some(&staff),
        html! {
            @if let Some(done) = done { p role="status" class="notice" { (done) } }
            dl class="facts" {
                dt { "Address" } dd { (shown_to(&staff, &endpoint.url)) }
                dt { "Note" } dd { (endpoint.description.as_deref().unwrap_or("—")) }
                dt { "Events" } dd { (endpoint.event_types.names().join(", ")) }
                dt { "Endpoint id" } dd { (endpoint.id) }
                dt { "Created" } dd { (format::when(endpoint.created_at)) }
            }
            h2 { "Health" }
            (health::facts(&endpoint, &health, now))
            @if staff.can(StaffRole::Operator) { (redeliver_form(&staff, &endpoint, now)) }
            @if staff.can(StaffRole::Admin) { (rotate_form(&staff, &endpoint)) }
            h2 { "Delivery attempts" }
            (attempt_table(&attempts))
            @if let Some(last) = next {
                p { a href={ "/webhooks/" (endpoint.id) "?before=" (last) } rel="next" { "Older attempts →" } }
            }
            p { a href="/webhooks" { "← All endpoints" } }
        },
    ))
}

/// Every attempt of `attempts`: when, which event, the answer's status, how long, the error.
pub fn attempt_table(attempts: &[DeliveryAttempt]) -> Markup {
    if attempts.is_empty() {
        return html! { p { "No attempt yet." } };
    }
    html! {
        div class="table-wrap" {
            table {
                caption class="skip" { "Delivery attempts" }
                thead {
                    tr {
                        th scope="col" { "Sent" }
                        th scope="col" { "Event" }
                        th scope="col" { "Endpoint" }
                        th scope="col" { "Answer" }
                        th scope="col" class="num" { "Duration" }
                        th scope="col" { "Error" }
                    }
                }
                tbody {
                    @for a in attempts {
                        tr {
                            td { (format::when(a.attempted_at)) }
                            td { a href={ "/webhooks/events/" (a.event_id) } { (a.event_id) } }
                            td { a href={ "/webhooks/" (a.endpoint_id) } { (a.endpoint_id) } }
                            td { (a.status_code.map_or_else(|| "none".to_owned(), |code| format!("HTTP {code}"))) }
                            td class="num" { (a.duration_us / 1000) " ms" }
                            td { (a.error.as_deref().unwrap_or("—")) }
                        }
                    }
                }
            }
        }
    }
}

/// Send again the given-up deliveries of a range (operators); the last day by default.
fn redeliver_form(staff: &Staff, endpoint: &WebhookEndpoint, now: OffsetDateTime) -> Markup {
    let text = |at: OffsetDateTime| at.format(format::INSTANT_FORMAT).unwrap_or_default();
    // The next whole minute, so the range takes in everything until now.
    let whole_minute = Time::from_hms(now.hour(), now.minute(), 0).unwrap_or(now.time());
    let until = now.replace_time(whole_minute) + Duration::minutes(1);
    html! {
        h2 { "Send given-up deliveries again" }
        form method="post" action={ "/webhooks/" (endpoint.id) "/redeliver_failed" } {
            (csrf_field(staff))
            input type="hidden" name="idempotency_key" value=(uuid::Uuid::new_v4().to_string());
            div class="filters" {
                div {
                    label for="from" { "Events from (UTC)" }
                    input id="from" name="from" type="datetime-local" step="1" required value=(text(until - Duration::DAY));
                }
                div {
                    label for="to" { "Until (UTC, not included)" }
                    input id="to" name="to" type="datetime-local" step="1" required value=(text(until));
                }
            }
            p { button type="submit" { "Send again…" } }
        }
    }
}

/// Rotate the signing secret (admins), with the overlap the API offers.
fn rotate_form(staff: &Staff, endpoint: &WebhookEndpoint) -> Markup {
    html! {
        h2 { "Signing secret" }
        form method="post" action={ "/webhooks/" (endpoint.id) "/rotate" } {
            (csrf_field(staff))
            input type="hidden" name="idempotency_key" value=(uuid::Uuid::new_v4().to_string());
            label for="overlap_hours" { "Hours the current secret keeps signing" }
            input id="overlap_hours" name="overlap_hours" type="number" min="0"
                max=(MAX_OVERLAP.whole_hours()) required value=(DEFAULT_OVERLAP.whole_hours());
            p { small { "The new secret is shown once, on the next page." } }
            button type="submit" class="danger" { "Rotate the secret…" }
        }
    }
}
