//! The webhook pages' actions, each the merchant API's own service call under the API's
//! idempotency ([`super::once`]), confirmed first and written to the audit log:
//! - `POST /webhooks/events/{id}/redeliver` (operators): `Endpoints::redeliver`, to every
//!   endpoint the event went to or to one;
//! - `POST /webhooks/{id}/redeliver_failed` (operators): `Endpoints::redeliver_failed`, the
//!   given-up deliveries of the events of a time range (UTC, the end not included);
//! - `POST /webhooks/{id}/rotate` (admins): `Endpoints::rotate` with the overlap the API
//!   offers. The new secret is shown on the answer page only (through the API's own
//!   `endpoint_secret`: the stored answer keeps its hash, never the secret); a double submit
//!   shows the same secret while it is still the endpoint's, and never rotates twice. The
//!   audit log records the overlap, never the secret.

use axum::Form;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use maud::html;
use serde::Deserialize;
use time::format_description::BorrowedFormatItem;
use time::macros::format_description;
use time::{Duration, OffsetDateTime, PrimitiveDateTime};

use super::audit::{Actor, Object, record_on};
use super::auth::Staff;
use super::client::Client;
use super::endpoint_address::shown_to;
use super::error::DashboardError;
use super::once::{body, form_key, refusal, replayed, run_once};
use super::pages::event;
use super::pages::format;
use super::pages::layout::{csrf_field, page};
use super::redirect::see_other;
use super::state::DashboardState;
use crate::events::endpoints::MAX_OVERLAP;
use crate::store::model::WebhookEndpoint;
use crate::store::prelude::StaffRole;
use crate::views::Redelivered;
use crate::web::endpoint_secret::{self, IssuedSecret};
use crate::web::idempotency::Reply;

/// The same without seconds, as browsers send a `datetime-local` on a whole minute.
const MINUTE_FORMAT: &[BorrowedFormatItem<'static>] =
    format_description!("[year]-[month]-[day]T[hour]:[minute]");

/// A webhook action's fields (all strings: an empty one is unset).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct WebhookForm {
    csrf: String,
    idempotency_key: String,
    confirm: String,
    /// Redeliver one event: only to this endpoint.
    endpoint_id: String,
    /// Redeliver a range: its start (UTC).
    from: String,
    /// Redeliver a range: its end (UTC, not included).
    to: String,
    /// Rotate: hours the current secret keeps signing.
    overlap_hours: String,
}

/// `POST /webhooks/events/{id}/redeliver`.
pub async fn redeliver(
    State(state): State<DashboardState>,
    staff: Staff,
    Client(address): Client,
    Path(id): Path<String>,
    Form(form): Form<WebhookForm>,
) -> Result<Response, DashboardError> {
    staff.check_csrf(&form.csrf)?;
    staff.require(StaffRole::Operator)?;
    let event = event::load(&state, &id).await?;
    let key = form_key(&form.idempotency_key)?;
    let endpoint_id = Some(form.endpoint_id.trim().to_owned()).filter(|e| !e.is_empty());
    let endpoint = match &endpoint_id {
        Some(endpoint_id) => Some(
            state
                .app
                .endpoints()
                .get(endpoint_id)
                .await
                .map_err(DashboardError::from)?,
        ),
        None => None,
    };
    let path = format!("/webhooks/events/{}/redeliver", event.id);
    if form.confirm != "yes" {
        let to = endpoint.as_ref().map_or_else(
            || "every endpoint it went to".to_owned(),
            |e| shown_to(&staff, &e.url),
        );
        let what = format!("Send event {} ({}) again to {to}?", event.id, event.kind);
        let back = format!("/webhooks/events/{}", event.id);
        return Ok(confirmation(&staff, &what, &path, &back, key, &form));
    }
    let app = state.app.clone();
    let (event_id, to) = (event.id.clone(), endpoint_id.clone());
    let request = format!("to {to:?}");
    let answer = run_once(&state, &staff, key, &path, &request, move || async move {
        let deliveries = app
            .endpoints()
            .redeliver(&event_id, to.as_deref(), OffsetDateTime::now_utc())
            .await?;
        Reply::json(StatusCode::OK, &Redelivered { deliveries })
    })
    .await;
    let object = Object {
        kind: "event",
        id: &event.id,
        money: None,
    };
    let detail = Some(match &endpoint_id {
        Some(endpoint_id) => format!("to {endpoint_id}"),
        None => "to every endpoint it went to".to_owned(),
    });
    let actor = Actor::staff(&staff, address);
    finish(&state, &actor, answer, "redeliver", object, detail).await
}

