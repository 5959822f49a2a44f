//! The 3DS return pages (`success_url` / `decline_url` of every payment):
//! `GET /checkout/return/{payment_id}/{success|decline}`.
//!
//! Which page the gateway sent the customer to is only a hint, like the `transaction_id` it
//! appends: the payment is settled through the status endpoint first, and the customer is
//! then redirected (303) to the shop's configured `SUCCESS_URL` or `DECLINE_URL` with
//! `checkout=paid|declined|processing`, `session_id` and `payment_id`. Once the session is
//! paid, the landing is `paid` and names the session's keeper (`payments::keeper`), whichever
//! attempt's return this was. The target is never
//! taken from the request, so there is no open redirect.
//!
//! In the shop page's 3-D Secure dialog (`Sec-Fetch-Dest: iframe`), the same settling is
//! followed by a small page that tells the dialog the bank's part is over instead of the
//! redirect ([`super::frame::bank_return`]): the shop's page never navigates.
//!
//! The page needs no credential, so what a visit may cost is bounded: a lookup only within
//! the [`LookupBudget`] (per payment and in all), and a hinted id that could not be looked up
//! is kept only as a hint, never as the payment's id (`payments::settle`).

use std::sync::Arc;

use axum::extract::{Path, RawQuery, State};
use axum::http::header::{CACHE_CONTROL, LOCATION, REFERRER_POLICY};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Extension, Router};
use checkout::contract::PaymentState;
use reqwest::Url;

use super::frame::bank_return::{framed_return, is_framed};
use crate::payments::urls::RETURN_ROUTE;
use crate::payments::{Hint, HintFrom, Landing, StatusVerdict};
use crate::store::model::Payment;
use crate::web::ApiFailure;
use crate::web::AppState;
use crate::web::protect::lookup_budget::LookupBudget;

/// The return routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route(RETURN_ROUTE, get(land))
        .layer(Extension(Arc::new(LookupBudget::default())))
}

async fn land(
    State(state): State<AppState>,
    Extension(budget): Extension<Arc<LookupBudget>>,
    Path((payment_id, outcome)): Path<(String, String)>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<Response, ApiFailure> {
    if outcome != "success" && outcome != "decline" {
        return Err(ApiFailure::NotFound("page"));
    }
    let payment = state
        .store
        .get_payment(&payment_id)
        .await?
        .ok_or(ApiFailure::NotFound("payment"))?;
    let named = query.as_deref().and_then(transaction_hint);
    let hint = named.as_deref().map(|id| Hint {
        id,
        from: HintFrom::ReturnVisit,
    });
    let payment = if payment.outcome_is_final() {
        payment
    } else if !budget.take(&payment.id) {
        tracing::warn!(payment_id = %payment.id, "return visits over their lookup budget; landing on the stored state");
        payment
    } else {
        settle(&state, payment, hint).await
    };
    // A paid session lands as paid, naming its keeper: never a payment being reversed (a
    // late approval of an attempt the shopper left), whatever this payment's own end.
    let keeper = state.payments.keeper(&payment.session_id).await?;
    let (landing, named) = match (&keeper, payment.state) {
        (Some(keeper), _) => (Landing::Paid, keeper.payment_id.as_str()),
        (None, PaymentState::Declined | PaymentState::Failed | PaymentState::Blocked) => {
            (Landing::Declined, payment.id.as_str())
        }
        (None, _) => (Landing::Processing, payment.id.as_str()),
    };
    tracing::info!(payment_id = %payment.id, page = %outcome, landing = ?landing, paid_by = ?keeper.as_ref().map(|k| &k.payment_id), "customer returned from 3DS");
    let target = state.urls.landing(landing, &payment.session_id, named);
    if is_framed(&headers) {
        return Ok(framed_return(&state, &target));
    }
    let location = HeaderValue::from_str(&target)
        .map_err(|_| ApiFailure::Internal("a landing URL is not a valid header".into()))?;
    Ok((
        StatusCode::SEE_OTHER,
        [
            (LOCATION, location),
            (CACHE_CONTROL, HeaderValue::from_static("no-store")),
            (REFERRER_POLICY, HeaderValue::from_static("no-referrer")),
        ],
    )
        .into_response())
}

/// `payment` after a settle attempt with `hint` (as it was, if the attempt failed).
async fn settle(state: &AppState, payment: Payment, hint: Option<Hint<'_>>) -> Payment {
    match state.payments.settle(&payment.id, hint).await {
        Ok(settlement) => {
            if let StatusVerdict::Mismatch(reason) = settlement.verdict {
                tracing::warn!(payment_id = %payment.id, reason, "return visit names a transaction that does not match");
            }
            settlement.payment
        }
        Err(error) => {
            tracing::error!(payment_id = %payment.id, %error, "could not settle on the return visit");
            payment
        }
    }
}

/// The `transaction_id` query parameter, if any.
fn transaction_hint(raw: &str) -> Option<String> {
    let url = Url::parse(&format!("http://query.invalid/?{raw}")).ok()?;
    url.query_pairs()
        .find(|(name, _)| name == "transaction_id")
        .map(|(_, value)| value.into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_hint() {
        assert_eq!(
            transaction_hint("transaction_id=abc&merchant_txn_ref=o%201").as_deref(),
            Some("abc")
        );
        assert_eq!(transaction_hint("x=1"), None);
    }
}
