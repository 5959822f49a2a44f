//! `POST /pay/{public_id}/session`: the payer pressed Pay on a link's page. The body
//! ([`StartLinkSession`]) is what they entered; the server checks it against the link (a 400
//! names the field: a payer-chosen amount outside its bounds is refused here, whatever the
//! page allowed), prices the session and answers 201 [`StartedLinkSession`]: the session and
//! its client secret for the card form, and where the payer goes after paying. An unknown link
//! is a 404; a deactivated, expired or used-up one a 410 naming why.
//!
//! Loading the page makes no session: only this call does, and every call takes from a limit
//! per client (`web/protect/rate_limit.rs`, `PAY_RATE_LIMIT_PER_IP` starts a minute).

use axum::Router;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::post;
use checkout::contract::Address;
use secrecy::ExposeSecret as _;
use serde::{Deserialize, Serialize};

use crate::api::json::Json;
use crate::payments::links::PayerInput;
use crate::payments::urls::LINK_SESSION_ROUTE;
use crate::store::model::AfterPayment;
use crate::web::ApiFailure;
use crate::web::AppState;

/// The payer's route.
pub fn routes() -> Router<AppState> {
    Router::new().route(LINK_SESSION_ROUTE, post(start))
}

/// Body of `POST /pay/{public_id}/session`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartLinkSession {
    /// The amount chosen (minor units), for a link whose payer chooses.
    #[serde(default, deserialize_with = "crate::api::whole_number::optional")]
    pub amount: Option<u64>,
    /// How many (1 when left out).
    #[serde(default, deserialize_with = "crate::api::whole_number::optional")]
    pub quantity: Option<u64>,
    /// The payer's e-mail.
    #[serde(default)]
    pub email: Option<String>,
    /// The payer's own reference.
    #[serde(default)]
    pub payer_reference: Option<String>,
    /// The billing address, when the link asks for billing fields.
    #[serde(default)]
    pub billing_address: Option<Address>,
}

/// Answer of `POST /pay/{public_id}/session`.
#[derive(Debug, Clone, Serialize)]
pub struct StartedLinkSession {
    /// The checkout session to pay (`/v1/checkout/{session_id}/pay`).
    pub session_id: String,
    /// Its client secret (`X-Client-Secret`).
    pub client_secret: String,
    /// What it charges, minor units.
    pub amount: u64,
    /// ISO 4217 code.
    pub currency: String,
    /// The receipt page's address, the payer's to keep (shown after paying).
    pub receipt_url: String,
    /// `receipt` or `redirect`.
    pub after_payment: &'static str,
    /// Where to send the payer after paying, with `after_payment` `redirect`: the shop's page
    /// with `payment_link_id` and `session_id` added (the page adds `payment_id` once paid).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub redirect_url: Option<String>,
}

async fn start(
    State(state): State<AppState>,
    Path(public_id): Path<String>,
    Json(body): Json<StartLinkSession>,
) -> Result<(StatusCode, axum::Json<StartedLinkSession>), ApiFailure> {
    let quantity = body
        .quantity
        .map(|n| {
            u32::try_from(n).map_err(|_| {
                ApiFailure::invalid("invalid_request", "quantity", "quantity: is too large")
            })
        })
        .transpose()?;
    let input = PayerInput {
        amount: body.amount,
        quantity,
        email: body.email,
        payer_reference: body.payer_reference,
        billing_address: body.billing_address,
    };
    let started = state.links.start_checkout(&public_id, input).await?;
    let (after_payment, redirect_url) = match started.after_payment {
        AfterPayment::Receipt => ("receipt", None),
        AfterPayment::Redirect(url) => ("redirect", Some(url)),
    };
    Ok((
        StatusCode::CREATED,
        axum::Json(StartedLinkSession {
            receipt_url: state.urls.receipt_page(&started.receipt_id),
            session_id: started.session_id,
            client_secret: started.client_secret.expose_secret().to_owned(),
            amount: started.amount,
            currency: started.currency,
            after_payment,
            redirect_url,
        }),
    ))
}