/// `POST /webhooks/{id}/redeliver_failed`.
pub async fn redeliver_failed(
    State(state): State<DashboardState>,
    staff: Staff,
    Client(address): Client,
    Path(id): Path<String>,
    Form(form): Form<WebhookForm>,
) -> Result<Response, DashboardError> {
    let (endpoint, key) = on_endpoint(&state, &staff, &form, StaffRole::Operator, &id).await?;
    let from = instant("from", &form.from)?;
    let before = instant("to", &form.to)?;
    let range = format!("{} to {}", format::when(from), format::when(before));
    let path = format!("/webhooks/{}/redeliver_failed", endpoint.id);
    if form.confirm != "yes" {
        let what = format!(
            "Send again every delivery to {} given up after its retries, of the events from \
             {range} (not included)?",
            shown_to(&staff, &endpoint.url)
        );
        let back = format!("/webhooks/{}", endpoint.id);
        return Ok(confirmation(&staff, &what, &path, &back, key, &form));
    }
    let app = state.app.clone();
    let endpoint_id = endpoint.id.clone();
    let answer = run_once(&state, &staff, key, &path, &range, move || async move {
        let deliveries = app
            .endpoints()
            .redeliver_failed(&endpoint_id, from, before, OffsetDateTime::now_utc())
            .await?;
        Reply::json(StatusCode::OK, &Redelivered { deliveries })
    })
    .await;
    let object = Object {
        kind: "webhook_endpoint",
        id: &endpoint.id,
        money: None,
    };
    let actor = Actor::staff(&staff, address);
    let detail = Some(format!("events from {range}"));
    finish(&state, &actor, answer, "redeliver_failed", object, detail).await
}

/// `POST /webhooks/{id}/rotate`.
pub async fn rotate(
    State(state): State<DashboardState>,
    staff: Staff,
    Client(address): Client,
    Path(id): Path<String>,
    Form(form): Form<WebhookForm>,
) -> Result<Response, DashboardError> {
    let (endpoint, key) = on_endpoint(&state, &staff, &form, StaffRole::Admin, &id).await?;
    let hours: i64 = form
        .overlap_hours
        .trim()
        .parse()
        .map_err(|_| DashboardError::bad("overlap_hours", "must be a whole number of hours"))?;
    // Not `Duration::hours`, which panics past `i64` seconds: a saturated overlap is past
    // `MAX_OVERLAP` all the same, so `rotate` refuses it and the refusal is audited.
    let overlap = Duration::seconds(hours.saturating_mul(3600));
    let path = format!("/webhooks/{}/rotate", endpoint.id);
    let back = format!("/webhooks/{}", endpoint.id);
    if form.confirm != "yes" {
        let what = format!(
            "Give {} a new signing secret? The current one keeps signing for {hours} h.",
            endpoint.url
        );
        return Ok(confirmation(&staff, &what, &path, &back, key, &form));
    }
    let issued = IssuedSecret::default();
    let slot = issued.clone();
    let app = state.app.clone();
    let endpoint_id = endpoint.id.clone();
    let answer = run_once(
        &state,
        &staff,
        key,
        &path,
        &format!("{hours} h"),
        move || async move {
            let rotated = app
                .endpoints()
                .rotate(&endpoint_id, Some(overlap), OffsetDateTime::now_utc())
                .await?;
            endpoint_secret::reply(StatusCode::OK, &rotated, &slot)
        },
    )
    .await;
    let repeat = replayed(&answer);
    let answer = endpoint_secret::reveal(&state.app, answer, issued).await;
    let actor = Actor::staff(&staff, address);
    let object = Object {
        kind: "webhook_endpoint",
        id: &endpoint.id,
        money: None,
    };
    let detail = Some(format!("overlap {hours} h"));
    if answer.status() != StatusCode::OK {
        let refused = refusal(answer).await;
        record_on(
            &state,
            &actor,
            "rotate_secret",
            object,
            &refused.code,
            detail,
        )
        .await;
        return Err(match refused.field.as_deref() {
            Some("overlap_seconds") => DashboardError::bad(
                "overlap_hours",
                format!("must be 0 to {} hours", MAX_OVERLAP.whole_hours()),
            ),
            _ => refused.page("Rotation"),
        });
    }
    if !repeat {
        record_on(&state, &actor, "rotate_secret", object, "ok", detail).await;
    }
    let view = body(answer).await?;
    let secret = view["secret"].as_str().unwrap_or_default();
    let until = view["previous_secret_expires_at"].as_str();
    Ok(page(
        "New signing secret",
        Some(&staff),
        html! {
            p role="status" class="notice" {
                @if repeat { "That form was already submitted; the secret was rotated once." }
                @else { "The secret of " (endpoint.url) " was rotated." }
            }
            p { "Copy it now into the shop's webhook settings: this page is the only place it is shown." }
            label for="secret" { "New signing secret" }
            input id="secret" class="secret" type="text" readonly value=(secret);
            p {
                @match until {
                    Some(until) => { "The previous secret keeps signing until " (until) "." }
                    None => "The previous secret no longer signs.",
                }
            }
            p { a href=(back) { "← The endpoint" } }
        },
    )
    .into_response())
}

