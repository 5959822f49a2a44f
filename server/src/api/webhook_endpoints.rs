//! Merchant API, the shop's webhook endpoints (`Authorization: Bearer <MERCHANT_SECRET_KEY>`):
//! - `POST /v1/webhook_endpoints` `{url, event_types?, description?}` → 201 [`EndpointView`]
//!   with `secret` (`whsec_…`, shown here and on rotation only);
//! - `GET /v1/webhook_endpoints` → `{data, has_more, next_cursor}` (all of them);
//! - `GET /v1/webhook_endpoints/{id}` → the endpoint;
//! - `POST /v1/webhook_endpoints/{id}` `{url?, description?, event_types?, status?}` → the
//!   endpoint (`status`: `enabled` clears its failure record, `disabled` stops deliveries);
//! - `DELETE /v1/webhook_endpoints/{id}` → 204, with its deliveries and their log;
//! - `POST /v1/webhook_endpoints/{id}/rotate_secret` `{overlap_seconds?}` → the endpoint with
//!   its new `secret`; the old one keeps signing for the overlap (default a day, at most 7).
//!
//! The POSTs honour `Idempotency-Key`. Bad input is a 400 naming the field; an unknown id 404.
//! The rules live in [`crate::events::endpoints`].

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse as _, Response};
use axum::routing::{get, post};
use serde::{Deserialize, Deserializer};
use time::{Duration, OffsetDateTime};

use super::auth::MerchantAuth;
use super::ids::known;
use super::json::{Json, JsonWithDigest, MaybeJson};
use crate::events::endpoints::{EndpointChanges, EndpointRequest};
use crate::store::model::EndpointStatus;
use crate::views::{EndpointList, EndpointView};
use crate::web::ApiFailure;
use crate::web::AppState;
use crate::web::endpoint_secret::{self, IssuedSecret};
use crate::web::idempotency::{Reply, run_idempotent};

/// The webhook endpoint routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/v1/webhook_endpoints", post(create).get(list))
        .route(
            "/v1/webhook_endpoints/{id}",
            get(show).post(update).delete(remove),
        )
        .route("/v1/webhook_endpoints/{id}/rotate_secret", post(rotate))
}

/// Body of `POST /v1/webhook_endpoints`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateEndpoint {
    /// Where events go: http or https.
    pub url: String,
    /// The types wanted (`["*"]` or absent: all).
    #[serde(default)]
    pub event_types: Option<Vec<String>>,
    /// A note.
    #[serde(default)]
    pub description: Option<String>,
}

/// Body of `POST /v1/webhook_endpoints/{id}`: the fields to change.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UpdateEndpoint {
    /// A new URL.
    #[serde(default)]
    pub url: Option<String>,
    /// A new note; `null` removes it.
    #[serde(default, deserialize_with = "present")]
    pub description: Option<Option<String>>,
    /// New types.
    #[serde(default)]
    pub event_types: Option<Vec<String>>,
    /// `enabled` or `disabled`.
    #[serde(default)]
    pub status: Option<StatusName>,
}

/// An endpoint status as the API writes it.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StatusName {
    /// Receives events.
    Enabled,
    /// Receives none.
    Disabled,
}

/// Body of `POST /v1/webhook_endpoints/{id}/rotate_secret`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RotateSecret {
    /// How long the old secret keeps signing, seconds (default 86400, at most 604800).
    #[serde(default, deserialize_with = "super::whole_number::optional")]
    pub overlap_seconds: Option<u64>,
}

/// A field that is present (even as `null`) is `Some`: `Some(None)` is an explicit `null`.
fn present<'de, D, T>(deserializer: D) -> Result<Option<Option<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(deserializer).map(Some)
}

async fn create(
    State(state): State<AppState>,
    _auth: MerchantAuth,
    headers: HeaderMap,
    body: JsonWithDigest<CreateEndpoint>,
) -> Response {
    let issued = IssuedSecret::default();
    let slot = issued.clone();
    let task_state = state.clone();
    let response = run_idempotent(
        &state,
        &headers,
        "merchant:/v1/webhook_endpoints".into(),
        body.digest,
        move || async move {
            let request = body.value;
            let endpoint = task_state
                .endpoints()
                .create(EndpointRequest {
                    url: request.url,
                    event_types: request.event_types,
                    description: request.description,
                })
                .await?;
            tracing::info!(endpoint_id = %endpoint.id, "webhook endpoint created");
            endpoint_secret::reply(StatusCode::CREATED, &endpoint, &slot)
        },
    )
    .await;
    endpoint_secret::reveal(&state, response, issued).await
}

