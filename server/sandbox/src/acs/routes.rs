//! The ACS page's routes: `GET /sandbox/acs?_token=…` shows the challenge (or passes a
//! frictionless payment straight through) and `POST /sandbox/acs` takes the cardholder's
//! choice. Both answer with a 303 to the merchant's return address once decided. The pages
//! may be shown in a frame by the configured shop origins, unless a `refuse-framing` fault is
//! armed (for `acs`, or named in the starting call's `x-sandbox-fault` header).

use axum::Router;
use axum::extract::rejection::{FormRejection, QueryRejection};
use axum::extract::{Form, Query, State};
use axum::http::HeaderValue;
use axum::http::StatusCode;
use axum::http::header::CACHE_CONTROL;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use serde::Deserialize;

use super::page::{ChallengePage, challenge, message};
use crate::acs_sessions::{AcsSession, DecisionRefused};
use crate::faults::Fault;
use crate::state::SandboxState;
use crate::three_ds::{ACS_PATH, Choice, DecideError, decide};

/// The ACS routes (no API credentials: the cardholder's browser calls them).
pub fn routes() -> Router<SandboxState> {
    Router::new().route(ACS_PATH, get(show).post(submit))
}

#[derive(Debug, Deserialize)]
struct TokenQuery {
    #[serde(rename = "_token")]
    token: Option<String>,
}

#[derive(Debug, Deserialize)]
struct DecisionForm {
    #[serde(rename = "_token")]
    token: String,
    decision: String,
}

async fn show(
    State(state): State<SandboxState>,
    query: Result<Query<TokenQuery>, QueryRejection>,
) -> Response {
    let Some(token) = query.ok().and_then(|Query(query)| query.token) else {
        return message(
            StatusCode::BAD_REQUEST,
            "Link incomplete",
            "This authentication link has no token.",
            &frame_ancestors(&state, None),
        );
    };
    let session = state.acs.get(&token);
    let ancestors = frame_ancestors(&state, session.as_ref());
    let Some(session) = session else {
        return unknown_link(&ancestors);
    };
    if session.decided {
        return already_decided(&ancestors);
    }
    if !session.challenge {
        return finish(&state, &token, Choice::Approve, &ancestors);
    }
    let Some(record) = state.ledger.get(&session.transaction_id) else {
        return unknown_link(&ancestors);
    };
    let amount = record.currency.format_minor(record.amount);
    let masked = &record.card.masked_number;
    let last4 = masked
        .get(masked.len().saturating_sub(4)..)
        .unwrap_or_default();
    let card = format!("{} •••• {last4}", record.card.scheme);
    let action = state.config.public_url(ACS_PATH);
    challenge(&ChallengePage {
        merchant: &state.config.merchant_legal_name,
        amount: &amount,
        card: &card,
        action: &action,
        token: &token,
        frame_ancestors: &ancestors,
    })
}

/// Who may frame this view of the page: nobody when a `refuse-framing` fault is armed or the
/// session's starting call asked for one, else the configured shop origins.
fn frame_ancestors(state: &SandboxState, session: Option<&AcsSession>) -> String {
    let armed = !state.faults.take_page().is_empty();
    let asked = session.is_some_and(|s| s.webhook_faults.contains(&Fault::RefuseFraming));
    state.config.acs_frame_ancestors(armed || asked)
}

async fn submit(
    State(state): State<SandboxState>,
    form: Result<Form<DecisionForm>, FormRejection>,
) -> Response {
    let ancestors = state.config.acs_frame_ancestors(false);
    let Ok(Form(form)) = form else {
        return message(
            StatusCode::BAD_REQUEST,
            "Form incomplete",
            "The form must carry a token and a decision.",
            &ancestors,
        );
    };
    let choice = match form.decision.as_str() {
        "approve" => Choice::Approve,
        "reject" => Choice::Reject,
        _ => {
            return message(
                StatusCode::BAD_REQUEST,
                "Unknown choice",
                "The decision must be approve or reject.",
                &ancestors,
            );
        }
    };
    match state.acs.get(&form.token) {
        Some(session) if session.challenge => finish(&state, &form.token, choice, &ancestors),
        Some(session) if session.decided => already_decided(&ancestors),
        // A frictionless payment has no choice to make: it passes on its first visit.
        Some(_) => finish(&state, &form.token, Choice::Approve, &ancestors),
        None => unknown_link(&ancestors),
    }
}

fn finish(state: &SandboxState, token: &str, choice: Choice, ancestors: &str) -> Response {
    match decide(state, token, choice) {
        Ok(target) => {
            let mut response = Redirect::to(&target).into_response();
            response
                .headers_mut()
                .insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
            response
        }
        Err(DecideError::Refused(DecisionRefused::AlreadyDecided)) => already_decided(ancestors),
        Err(DecideError::Refused(DecisionRefused::Unknown)) => unknown_link(ancestors),
        Err(DecideError::TransactionMissing) => {
            tracing::error!("a 3DS session points at a transaction the ledger does not hold");
            message(
                StatusCode::INTERNAL_SERVER_ERROR,
                "Something went wrong",
                "The payment could not be completed.",
                ancestors,
            )
        }
    }
}

fn unknown_link(ancestors: &str) -> Response {
    message(
        StatusCode::NOT_FOUND,
        "Link not valid",
        "This authentication link is not valid.",
        ancestors,
    )
}

fn already_decided(ancestors: &str) -> Response {
    message(
        StatusCode::CONFLICT,
        "Already completed",
        "This payment's authentication was already completed; it cannot be decided again.",
        ancestors,
    )
}
