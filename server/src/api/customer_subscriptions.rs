//! Customer self-service of subscriptions, for the component's management view, authorised by
//! `X-Customer-Token` ([`CustomerAuth`]). A customer sees and changes only their own
//! subscriptions: anyone else's answers 404, exactly like one that does not exist.
//! - `GET /v1/customer/subscriptions` → [`CustomerSubscriptions`];
//! - `GET /v1/customer/subscriptions/{id}` → [`SubscriptionView`];
//! - `POST /v1/customer/subscriptions/{id}/pause`, `/resume`, `/cancel` (empty body or `{}`;
//!   `Idempotency-Key` honoured) → the updated [`SubscriptionView`]; a refused transition is
//!   a 409.

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::routing::{get, post};
use checkout::contract::routes::CUSTOMER_SUBSCRIPTIONS_ROUTE;
use checkout::contract::{CustomerSubscriptions, SubscriptionAction, SubscriptionView};

use super::customer_tokens::CustomerAuth;
use super::json::{Json, MaybeJson};
use super::subscriptions::NoFields;
use crate::store::model::{MAX_PAGE_SIZE, Subscription, SubscriptionQuery};
use crate::views::customer_view;
use crate::web::ApiFailure;
use crate::web::AppState;
use crate::web::idempotency::{Reply, run_idempotent};

/// The customer's subscription routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route(CUSTOMER_SUBSCRIPTIONS_ROUTE, get(list))
        .route("/v1/customer/subscriptions/{id}", get(show))
        .route("/v1/customer/subscriptions/{id}/pause", post(pause))
        .route("/v1/customer/subscriptions/{id}/resume", post(resume))
        .route("/v1/customer/subscriptions/{id}/cancel", post(cancel))
}

async fn list(
    State(state): State<AppState>,
    customer: CustomerAuth,
) -> Result<Json<CustomerSubscriptions>, ApiFailure> {
    let subscriptions = state.subscriptions();
    let page = subscriptions
        .list(SubscriptionQuery {
            customer_id: Some(customer.customer_id),
            limit: MAX_PAGE_SIZE,
            ..SubscriptionQuery::default()
        })
        .await?;
    let mut views = Vec::with_capacity(page.items.len());
    for subscription in &page.items {
        views.push(view(&state, subscription).await?);
    }
    Ok(Json(CustomerSubscriptions {
        subscriptions: views,
    }))
}

async fn show(
    State(state): State<AppState>,
    customer: CustomerAuth,
    Path(id): Path<String>,
) -> Result<Json<SubscriptionView>, ApiFailure> {
    let subscription = state
        .subscriptions()
        .find_owned(&id, &customer.customer_id)
        .await?;
    Ok(Json(view(&state, &subscription).await?))
}

async fn pause(
    state: State<AppState>,
    customer: CustomerAuth,
    id: Path<String>,
    headers: HeaderMap,
    body: MaybeJson<NoFields>,
) -> Response {
    act(
        state,
        customer,
        id,
        headers,
        body,
        SubscriptionAction::Pause,
    )
    .await
}

async fn resume(
    state: State<AppState>,
    customer: CustomerAuth,
    id: Path<String>,
    headers: HeaderMap,
    body: MaybeJson<NoFields>,
) -> Response {
    act(
        state,
        customer,
        id,
        headers,
        body,
        SubscriptionAction::Resume,
    )
    .await
}

async fn cancel(
    state: State<AppState>,
    customer: CustomerAuth,
    id: Path<String>,
    headers: HeaderMap,
    body: MaybeJson<NoFields>,
) -> Response {
    act(
        state,
        customer,
        id,
        headers,
        body,
        SubscriptionAction::Cancel,
    )
    .await
}

async fn act(
    State(state): State<AppState>,
    customer: CustomerAuth,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: MaybeJson<NoFields>,
    action: SubscriptionAction,
) -> Response {
    let scope = format!(
        "customer:{}:/v1/customer/subscriptions/{id}/{}",
        customer.customer_id,
        action.as_str()
    );
    let task_state = state.clone();
    run_idempotent(&state, &headers, scope, body.digest, move || async move {
        let subscriptions = task_state.subscriptions();
        let subscription = subscriptions.find_owned(&id, &customer.customer_id).await?;
        let updated = subscriptions.act(&subscription, action).await?;
        Reply::json(StatusCode::OK, &view(&task_state, &updated).await?)
    })
    .await
}

async fn view(
    state: &AppState,
    subscription: &Subscription,
) -> Result<SubscriptionView, ApiFailure> {
    let subscriptions = state.subscriptions();
    let cycles = subscriptions.history(subscription).await?;
    let plan = subscriptions.terms(subscription).await?;
    Ok(customer_view(subscription, plan, &cycles))
}
