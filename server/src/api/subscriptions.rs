//! Merchant API for subscriptions (`Authorization: Bearer <MERCHANT_SECRET_KEY>`):
//! - `GET /v1/subscriptions` (`customer_id`, `status`, `limit`, `after`) → `{data, next_cursor}`;
//! - `GET /v1/subscriptions/{id}` (`refresh=true` asks the gateway first) → the subscription
//!   with its billed cycles (`history`);
//! - `POST /v1/subscriptions/{id}/pause`, `/resume`, `/cancel` (empty body or `{}`;
//!   `Idempotency-Key` honoured) → the updated subscription. A transition the subscription's
//!   state does not allow is a 409 (`subscription_transition_refused`, `subscription_final`).

use axum::Router;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use checkout::contract::SubscriptionAction;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;

use super::auth::MerchantAuth;
use super::ids::known;
use super::json::{Json, MaybeJson};
use super::query;
use crate::store::model::subscription::parse_status;
use crate::store::model::{Subscription, SubscriptionQuery};
use crate::views::MerchantSubscription;
use crate::web::ApiFailure;
use crate::web::AppState;
use crate::web::idempotency::{Reply, run_idempotent};

/// The merchant's subscription routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/v1/subscriptions", get(list))
        .route("/v1/subscriptions/{id}", get(show))
        .route("/v1/subscriptions/{id}/pause", post(pause))
        .route("/v1/subscriptions/{id}/resume", post(resume))
        .route("/v1/subscriptions/{id}/cancel", post(cancel))
}

/// A page of subscriptions.
#[derive(Debug, Clone, Serialize)]
pub struct SubscriptionList {
    /// The subscriptions, newest first (without history).
    pub data: Vec<MerchantSubscription>,
    /// Pass as `after` for the next page; absent on the last.
    pub next_cursor: Option<String>,
}

/// The body of pause, resume and cancel: nothing, or an empty object.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoFields {}

async fn list(
    State(state): State<AppState>,
    _auth: MerchantAuth,
    RawQuery(query): RawQuery,
) -> Result<Json<SubscriptionList>, ApiFailure> {
    let query = subscription_query(query.as_deref().unwrap_or_default())?;
    let subscriptions = state.subscriptions();
    let page = subscriptions.list(query).await?;
    Ok(Json(SubscriptionList {
        data: page
            .items
            .iter()
            .map(|s| MerchantSubscription::new(s, subscriptions.catalogue_terms(s), None))
            .collect(),
        next_cursor: page.next.map(|c| c.to_string()),
    }))
}

async fn show(
    State(state): State<AppState>,
    _auth: MerchantAuth,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
) -> Result<Json<MerchantSubscription>, ApiFailure> {
    known(&id, "subscription")?;
    let refresh = refresh_flag(query.as_deref().unwrap_or_default())?;
    let subscriptions = state.subscriptions();
    let mut subscription = subscriptions.find(&id).await?;
    if refresh {
        subscription = subscriptions
            .poll(&subscription, OffsetDateTime::now_utc())
            .await?
            .0;
    }
    Ok(Json(detail(&state, &subscription).await?))
}

async fn pause(
    state: State<AppState>,
    auth: MerchantAuth,
    id: Path<String>,
    headers: HeaderMap,
    body: MaybeJson<NoFields>,
) -> Response {
    act(state, auth, id, headers, body, SubscriptionAction::Pause).await
}

async fn resume(
    state: State<AppState>,
    auth: MerchantAuth,
    id: Path<String>,
    headers: HeaderMap,
    body: MaybeJson<NoFields>,
) -> Response {
    act(state, auth, id, headers, body, SubscriptionAction::Resume).await
}

async fn cancel(
    state: State<AppState>,
    auth: MerchantAuth,
    id: Path<String>,
    headers: HeaderMap,
    body: MaybeJson<NoFields>,
) -> Response {
    act(state, auth, id, headers, body, SubscriptionAction::Cancel).await
}

async fn act(
    State(state): State<AppState>,
    _auth: MerchantAuth,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: MaybeJson<NoFields>,
    action: SubscriptionAction,
) -> Response {
    if let Err(unknown) = known(&id, "subscription") {
        return unknown.into_response();
    }
    let scope = format!("merchant:/v1/subscriptions/{id}/{}", action.as_str());
    let task_state = state.clone();
    run_idempotent(&state, &headers, scope, body.digest, move || async move {
        let subscriptions = task_state.subscriptions();
        let subscription = subscriptions.find(&id).await?;
        let updated = subscriptions.act(&subscription, action).await?;
        Reply::json(StatusCode::OK, &detail(&task_state, &updated).await?)
    })
    .await
}

/// The merchant's view of one subscription with its history.
async fn detail(
    state: &AppState,
    subscription: &Subscription,
) -> Result<MerchantSubscription, ApiFailure> {
    let subscriptions = state.subscriptions();
    let cycles = subscriptions.history(subscription).await?;
    Ok(MerchantSubscription::new(
        subscription,
        subscriptions.catalogue_terms(subscription),
        Some(&cycles),
    ))
}

/// Reads the list filters, naming the parameter at fault.
fn subscription_query(raw: &str) -> Result<SubscriptionQuery, ApiFailure> {
    let mut query = SubscriptionQuery::default();
    for (name, value) in query::pairs(raw)? {
        match name.as_str() {
            "customer_id" => {
                super::customer_id::check(&value)?;
                query.customer_id = Some(value);
            }
            "status" => {
                query.status = Some(parse_status(&value).ok_or_else(|| {
                    ApiFailure::invalid(
                        "invalid_field",
                        "status",
                        "status: must be active, paused, cancelled or expired",
                    )
                })?);
            }
            "limit" => query.limit = query::limit(&value)?,
            "after" => query.after = Some(query::cursor(&value)?),
            other => return Err(query::unknown(other)),
        }
    }
    Ok(query)
}

/// `refresh=true|false`, the only parameter of the single-subscription answer.
fn refresh_flag(raw: &str) -> Result<bool, ApiFailure> {
    let mut refresh = false;
    for (name, value) in query::pairs(raw)? {
        match (name.as_str(), value.as_str()) {
            ("refresh", "true") => refresh = true,
            ("refresh", "false") => refresh = false,
            ("refresh", _) => {
                return Err(ApiFailure::invalid(
                    "invalid_field",
                    "refresh",
                    "refresh: must be true or false",
                ));
            }
            (other, _) => return Err(query::unknown(other)),
        }
    }
    Ok(refresh)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_filters_name_the_bad_parameter() {
        let query = subscription_query("customer_id=c-1&status=paused&limit=5").expect("valid");
        assert_eq!(query.customer_id.as_deref(), Some("c-1"));
        assert_eq!(query.limit, 5);
        for (raw, field) in [
            ("status=gone", "status"),
            ("limit=0", "limit"),
            ("after=x", "after"),
            ("sort=asc", "sort"),
        ] {
            match subscription_query(raw) {
                Err(ApiFailure::BadRequest { field: Some(f), .. }) => assert_eq!(f, field),
                other => panic!("{raw}: {other:?}"),
            }
        }
        assert!(refresh_flag("refresh=true").expect("valid"));
        assert!(refresh_flag("refresh=yes").is_err());
    }
}