async fn list(
    State(state): State<AppState>,
    _auth: MerchantAuth,
) -> Result<Json<EndpointList>, ApiFailure> {
    let now = OffsetDateTime::now_utc();
    let all = state.endpoints().list().await?;
    Ok(Json(EndpointList {
        data: all.iter().map(|e| EndpointView::new(e, now)).collect(),
        has_more: false,
        next_cursor: None,
    }))
}

async fn show(
    State(state): State<AppState>,
    _auth: MerchantAuth,
    Path(id): Path<String>,
) -> Result<Json<EndpointView>, ApiFailure> {
    known(&id, "webhook endpoint")?;
    let endpoint = state.endpoints().get(&id).await?;
    Ok(Json(EndpointView::new(
        &endpoint,
        OffsetDateTime::now_utc(),
    )))
}

async fn update(
    State(state): State<AppState>,
    _auth: MerchantAuth,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: JsonWithDigest<UpdateEndpoint>,
) -> Response {
    if let Err(unknown) = known(&id, "webhook endpoint") {
        return unknown.into_response();
    }
    let scope = format!("merchant:/v1/webhook_endpoints/{id}");
    let task_state = state.clone();
    run_idempotent(&state, &headers, scope, body.digest, move || async move {
        let changes = body.value;
        let endpoint = task_state
            .endpoints()
            .update(
                &id,
                EndpointChanges {
                    url: changes.url,
                    description: changes.description,
                    event_types: changes.event_types,
                    status: changes.status.map(|status| match status {
                        StatusName::Enabled => EndpointStatus::Enabled,
                        StatusName::Disabled => EndpointStatus::Disabled,
                    }),
                },
            )
            .await?;
        tracing::info!(endpoint_id = %endpoint.id, "webhook endpoint updated");
        Reply::json(
            StatusCode::OK,
            &EndpointView::new(&endpoint, OffsetDateTime::now_utc()),
        )
    })
    .await
}

/// Deleting is naturally idempotent (a second call is a 404 and changes nothing), so it takes
/// no `Idempotency-Key`.
async fn remove(
    State(state): State<AppState>,
    _auth: MerchantAuth,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiFailure> {
    known(&id, "webhook endpoint")?;
    state.endpoints().delete(&id).await?;
    tracing::info!(endpoint_id = %id, "webhook endpoint deleted");
    Ok(StatusCode::NO_CONTENT)
}

async fn rotate(
    State(state): State<AppState>,
    _auth: MerchantAuth,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: MaybeJson<RotateSecret>,
) -> Response {
    if let Err(unknown) = known(&id, "webhook endpoint") {
        return unknown.into_response();
    }
    let scope = format!("merchant:/v1/webhook_endpoints/{id}/rotate_secret");
    let issued = IssuedSecret::default();
    let slot = issued.clone();
    let task_state = state.clone();
    let response = run_idempotent(&state, &headers, scope, body.digest, move || async move {
        let overlap = body
            .value
            .unwrap_or_default()
            .overlap_seconds
            // Past i64 seconds the overlap is out of range anyway; `rotate` refuses it.
            .map(|seconds| Duration::seconds(i64::try_from(seconds).unwrap_or(i64::MAX)));
        let endpoint = task_state
            .endpoints()
            .rotate(&id, overlap, OffsetDateTime::now_utc())
            .await?;
        tracing::info!(endpoint_id = %endpoint.id, "webhook endpoint secret rotated");
        endpoint_secret::reply(StatusCode::OK, &endpoint, &slot)
    })
    .await;
    endpoint_secret::reveal(&state, response, issued).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_null_description_is_told_from_an_absent_one() {
        let absent: UpdateEndpoint = serde_json::from_str("{}").expect("valid");
        assert_eq!(absent.description, None);
        let null: UpdateEndpoint = serde_json::from_str(r#"{"description": null}"#).expect("valid");
        assert_eq!(null.description, Some(None));
        let text: UpdateEndpoint =
            serde_json::from_str(r#"{"description": "orders"}"#).expect("valid");
        assert_eq!(text.description, Some(Some("orders".into())));
    }
}
