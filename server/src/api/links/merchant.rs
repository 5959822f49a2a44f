//! Merchant API, payment links (`Authorization: Bearer <MERCHANT_SECRET_KEY>`):
//! - `POST /v1/payment_links` ([`CreatePaymentLink`]) → 201 [`PaymentLinkView`];
//!   `Idempotency-Key` honoured;
//! - `GET /v1/payment_links/{id}` → [`PaymentLinkView`];
//! - `GET /v1/payment_links?limit=&after=` → [`PaymentLinkList`] (newest first);
//! - `POST /v1/payment_links/{id}/deactivate` → [`PaymentLinkView`] (for good; again: the
//!   same answer).
//!
//! Bad input is a 400 naming the field. Payments made through a link are listed with
//! `GET /v1/payments?payment_link_id=`.

use axum::Router;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::routing::{get, post};

use super::request::CreatePaymentLink;
use crate::api::auth::MerchantAuth;
use crate::api::json::{Json, JsonWithDigest};
use crate::api::query;
use crate::store::model::PageCursor;
use crate::views::{PaymentLinkList, PaymentLinkView};
use crate::web::ApiFailure;
use crate::web::AppState;
use crate::web::idempotency::{Reply, run_idempotent};

/// The merchant's link routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/v1/payment_links", get(list).post(create))
        .route("/v1/payment_links/{id}", get(show))
        .route("/v1/payment_links/{id}/deactivate", post(deactivate))
}

async fn create(
    State(state): State<AppState>,
    _auth: MerchantAuth,
    headers: HeaderMap,
    body: JsonWithDigest<CreatePaymentLink>,
) -> Response {
    let task_state = state.clone();
    run_idempotent(
        &state,
        &headers,
        "merchant:/v1/payment_links".into(),
        body.digest,
        move || async move {
            let new = body
                .value
                .into_request()?
                .into_new(&task_state.config.plans)?;
            let link = task_state.links.create(new).await?;
            Reply::json(
                StatusCode::CREATED,
                &PaymentLinkView::new(&link, &task_state.urls),
            )
        },
    )
    .await
}

async fn show(
    State(state): State<AppState>,
    _auth: MerchantAuth,
    Path(id): Path<String>,
) -> Result<Json<PaymentLinkView>, ApiFailure> {
    let link = state.links.get(&id).await?;
    Ok(Json(PaymentLinkView::new(&link, &state.urls)))
}

async fn list(
    State(state): State<AppState>,
    _auth: MerchantAuth,
    RawQuery(raw): RawQuery,
) -> Result<Json<PaymentLinkList>, ApiFailure> {
    let (mut limit, mut after) = (0, None::<PageCursor>);
    for (name, value) in query::pairs(raw.as_deref().unwrap_or_default())? {
        match name.as_str() {
            "limit" => limit = query::limit(&value)?,
            "after" => after = Some(query::cursor(&value)?),
            other => return Err(query::unknown(other)),
        }
    }
    let page = state.links.list(limit, after).await?;
    Ok(Json(PaymentLinkList {
        data: page
            .items
            .iter()
            .map(|link| PaymentLinkView::new(link, &state.urls))
            .collect(),
        has_more: page.next.is_some(),
        next_cursor: page.next.map(|cursor| cursor.to_string()),
    }))
}

/// Deactivating is naturally idempotent (the link stays deactivated), so it takes no
/// `Idempotency-Key`.
async fn deactivate(
    State(state): State<AppState>,
    _auth: MerchantAuth,
    Path(id): Path<String>,
) -> Result<Json<PaymentLinkView>, ApiFailure> {
    let link = state.links.deactivate(&id).await?;
    Ok(Json(PaymentLinkView::new(&link, &state.urls)))
}
