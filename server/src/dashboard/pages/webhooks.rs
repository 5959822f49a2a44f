//! `GET /webhooks`: the shop's webhook endpoints, oldest first, each with its health (last
//! success, failures in a row, oldest waiting delivery, recent success rate), read through the
//! same endpoint service as the merchant API; and a link to every event.

use axum::extract::State;
use axum::response::Html;
use maud::html;
use time::OffsetDateTime;

use super::health;
use super::layout::page;
use crate::dashboard::auth::Staff;
use crate::dashboard::endpoint_address::shown_to;
use crate::dashboard::error::DashboardError;
use crate::dashboard::state::DashboardState;
use crate::events::endpoints::HEALTH_WINDOW;

/// `GET /webhooks`.
pub async fn list(
    State(state): State<DashboardState>,
    staff: Staff,
) -> Result<Html<String>, DashboardError> {
    let now = OffsetDateTime::now_utc();
    let endpoints = state.app.endpoints();
    let mut rows = Vec::new();
    for endpoint in endpoints.list().await.map_err(DashboardError::from)? {
        let health = endpoints
            .health(&endpoint.id, now)
            .await
            .map_err(DashboardError::from)?;
        rows.push((endpoint, health));
    }
    Ok(page(
        "Webhooks",
        Some(&staff),
        html! {
            p { a href="/webhooks/events" { "Every event sent to the shop →" } }
            @if rows.is_empty() {
                p { "The shop has no webhook endpoint." }
            } @else {
                div class="table-wrap" {
                    table {
                        caption class="skip" { "Webhook endpoints, oldest first" }
                        thead {
                            tr {
                                th scope="col" { "Endpoint" }
                                th scope="col" { "Status" }
                                th scope="col" { "Events" }
                                th scope="col" { "Last success" }
                                th scope="col" class="num" { "Failures in a row" }
                                th scope="col" { "Oldest waiting" }
                                th scope="col" { "Success, last " (HEALTH_WINDOW.whole_hours()) " h" }
                            }
                        }
                        tbody {
                            @for (endpoint, h) in &rows {
                                tr {
                                    td { a href={ "/webhooks/" (endpoint.id) } { (shown_to(&staff, &endpoint.url)) } }
                                    td { (health::status(endpoint)) }
                                    td { (endpoint.event_types.names().join(", ")) }
                                    td { (health::last_success(h)) }
                                    td class="num" { (h.consecutive_failures) }
                                    td { (health::oldest_pending(h)) }
                                    td { (health::success_rate(h)) }
                                }
                            }
                        }
                    }
                }
            }
        },
    ))
}
