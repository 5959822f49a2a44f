//! Merchant API, the events to the shop (`Authorization: Bearer <MERCHANT_SECRET_KEY>`):
//! - `GET /v1/events?type=&object_id=&created_gte=&created_lt=&limit=&starting_after=` →
//!   `{data, has_more, next_cursor}`, newest first, each event as the shop receives it
//!   (`{id, type, created_at, data: {object}}`); times RFC 3339; `after` is a synonym of
//!   `starting_after`, as the other lists name it;
//! - `GET /v1/events/{id}` → the event with its `deliveries` (endpoint, state, attempts, next
//!   attempt);
//! - `POST /v1/events/{id}/redeliver` `{endpoint_id?}` → `{deliveries: n}`, due now
//!   (`Idempotency-Key` honoured);
//! - `GET /v1/webhook_endpoints/{id}/deliveries?limit=&starting_after=` → the endpoint's
//!   attempts, newest first (`starting_after` is an attempt's id).

use axum::Router;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse as _, Response};
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use super::auth::MerchantAuth;
use super::ids::plausible_id;
use super::json::{Json, MaybeJson};
use super::query;
use crate::events::{EventBody, render, types};
use crate::store::model::page::MAX_PAGE_SIZE;
use crate::store::model::{EventQuery, PageCursor};
use crate::views::{AttemptList, AttemptView, DeliveryView, Redelivered};
use crate::web::ApiFailure;
use crate::web::AppState;
use crate::web::idempotency::{Reply, run_idempotent};

/// Longest `object_id` filter (ids are far shorter).
const MAX_OBJECT_ID_CHARS: usize = 255;
/// Attempts on a page when `limit` is not given.
const DEFAULT_ATTEMPTS: u32 = 20;

/// The event routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/v1/events", get(list))
        .route("/v1/events/{id}", get(show))
        .route("/v1/events/{id}/redeliver", post(redeliver))
        .route("/v1/webhook_endpoints/{id}/deliveries", get(attempts))
}

/// A page of events.
#[derive(Debug, Clone, Serialize)]
pub struct EventList {
    /// The events, newest first.
    pub data: Vec<EventBody>,
    /// Whether older events follow.
    pub has_more: bool,
    /// Pass as `starting_after` for the next page; `null` on the last.
    pub next_cursor: Option<String>,
}

/// One event and where it went.
#[derive(Debug, Clone, Serialize)]
pub struct EventDetail {
    /// The event, as the shop receives it.
    #[serde(flatten)]
    pub event: EventBody,
    /// Its deliveries, one per endpoint.
    pub deliveries: Vec<DeliveryView>,
}

/// Body of `POST /v1/events/{id}/redeliver`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RedeliverBody {
    /// Only to this endpoint (even one created after the event); default every endpoint the
    /// event went to.
    #[serde(default)]
    pub endpoint_id: Option<String>,
}

async fn list(
    State(state): State<AppState>,
    _auth: MerchantAuth,
    RawQuery(query): RawQuery,
) -> Result<Json<EventList>, ApiFailure> {
    let query = event_query(query.as_deref().unwrap_or_default())?;
    let page = state.store.list_events(query).await?;
    let data = page
        .items
        .iter()
        .map(|event| render(event, &state.config.plans))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Json(EventList {
        data,
        has_more: page.next.is_some(),
        next_cursor: page.next.map(|c| c.to_string()),
    }))
}

async fn show(
    State(state): State<AppState>,
    _auth: MerchantAuth,
    Path(id): Path<String>,
) -> Result<Json<EventDetail>, ApiFailure> {
    if !plausible_id(&id) {
        return Err(ApiFailure::NotFound("event"));
    }
    let event = state
        .store
        .get_event(&id)
        .await?
        .ok_or(ApiFailure::NotFound("event"))?;
    let deliveries = state.store.event_deliveries(&event.id).await?;
    Ok(Json(EventDetail {
        event: render(&event, &state.config.plans)?,
        deliveries: deliveries.iter().map(DeliveryView::from).collect(),
    }))
}

async fn redeliver(
    State(state): State<AppState>,
    _auth: MerchantAuth,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: MaybeJson<RedeliverBody>,
) -> Response {
    // Checked before the id goes into the idempotency scope.
    if !plausible_id(&id) {
        return ApiFailure::NotFound("event").into_response();
    }
    let scope = format!("merchant:/v1/events/{id}/redeliver");
    let task_state = state.clone();
    run_idempotent(&state, &headers, scope, body.digest, move || async move {
        let endpoint_id = body.value.unwrap_or_default().endpoint_id;
        if endpoint_id.as_deref().is_some_and(|e| !plausible_id(e)) {
            return Err(ApiFailure::NotFound("webhook endpoint"));
        }
        let deliveries = task_state
            .endpoints()
            .redeliver(&id, endpoint_id.as_deref(), OffsetDateTime::now_utc())
            .await?;
        tracing::info!(event_id = %id, deliveries, "event sent again");
        Reply::json(StatusCode::OK, &Redelivered { deliveries })
    })
    .await
}

async fn attempts(
    State(state): State<AppState>,
    _auth: MerchantAuth,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
) -> Result<Json<AttemptList>, ApiFailure> {
    let (limit, before) = attempt_query(query.as_deref().unwrap_or_default())?;
    if !plausible_id(&id) {
        return Err(ApiFailure::NotFound("webhook endpoint"));
    }
    state.endpoints().get(&id).await?;
    let page = state
        .store
        .list_delivery_attempts(&id, limit, before)
        .await?;
    // A full page may be the last: look one attempt further.
    let last = page.last().map(|a| a.id);
    let has_more = match last {
        Some(last) if page.len() >= usize::try_from(limit).unwrap_or(usize::MAX) => !state
            .store
            .list_delivery_attempts(&id, 1, Some(last))
            .await?
            .is_empty(),
        _ => false,
    };
    Ok(Json(AttemptList {
        data: page.iter().map(AttemptView::from).collect(),
        has_more,
        next_cursor: last.filter(|_| has_more).map(|id| id.to_string()),
    }))
}

