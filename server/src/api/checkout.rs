//! Browser API, authorised by the session's client secret (`X-Client-Secret`):
//! - `GET /v1/checkout/{session_id}` → [`CheckoutView`] (amount, kind, plan terms, saved cards);
//! - `POST /v1/checkout/{session_id}/pay` ([`PayRequest`] → [`PayResponse`]; `Idempotency-Key`
//!   honoured; `customer_ip` from the connection, `acceptHeader` from this request's `Accept`);
//! - `GET /v1/checkout/{session_id}/result` → [`PaymentResult`].
//!
//! The pay call reads the session and the saved card it names in one query, so its body is
//! read before the secret is checked; the answers keep the order of the other routes (a bad
//! secret is refused before a bad body is reported).

use axum::Router;
use axum::extract::{FromRequestParts, Path, State};
use axum::http::header::ACCEPT;
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use checkout::contract::routes::{CHECKOUT_ROUTE, CLIENT_SECRET_HEADER, PAY_ROUTE, RESULT_ROUTE};
use checkout::contract::{CheckoutKind, CheckoutView, PayRequest, PaymentResult, SavedCard};

use super::json::Json;
use super::pay_digest::pay_digest;
use crate::payments::Shopper;
use crate::payments::pay_method::{BILLING_FIELDS, SavedCardLookup};
use crate::payments::request::first_missing;
use crate::store::model::Session;
use crate::web::ApiFailure;
use crate::web::AppState;
use crate::web::ClientIp;
use crate::web::idempotency::{Reply, run_idempotent};
use checkout::currency::Currency;

/// The browser routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route(CHECKOUT_ROUTE, get(view))
        .route(PAY_ROUTE, post(pay))
        .route(RESULT_ROUTE, get(result))
}

/// The session named in the path, after its client secret was checked (constant time).
#[derive(Debug, Clone)]
pub struct CheckoutSession(pub Session);

impl FromRequestParts<AppState> for CheckoutSession {
    type Rejection = ApiFailure;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let credentials = Credentials::from_request_parts(parts, state).await?;
        credentials.session(state).await.map(Self)
    }
}

/// The session id in the path and the client secret presented for it, not yet checked.
struct Credentials {
    session_id: String,
    presented: String,
}

impl Credentials {
    /// The session, read and checked.
    async fn session(&self, state: &AppState) -> Result<Session, ApiFailure> {
        let found = state.store.get_session(&self.session_id).await?;
        self.verify(found)
    }

    /// `found` (the session read for `session_id`) if the presented secret is its own.
    fn verify(&self, found: Option<Session>) -> Result<Session, ApiFailure> {
        match found {
            Some(session) if session.verify_client_secret(&self.presented) => Ok(session),
            _ => Err(refused()),
        }
    }
}

impl FromRequestParts<AppState> for Credentials {
    type Rejection = ApiFailure;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let Path(session_id) = Path::<String>::from_request_parts(parts, state)
            .await
            .map_err(|_| ApiFailure::NotFound("session"))?;
        let Some(presented) = parts
            .headers
            .get(CLIENT_SECRET_HEADER)
            .and_then(|v| v.to_str().ok())
        else {
            return Err(ApiFailure::Unauthorized {
                code: "missing_client_secret",
                message: "send the session's client secret in X-Client-Secret",
                challenge: None,
            });
        };
        if session_id.len() > 64 {
            return Err(refused());
        }
        Ok(Self {
            session_id,
            presented: presented.to_owned(),
        })
    }
}

fn refused() -> ApiFailure {
    ApiFailure::Unauthorized {
        code: "invalid_client_secret",
        message: "the session id or its client secret is not valid",
        challenge: None,
    }
}

async fn view(
    State(state): State<AppState>,
    CheckoutSession(session): CheckoutSession,
) -> Result<Json<CheckoutView>, ApiFailure> {
    checkout_view(&state, &session).await.map(Json)
}

/// `session` when `presented` is its client secret (the check `X-Client-Secret` gets).
pub async fn verified_session(
    state: &AppState,
    session_id: &str,
    presented: &str,
) -> Result<Session, ApiFailure> {
    let credentials = Credentials {
        session_id: session_id.to_owned(),
        presented: presented.to_owned(),
    };
    credentials.session(state).await
}