/// After a redelivery: the audit line (not for a replay) and the event or endpoint page with
/// the count, or the refusal.
async fn finish(
    state: &DashboardState,
    actor: &Actor,
    answer: Response,
    action: &str,
    object: Object<'_>,
    detail: Option<String>,
) -> Result<Response, DashboardError> {
    let back = match object.kind {
        "event" => format!("/webhooks/events/{}", object.id),
        _ => format!("/webhooks/{}", object.id),
    };
    if answer.status() != StatusCode::OK {
        let refused = refusal(answer).await;
        record_on(state, actor, action, object, &refused.code, detail).await;
        return Err(refused.page("Sending again"));
    }
    if replayed(&answer) {
        return Ok(see_other(&format!("{back}?done=repeat")));
    }
    let count = body(answer).await?["deliveries"].as_u64().unwrap_or(0);
    let detail = Some(format!(
        "{}: {count} deliveries due",
        detail.unwrap_or_default()
    ));
    record_on(state, actor, action, object, "ok", detail).await;
    Ok(see_other(&format!("{back}?done={action}&count={count}")))
}

/// An instant of the range, typed as `datetime-local` in UTC.
fn instant(field: &str, text: &str) -> Result<OffsetDateTime, DashboardError> {
    let text = text.trim();
    PrimitiveDateTime::parse(text, format::INSTANT_FORMAT)
        .or_else(|_| PrimitiveDateTime::parse(text, MINUTE_FORMAT))
        .map(PrimitiveDateTime::assume_utc)
        .map_err(|_| DashboardError::bad(field, "must be a time as YYYY-MM-DDTHH:MM[:SS] (UTC)"))
}

/// An action on endpoint `id` needing `role`: checks the form's CSRF token and the role, loads
/// the endpoint, and reads the form's idempotency key.
async fn on_endpoint<'f>(
    state: &DashboardState,
    staff: &Staff,
    form: &'f WebhookForm,
    role: StaffRole,
    id: &str,
) -> Result<(WebhookEndpoint, &'f str), DashboardError> {
    staff.check_csrf(&form.csrf)?;
    staff.require(role)?;
    let endpoint = state
        .app
        .endpoints()
        .get(id)
        .await
        .map_err(DashboardError::from)?;
    Ok((endpoint, form_key(&form.idempotency_key)?))
}

/// The confirmation step: what will happen, and the same form with `confirm=yes`.
fn confirmation(
    staff: &Staff,
    what: &str,
    path: &str,
    back: &str,
    key: &str,
    form: &WebhookForm,
) -> Response {
    page(
        "Confirm",
        Some(staff),
        html! {
            p { (what) }
            form method="post" action=(path) {
                (csrf_field(staff))
                input type="hidden" name="idempotency_key" value=(key);
                input type="hidden" name="endpoint_id" value=(form.endpoint_id.trim());
                input type="hidden" name="from" value=(form.from.trim());
                input type="hidden" name="to" value=(form.to.trim());
                input type="hidden" name="overlap_hours" value=(form.overlap_hours.trim());
                input type="hidden" name="confirm" value="yes";
                button type="submit" class="danger" { "Yes, go ahead" }
                " "
                a href=(back) { "Back" }
            }
        },
    )
    .into_response()
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;

    use super::*;

    #[test]
    fn range_instants_are_utc_with_or_without_seconds() {
        assert_eq!(
            instant("from", "2026-01-31T09:05").expect("minutes"),
            datetime!(2026-01-31 09:05 UTC)
        );
        assert_eq!(
            instant("to", " 2026-01-31T09:05:07 ").expect("seconds"),
            datetime!(2026-01-31 09:05:07 UTC)
        );
        for bad in [
            "",
            "yesterday",
            "2026-01-31",
            "2026-13-01T00:00",
            "2026-01-31 09:05",
        ] {
            match instant("to", bad) {
                Err(DashboardError::BadRequest { field, .. }) => assert_eq!(field, "to", "{bad}"),
                other => panic!("{bad}: {other:?}"),
            }
        }
        let at = datetime!(2026-01-31 09:05:07 UTC);
        let text = at.format(format::INSTANT_FORMAT).expect("formats");
        assert_eq!(instant("from", &text).expect("parses back"), at);
    }
}
