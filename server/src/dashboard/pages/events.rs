//! `GET /webhooks/events`: every event sent to the shop, newest first, filtered by type or
//! object, with keyset pagination (the store's cursor, as the merchant API pages events).

use axum::extract::{Query, State};
use axum::response::Html;
use maud::html;
use serde::{Deserialize, Serialize};

use super::filters::PAGE_SIZE;
use super::format;
use super::layout::page;
use crate::dashboard::auth::Staff;
use crate::dashboard::error::DashboardError;
use crate::dashboard::state::DashboardState;
use crate::events::types;
use crate::store::model::{EventQuery, PageCursor};

/// Longest object id the filter takes (ids are far shorter).
const MAX_OBJECT_ID_CHARS: usize = 255;

/// The filter form's fields, as sent (and as the next page's link repeats them).
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(default)]
pub struct EventFilters {
    /// An event type.
    #[serde(rename = "type", skip_serializing_if = "String::is_empty")]
    kind: String,
    /// The object's id.
    #[serde(skip_serializing_if = "String::is_empty")]
    object: String,
    /// The page cursor.
    #[serde(skip_serializing_if = "String::is_empty")]
    after: String,
}

impl EventFilters {
    fn query(&self) -> Result<EventQuery, DashboardError> {
        let mut query = EventQuery {
            limit: PAGE_SIZE,
            ..EventQuery::default()
        };
        let kind = self.kind.trim();
        if !kind.is_empty() {
            if !types::is_known(kind) {
                return Err(DashboardError::bad("type", "not an event type"));
            }
            query.kind = Some(kind.to_owned());
        }
        let object = self.object.trim();
        if !object.is_empty() {
            if object.chars().count() > MAX_OBJECT_ID_CHARS || object.chars().any(char::is_control)
            {
                return Err(DashboardError::bad(
                    "object",
                    "must be at most 255 characters without control characters",
                ));
            }
            query.object_id = Some(object.to_owned());
        }
        let after = self.after.trim();
        if !after.is_empty() {
            query.after = Some(
                after
                    .parse::<PageCursor>()
                    .ok()
                    .filter(|cursor| cursor.id.parse::<i64>().is_ok())
                    .ok_or_else(|| {
                        DashboardError::bad("after", "not a page this server linked to")
                    })?,
            );
        }
        Ok(query)
    }

    fn next_page(&self, cursor: &PageCursor) -> String {
        let next = Self {
            after: cursor.to_string(),
            ..self.clone()
        };
        serde_urlencoded::to_string(&next).unwrap_or_default()
    }
}

/// `GET /webhooks/events`.
pub async fn list(
    State(state): State<DashboardState>,
    staff: Staff,
    Query(filters): Query<EventFilters>,
) -> Result<Html<String>, DashboardError> {
    let found = state.app.store.list_events(filters.query()?).await?;
    Ok(page(
        "Events",
        Some(&staff),
        html! {
            form method="get" action="/webhooks/events" {
                fieldset {
                    legend { "Filters" }
                    div class="filters" {
                        div {
                            label for="type" { "Type" }
                            select id="type" name="type" {
                                option value="" { "Any" }
                                @for kind in types::ALL {
                                    option value=(kind) selected[filters.kind == kind] { (kind) }
                                }
                            }
                        }
                        div {
                            label for="object" { "Object id" }
                            input id="object" name="object" type="text" value=(filters.object);
                        }
                    }
                    p { button type="submit" { "Apply filters" } " " a href="/webhooks/events" { "Clear" } }
                }
            }
            @if found.items.is_empty() {
                p { "No event matches these filters." }
            } @else {
                div class="table-wrap" {
                    table {
                        caption class="skip" { "Events, newest first" }
                        thead { tr {
                            th scope="col" { "Created" }
                            th scope="col" { "Type" }
                            th scope="col" { "Object" }
                            th scope="col" { "Event id" }
                        } }
                        tbody {
                            @for event in &found.items {
                                tr {
                                    td { a href={ "/webhooks/events/" (event.id) } { (format::when(event.created_at)) } }
                                    td { (event.kind) }
                                    td { (event.object_type) " " (event.object_id) }
                                    td { (event.id) }
                                }
                            }
                        }
                    }
                }
            }
            @if let Some(cursor) = &found.next {
                p { a href={ "/webhooks/events?" (filters.next_page(cursor)) } rel="next" { "Older events →" } }
            }
            p { a href="/webhooks" { "← Endpoints" } }
        },
    ))
}
