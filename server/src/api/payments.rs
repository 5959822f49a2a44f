//! Merchant API, payments: list, get, and the money-moving operations.
//! - `GET /v1/payments?customer_id=&session_id=&payment_link_id=&state=&limit=&after=` → [`PaymentList`];
//! - `GET /v1/payments/{id}` → [`PaymentDetail`] (the payment and its webhook deliveries);
//! - `POST /v1/payments/{id}/capture`, `/refund` (`{amount?}`), `/void` → [`PaymentView`];
//!   `Idempotency-Key` honoured. A refund above what is left is a 409 naming `amount`.

use axum::Router;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;

use super::auth::MerchantAuth;
use super::ids::known;
use super::json::{Json, MaybeJson};
use super::query;
use crate::payments::adjust::Adjustment;
use crate::store::model::PaymentQuery;
use crate::store::transitions::parse_state;
use crate::views::{PaymentDetail, PaymentList, PaymentView};
use crate::web::ApiFailure;
use crate::web::AppState;
use crate::web::idempotency::{Reply, run_idempotent};

/// The payment routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/v1/payments", get(list))
        .route("/v1/payments/{id}", get(show))
        .route("/v1/payments/{id}/capture", post(capture))
        .route("/v1/payments/{id}/refund", post(refund))
        .route("/v1/payments/{id}/void", post(void))
}

/// Body of capture and refund: the amount in minor units, default all.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AmountBody {
    /// Minor units.
    #[serde(default, deserialize_with = "super::whole_number::optional")]
    pub amount: Option<u64>,
}

async fn list(
    State(state): State<AppState>,
    _auth: MerchantAuth,
    RawQuery(query): RawQuery,
) -> Result<Json<PaymentList>, ApiFailure> {
    let query = payment_query(query.as_deref().unwrap_or_default())?;
    let page = state.store.list_payments(query).await?;
    Ok(Json(PaymentList {
        data: page.items.iter().map(PaymentView::new).collect(),
        next_cursor: page.next.map(|c| c.to_string()),
    }))
}

async fn show(
    State(state): State<AppState>,
    _auth: MerchantAuth,
    Path(id): Path<String>,
) -> Result<Json<PaymentDetail>, ApiFailure> {
    known(&id, "payment")?;
    let payment = state
        .store
        .get_payment(&id)
        .await?
        .ok_or(ApiFailure::NotFound("payment"))?;
    let webhooks = state.store.list_webhooks(&payment.id).await?;
    Ok(Json(PaymentDetail::new(&payment, &webhooks)))
}

async fn capture(
    state: State<AppState>,
    auth: MerchantAuth,
    id: Path<String>,
    headers: HeaderMap,
    body: MaybeJson<AmountBody>,
) -> Response {
    let amount = body.value.as_ref().and_then(|b| b.amount);
    adjust(
        state,
        auth,
        id,
        headers,
        body,
        Adjustment::Capture(amount),
        "capture",
    )
    .await
}

async fn refund(
    state: State<AppState>,
    auth: MerchantAuth,
    id: Path<String>,
    headers: HeaderMap,
    body: MaybeJson<AmountBody>,
) -> Response {
    let amount = body.value.as_ref().and_then(|b| b.amount);
    adjust(
        state,
        auth,
        id,
        headers,
        body,
        Adjustment::Refund(amount),
        "refund",
    )
    .await
}

async fn void(
    state: State<AppState>,
    auth: MerchantAuth,
    id: Path<String>,
    headers: HeaderMap,
    body: MaybeJson<AmountBody>,
) -> Response {
    if body.value.as_ref().is_some_and(|b| b.amount.is_some()) {
        return axum::response::IntoResponse::into_response(ApiFailure::invalid(
            "invalid_field",
            "amount",
            "amount: a void releases the whole authorization",
        ));
    }
    adjust(state, auth, id, headers, body, Adjustment::Void, "void").await
}

async fn adjust(
    State(state): State<AppState>,
    _auth: MerchantAuth,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: MaybeJson<AmountBody>,
    adjustment: Adjustment,
    action: &str,
) -> Response {
    if let Err(unknown) = known(&id, "payment") {
        return unknown.into_response();
    }
    let scope = format!("merchant:/v1/payments/{id}/{action}");
    let payments = state.payments.clone();
    run_idempotent(&state, &headers, scope, body.digest, move || async move {
        let payment = payments.adjust(&id, adjustment).await?;
        Reply::json(StatusCode::OK, &PaymentView::new(&payment))
    })
    .await
}

/// Reads the list filters, naming the parameter at fault.
fn payment_query(raw: &str) -> Result<PaymentQuery, ApiFailure> {
    let mut query = PaymentQuery::default();
    for (name, value) in query::pairs(raw)? {
        match name.as_str() {
            "customer_id" => {
                super::customer_id::check(&value)?;
                query.customer_id = Some(value);
            }
            "session_id" => query.session_id = Some(value),
            "payment_link_id" => query.payment_link_id = Some(value),
            "state" => {
                query.state = Some(parse_state(&value).ok_or_else(|| {
                    ApiFailure::invalid("invalid_field", "state", "state: not a payment state")
                })?);
            }
            "limit" => query.limit = query::limit(&value)?,
            "after" => query.after = Some(query::cursor(&value)?),
            other => return Err(query::unknown(other)),
        }
    }
    Ok(query)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_filters() {
        let query = payment_query("state=captured&limit=5&customer_id=c%201").expect("valid");
        assert_eq!(query.limit, 5);
        assert_eq!(query.customer_id.as_deref(), Some("c 1"));
        for (raw, field) in [
            ("limit=0", "limit"),
            ("state=paid", "state"),
            ("after=x", "after"),
            ("sort=asc", "sort"),
        ] {
            match payment_query(raw) {
                Err(ApiFailure::BadRequest { field: Some(f), .. }) => assert_eq!(f, field),
                other => panic!("{raw}: {other:?}"),
            }
        }
    }
}
