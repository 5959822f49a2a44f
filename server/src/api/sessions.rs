//! Merchant API, sessions: `POST /v1/sessions` (create; `Idempotency-Key` honoured) and
//! `GET /v1/sessions/{id}` (with its payments).
//!
//! Request `{amount, currency, reference, capture?, customer_id?, email?, plan_id?,
//! description?}`; answer 201 [`SessionView`] with `client_secret` (derived from the session
//! id, see [`super::client_secret`]; only its hash is stored). A plan session takes amount and currency from the plan (given ones must match)
//! and needs a customer.

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::routing::{get, post};
use secrecy::ExposeSecret as _;
use serde::Deserialize;

use super::auth::MerchantAuth;
use super::client_secret;
use super::customer_id;
use super::json::{Json, JsonWithDigest};
use crate::config::first_charge;
use crate::store::model::is_email;
use crate::store::model::session::MAX_REFERENCE_CHARS;
use crate::store::model::{CaptureMode, NewSession, new_session_id};
use crate::store::prelude::*;
use crate::views::SessionView;
use crate::web::ApiFailure;
use crate::web::AppState;
use crate::web::idempotency::{Reply, run_idempotent};
use checkout::currency::Currency;

/// The session routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/v1/sessions", post(create))
        .route("/v1/sessions/{id}", get(show))
}

/// Body of `POST /v1/sessions`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateSession {
    /// Minor units of `currency` (from the plan for a subscription).
    #[serde(default, deserialize_with = "super::whole_number::optional")]
    pub amount: Option<u64>,
    /// ISO 4217 code (from the plan for a subscription).
    #[serde(default)]
    pub currency: Option<String>,
    /// The shop's order reference, 1–45 characters.
    pub reference: String,
    /// Purchase (default) or authorization only.
    #[serde(default)]
    pub capture: Option<bool>,
    /// The shop's customer id (saved cards, subscriptions).
    #[serde(default)]
    pub customer_id: Option<String>,
    /// Customer e-mail.
    #[serde(default)]
    pub email: Option<String>,
    /// Plan id for a subscription.
    #[serde(default)]
    pub plan_id: Option<String>,
    /// Shown above the form.
    #[serde(default)]
    pub description: Option<String>,
}

async fn create(
    State(state): State<AppState>,
    _auth: MerchantAuth,
    headers: HeaderMap,
    body: JsonWithDigest<CreateSession>,
) -> Response {
    let task_state = state.clone();
    let response = run_idempotent(
        &state,
        &headers,
        "merchant:/v1/sessions".into(),
        body.digest,
        move || async move {
            let mut view = create_session(&task_state, body.value).await?;
            // Stored for replays without the secret; `reveal` adds it to every answer.
            view.client_secret = None;
            Reply::json(StatusCode::CREATED, &view)
        },
    )
    .await;
    client_secret::reveal(&state, response).await
}

async fn show(
    State(state): State<AppState>,
    _auth: MerchantAuth,
    Path(id): Path<String>,
) -> Result<Json<SessionView>, ApiFailure> {
    let session = state
        .store
        .get_session(&id)
        .await?
        .ok_or(ApiFailure::NotFound("session"))?;
    let keeper = state.payments.keeper(&id).await?;
    let payments = state.payments.session_payments(&id, 100).await?;
    Ok(Json(SessionView::new(
        &session,
        keeper.as_ref(),
        Some(&payments.items),
        now(),
    )))
}

/// Validates `request`, stores the session and returns its view with the client secret.
pub async fn create_session(
    state: &AppState,
    request: CreateSession,
) -> Result<SessionView, ApiFailure> {
    let new = validate(state, request)?;
    if let Some(plan_id) = &new.plan_id {
        // A customer whose sign-up to this plan is still unconfirmed, or who holds it already,
        // is refused here, before a form is shown (the pay call checks again, atomically).
        state
            .payments
            .check_signup(new.customer_id.as_deref(), plan_id)
            .await?;
    }
    let secret = client_secret::derive(&state.config.merchant.secret_key, &new.id);
    let session = state
        .store
        .create_session(NewSession {
            client_secret_hash: SecretHash::of(secret.expose_secret()),
            ..new
        })
        .await?;
    tracing::info!(session_id = %session.id, amount = session.amount, currency = %session.currency, "checkout session created");
    let mut view = SessionView::new(&session, None, None, now());
    view.client_secret = Some(secret.expose_secret().to_owned());
    Ok(view)
}