/// Reads the event list's filters, naming the parameter at fault.
fn event_query(raw: &str) -> Result<EventQuery, ApiFailure> {
    let mut query = EventQuery::default();
    for (name, value) in query::pairs(raw)? {
        match name.as_str() {
            "type" => {
                if !types::is_known(&value) {
                    return Err(ApiFailure::invalid(
                        "invalid_field",
                        "type",
                        "type: not an event type (payment.captured, session.completed, …)",
                    ));
                }
                query.kind = Some(value);
            }
            "object_id" => {
                let chars = value.chars().count();
                if chars == 0 || chars > MAX_OBJECT_ID_CHARS || value.chars().any(char::is_control)
                {
                    return Err(ApiFailure::invalid(
                        "invalid_field",
                        "object_id",
                        "object_id: must be 1 to 255 characters without control characters",
                    ));
                }
                query.object_id = Some(value);
            }
            "created_gte" => query.created_from = Some(instant("created_gte", &value)?),
            "created_lt" => query.created_before = Some(instant("created_lt", &value)?),
            "limit" => query.limit = query::limit(&value)?,
            field @ ("starting_after" | "after") => {
                query.after = Some(event_cursor(field, &value)?)
            }
            other => return Err(query::unknown(other)),
        }
    }
    Ok(query)
}

/// An RFC 3339 time, naming `field` when it is not one.
fn instant(field: &'static str, value: &str) -> Result<OffsetDateTime, ApiFailure> {
    OffsetDateTime::parse(value, &Rfc3339).map_err(|_| {
        ApiFailure::invalid(
            "invalid_field",
            field,
            format!("{field}: must be an RFC 3339 time (2026-01-31T09:00:00Z)"),
        )
    })
}

/// A cursor from an earlier page of events.
fn event_cursor(field: &str, value: &str) -> Result<PageCursor, ApiFailure> {
    value
        .parse::<PageCursor>()
        .ok()
        .filter(|cursor| cursor.id.parse::<i64>().is_ok())
        .ok_or_else(|| {
            ApiFailure::invalid(
                "invalid_field",
                field,
                format!("{field}: not a cursor this server issued"),
            )
        })
}

/// `limit` and `starting_after` (an attempt id) of the attempts list.
fn attempt_query(raw: &str) -> Result<(u32, Option<i64>), ApiFailure> {
    let mut limit = DEFAULT_ATTEMPTS;
    let mut before = None;
    for (name, value) in query::pairs(raw)? {
        match name.as_str() {
            "limit" => limit = query::limit(&value)?,
            field @ ("starting_after" | "after") => {
                let id = value
                    .parse::<i64>()
                    .ok()
                    .filter(|id| *id > 0)
                    .ok_or_else(|| {
                        ApiFailure::invalid(
                            "invalid_field",
                            field.to_owned(),
                            format!("{field}: must be an attempt id from an earlier page"),
                        )
                    })?;
                before = Some(id);
            }
            other => return Err(query::unknown(other)),
        }
    }
    Ok((limit.min(MAX_PAGE_SIZE), before))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused_field<T: std::fmt::Debug>(result: Result<T, ApiFailure>) -> String {
        match result {
            Err(ApiFailure::BadRequest { field: Some(f), .. }) => f,
            other => panic!("expected a 400 naming a field, got {other:?}"),
        }
    }

    #[test]
    fn event_filters() {
        let query = event_query(
            "type=payment.captured&object_id=p-1&created_gte=2026-01-01T00:00:00Z\
             &created_lt=2026-02-01T00:00:00%2B09:00&limit=5&starting_after=1767225600000_42",
        )
        .expect("valid");
        assert_eq!(query.kind.as_deref(), Some("payment.captured"));
        assert_eq!(query.object_id.as_deref(), Some("p-1"));
        assert_eq!(query.limit, 5);
        assert!(query.created_from.is_some() && query.created_before.is_some());
        assert_eq!(query.after.expect("cursor").id, "42");
        for (raw, field) in [
            ("type=payment.paid", "type"),
            ("object_id=", "object_id"),
            ("object_id=a%00b", "object_id"),
            ("created_gte=yesterday", "created_gte"),
            ("created_lt=2026-01-01", "created_lt"),
            ("limit=0", "limit"),
            ("limit=101", "limit"),
            ("starting_after=abc", "starting_after"),
            ("starting_after=1767225600000_evt", "starting_after"),
            ("after=x", "after"),
            ("sort=asc", "sort"),
        ] {
            assert_eq!(refused_field(event_query(raw)), field, "{raw}");
        }
    }

    #[test]
    fn attempt_filters() {
        assert_eq!(attempt_query("").expect("valid"), (DEFAULT_ATTEMPTS, None));
        assert_eq!(
            attempt_query("limit=3&starting_after=17").expect("valid"),
            (3, Some(17))
        );
        for (raw, field) in [
            ("starting_after=0", "starting_after"),
            ("starting_after=x", "starting_after"),
            ("limit=-1", "limit"),
            ("event_id=evt_1", "event_id"),
        ] {
            assert_eq!(refused_field(attempt_query(raw)), field, "{raw}");
        }
    }
}
