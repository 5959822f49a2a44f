//! Pause, resume, cancel, retrieve and list.
//!
//! Every handler first bills what is due on the subscriptions it shows (see [`crate::billing`]).
//! Pause, resume and cancel answer 200 with `INFO3000` and the subscription (Detail view); a
//! transition the status does not allow is a 400 failure body with code
//! [`CODE_TRANSITION_REFUSED`] and changes nothing.
//! A path id longer than 36 characters is a 400 naming `subscription_id`; any other id that is
//! not one the emulator issued (they are UUIDs) is a 404.

use axum::Json;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use uuid::Uuid;

use super::render::{View, subscription_details};
use crate::billing::bill_subscription;
use crate::error::SandboxError;
use crate::state::SandboxState;
use crate::subscriptions::error::{CODE_TRANSITION_REFUSED, SubscriptionError};
use crate::subscriptions::status::Operation;
use checkout::wire::{
    GatewayResponse, StatusCodeField, SubscriptionListResponse, SubscriptionResponse,
};

/// `gateway_response.code` of a successful pause, resume or cancel.
pub const SUBSCRIPTION_UPDATED: &str = "INFO3000";

/// A path id result, as axum hands it over.
type PathId = Result<Path<String>, PathRejection>;

/// `POST /subscription/{id}/pause`.
pub async fn pause(
    State(state): State<SandboxState>,
    id: PathId,
) -> Result<Json<SubscriptionResponse>, SandboxError> {
    operate(&state, id, Operation::Pause)
}

/// `POST /subscription/{id}/resume`: a cycle that fell due while paused is billed at once.
pub async fn resume(
    State(state): State<SandboxState>,
    id: PathId,
) -> Result<Json<SubscriptionResponse>, SandboxError> {
    operate(&state, id, Operation::Resume)
}

/// `POST /subscription/{id}/cancel`: final.
pub async fn cancel(
    State(state): State<SandboxState>,
    id: PathId,
) -> Result<Json<SubscriptionResponse>, SandboxError> {
    operate(&state, id, Operation::Cancel)
}

/// `GET /subscription/{id}`: the subscription with its billing history.
pub async fn retrieve(
    State(state): State<SandboxState>,
    id: PathId,
) -> Result<Json<SubscriptionResponse>, SandboxError> {
    let id = subscription_id(id)?;
    let details = state
        .subscriptions
        .with(id, |subscription| {
            bill_subscription(&state, subscription);
            subscription_details(subscription, View::Detail)
        })
        .ok_or_else(not_found)?;
    Ok(Json(SubscriptionResponse {
        success: true,
        status_code: StatusCodeField::snake(StatusCode::OK.as_u16()),
        is_live: Some(false),
        gateway_response: None,
        subscription_details: details,
    }))
}

/// `GET /subscription/list`: every subscription in creation order, whatever its status.
pub async fn list(State(state): State<SandboxState>) -> Json<SubscriptionListResponse> {
    let details = state.subscriptions.map_all(|subscription| {
        bill_subscription(&state, subscription);
        subscription_details(subscription, View::ListItem)
    });
    Json(SubscriptionListResponse {
        success: true,
        status_code: StatusCodeField::snake(StatusCode::OK.as_u16()),
        is_live: Some(false),
        gateway_response: None,
        subscription_details: details,
    })
}

/// Bills what is due, applies `operation`, then bills again (a resume makes the cycle that
/// fell due during the pause due now). All under the book's lock for this subscription.
fn operate(
    state: &SandboxState,
    id: PathId,
    operation: Operation,
) -> Result<Json<SubscriptionResponse>, SandboxError> {
    let id = subscription_id(id)?;
    let details = state
        .subscriptions
        .with(id, |subscription| {
            bill_subscription(state, subscription);
            subscription.apply(operation, state.clock.now())?;
            bill_subscription(state, subscription);
            Ok::<_, SubscriptionError>(subscription_details(subscription, View::Detail))
        })
        .ok_or_else(not_found)?
        .map_err(into_sandbox_error)?;
    tracing::info!(subscription_id = %id, operation = operation.verb(), "subscription updated");
    Ok(Json(SubscriptionResponse {
        success: true,
        status_code: StatusCodeField::snake(StatusCode::OK.as_u16()),
        is_live: Some(false),
        gateway_response: Some(GatewayResponse::info(
            SUBSCRIPTION_UPDATED,
            format!("Subscription {} successfully.", past_tense(operation)),
        )),
        subscription_details: details,
    }))
}

/// The id in the path: more than 36 characters is a 400; not a UUID is a 404.
fn subscription_id(path: PathId) -> Result<Uuid, SandboxError> {
    let Path(id) =
        path.map_err(|_| SandboxError::invalid("subscription_id", "must be a path segment"))?;
    if id.chars().count() > 36 {
        return Err(SandboxError::invalid(
            "subscription_id",
            "must be at most 36 characters",
        ));
    }
    Uuid::try_parse(&id).map_err(|_| not_found())
}

fn not_found() -> SandboxError {
    SandboxError::NotFound("subscription".to_owned())
}

/// Maps a model error to the emulator's failure body.
pub fn into_sandbox_error(error: SubscriptionError) -> SandboxError {
    match error {
        SubscriptionError::InvalidField { field, reason } => SandboxError::invalid(field, reason),
        refused @ SubscriptionError::TransitionRefused { .. } => {
            SandboxError::refused(CODE_TRANSITION_REFUSED, refused.to_string())
        }
    }
}

fn past_tense(operation: Operation) -> &'static str {
    match operation {
        Operation::Pause => "paused",
        Operation::Resume => "resumed",
        Operation::Cancel => "cancelled",
    }
}
