//! The gateway webhook: `POST /hooks/gateway/{payment_id}/{token}`, one unguessable path per
//! payment (the token is compared in constant time; a wrong one looks like an unknown path).
//!
//! The delivery is recorded and answered `200` at once; it is judged on a background task
//! (status lookup, amount and currency check, verdict), so a slow gateway lookup never makes
//! the sender time out and retry. A repeated body is recorded as a duplicate and changes
//! nothing.

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::routing::post;
use serde_json::{Value, json};

use super::json::Json;
use crate::payments::urls::WEBHOOK_ROUTE;
use crate::payments::webhook::WebhookClaim;
use crate::store::model::WebhookReceipt;
use crate::web::ApiFailure;
use crate::web::AppState;

/// The webhook route.
pub fn routes() -> Router<AppState> {
    Router::new().route(WEBHOOK_ROUTE, post(receive))
}

async fn receive(
    State(state): State<AppState>,
    Path((payment_id, token)): Path<(String, String)>,
    body: Bytes,
) -> Result<Json<Value>, ApiFailure> {
    let payment = match state.store.get_payment(&payment_id).await? {
        Some(payment) if payment.verify_webhook_token(&token) => payment,
        _ => return Err(ApiFailure::NotFound("endpoint")),
    };
    let claim = WebhookClaim::read(&body, payment.kind);
    match state
        .payments
        .record_webhook(&payment, &body, &claim)
        .await?
    {
        WebhookReceipt::Duplicate { event, original } => {
            tracing::info!(payment_id = %payment.id, event_id = event.id, original_id = original.id, "duplicate webhook ignored");
        }
        WebhookReceipt::First(event) => {
            tracing::info!(payment_id = %payment.id, event_id = event.id, claimed = ?claim.state, "webhook received");
            let payments = state.payments.clone();
            state.tasks.spawn(async move {
                match payments.judge_webhook(&event, claim).await {
                    Ok(verdict) => {
                        tracing::info!(payment_id = %event.payment_id, event_id = event.id, verdict = verdict.as_str(), "webhook judged")
                    }
                    Err(error) => {
                        tracing::error!(payment_id = %event.payment_id, event_id = event.id, %error, "could not judge a webhook")
                    }
                }
            });
        }
    }
    Ok(Json(json!({ "received": true })))
}