/// What every session's view shares, before any session is known (the frame's cacheable
/// shell, [`crate::api::frame::shell`]): the shop's name and the billing fields of a one-off
/// payment, no amount (an empty currency), no saved cards.
pub fn shell_view(state: &AppState) -> CheckoutView {
    CheckoutView {
        id: String::new(),
        amount: 0,
        currency: String::new(),
        currency_exponent: 0,
        description: None,
        merchant_name: state.config.merchant.name.clone(),
        kind: CheckoutKind::Payment,
        billing_fields: BILLING_FIELDS.to_vec(),
        saved_cards: Vec::new(),
        can_save_card: false,
    }
}

/// The public view of `session`: amount, kind, plan terms, the customer's saved cards.
pub async fn checkout_view(
    state: &AppState,
    session: &Session,
) -> Result<CheckoutView, ApiFailure> {
    let kind = match &session.plan_id {
        Some(plan_id) => CheckoutKind::Subscription {
            plan: state.config.plans.get(plan_id).cloned().ok_or_else(|| {
                ApiFailure::conflict(
                    "plan_unavailable",
                    "the session's plan is no longer offered",
                )
            })?,
        },
        None => CheckoutKind::Payment,
    };
    let saved_cards = match (&session.customer_id, &session.plan_id) {
        (Some(customer_id), None) => state
            .store
            .list_cards(customer_id)
            .await?
            .iter()
            .map(|card| SavedCard {
                billing_on_file: card
                    .billing
                    .as_deref()
                    .is_some_and(|kept| first_missing(kept, &BILLING_FIELDS).is_none()),
                ..SavedCard::from(card)
            })
            .collect(),
        _ => Vec::new(),
    };
    Ok(CheckoutView {
        id: session.id.clone(),
        amount: session.amount,
        currency: session.currency.clone(),
        currency_exponent: Currency::find(&session.currency).map_or(2, |c| c.exponent),
        description: session.description.clone(),
        merchant_name: state.config.merchant.name.clone(),
        kind,
        billing_fields: BILLING_FIELDS.to_vec(),
        saved_cards,
        can_save_card: session.customer_id.is_some() && session.plan_id.is_none(),
    })
}

async fn pay(
    State(state): State<AppState>,
    credentials: Credentials,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    body: Result<Json<PayRequest>, ApiFailure>,
) -> Response {
    let card_id = body
        .as_ref()
        .ok()
        .and_then(|Json(request)| request.saved_card_id.as_deref());
    let id = &credentials.session_id;
    let (found, lookup) = match card_id {
        Some(card_id) => match state.store.get_session_with_card(id, card_id).await {
            Ok(Some((session, card))) => (Some(session), SavedCardLookup::Read(card)),
            Ok(None) => (None, SavedCardLookup::NotRead),
            Err(error) => return ApiFailure::from(error).into_response(),
        },
        None => match state.store.get_session(id).await {
            Ok(found) => (found, SavedCardLookup::NotRead),
            Err(error) => return ApiFailure::from(error).into_response(),
        },
    };
    let session = match credentials.verify(found) {
        Ok(session) => session,
        Err(refusal) => return refusal.into_response(),
    };
    let (request, digest) = match body.and_then(|Json(request)| {
        let digest = pay_digest(&request)?;
        Ok((request, digest))
    }) {
        Ok(read) => read,
        Err(failure) => return failure.into_response(),
    };
    let shopper = Shopper::new(ip, headers.get(ACCEPT).and_then(|v| v.to_str().ok()));
    let scope = format!("pay:{}", session.id);
    let payments = state.payments.clone();
    run_idempotent(&state, &headers, scope, digest, move || async move {
        let answer = payments
            .pay_with(&session, &request, &shopper, lookup)
            .await?;
        Reply::json(StatusCode::OK, &answer)
    })
    .await
}

async fn result(
    State(state): State<AppState>,
    CheckoutSession(session): CheckoutSession,
) -> Result<Json<PaymentResult>, ApiFailure> {
    Ok(Json(state.payments.result(&session).await?))
}