fn validate(state: &AppState, request: CreateSession) -> Result<NewSession, ApiFailure> {
    // The contract's length and pattern hold for the text as sent: a control character or a
    // length past the limit is refused also at the ends that trimming takes off.
    let reference = request.reference.trim().to_owned();
    if reference.is_empty()
        || request.reference.chars().count() > MAX_REFERENCE_CHARS
        || has_control(&request.reference)
    {
        return Err(invalid(
            "reference",
            "must be 1 to 45 characters without control characters",
        ));
    }
    let customer_id = request.customer_id.as_deref().map(|c| c.trim().to_owned());
    if let Some(id) = &customer_id {
        customer_id::check(id)?;
    }
    let email = request.email.as_deref().map(|e| e.trim().to_owned());
    if email.as_deref().is_some_and(|e| !is_email(e)) {
        return Err(invalid("email", "must be an e-mail address"));
    }
    let description = request
        .description
        .as_deref()
        .map(|d| d.trim().to_owned())
        .filter(|d| !d.is_empty());
    if request
        .description
        .as_deref()
        .is_some_and(|d| d.chars().count() > 255 || has_control(d))
    {
        return Err(invalid(
            "description",
            "must be at most 255 characters without control characters",
        ));
    }
    let (amount, currency, capture) = match &request.plan_id {
        Some(plan_id) => plan_terms(state, plan_id, &request, customer_id.is_some())?,
        None => {
            let currency = request
                .currency
                .as_deref()
                .ok_or_else(|| required("currency"))?;
            let Some(found) = Currency::find(currency) else {
                return Err(invalid(
                    "currency",
                    "must be an ISO 4217 code in upper case, e.g. EUR",
                ));
            };
            let amount = request.amount.ok_or_else(|| required("amount"))?;
            if amount == 0 || i64::try_from(amount).is_err() {
                return Err(invalid(
                    "amount",
                    "must be a positive whole number of minor units",
                ));
            }
            (
                amount,
                found.code.to_owned(),
                request.capture.unwrap_or(true),
            )
        }
    };
    Ok(NewSession {
        id: new_session_id(),
        client_secret_hash: SecretHash::of(""),
        amount,
        currency,
        reference,
        capture_mode: if capture {
            CaptureMode::Capture
        } else {
            CaptureMode::Authorize
        },
        customer_id,
        email,
        plan_id: request.plan_id,
        description,
        expires_at: crate::payments::later(state.config.timing.session_ttl),
        link: None,
    })
}

/// Amount, currency and capture mode of a plan session.
fn plan_terms(
    state: &AppState,
    plan_id: &str,
    request: &CreateSession,
    has_customer: bool,
) -> Result<(u64, String, bool), ApiFailure> {
    let plan = state.config.plans.get(plan_id).ok_or_else(|| {
        ApiFailure::invalid("unknown_plan", "plan_id", "no plan with this id is offered")
    })?;
    if !has_customer {
        return Err(ApiFailure::invalid(
            "required",
            "customer_id",
            "a subscription needs a customer",
        ));
    }
    if request.capture == Some(false) {
        return Err(invalid("capture", "a subscription is always a purchase"));
    }
    let amount = first_charge(plan);
    if request.amount.is_some_and(|a| a != amount) {
        return Err(invalid(
            "amount",
            "must equal the plan's first charge (or be left out)",
        ));
    }
    if request
        .currency
        .as_deref()
        .is_some_and(|c| c != plan.currency)
    {
        return Err(invalid(
            "currency",
            "must equal the plan's currency (or be left out)",
        ));
    }
    Ok((amount, plan.currency.clone(), true))
}

fn has_control(text: &str) -> bool {
    text.chars().any(char::is_control)
}

fn invalid(field: &str, message: &str) -> ApiFailure {
    ApiFailure::invalid("invalid_field", field, format!("{field}: {message}"))
}

fn required(field: &str) -> ApiFailure {
    ApiFailure::invalid("required", field, format!("{field}: is required"))
}

fn now() -> time::OffsetDateTime {
    time::OffsetDateTime::now_utc()
}
