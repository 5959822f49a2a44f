//! A webhook endpoint's signing secret in the answers that hand it out (creation and
//! rotation), and nowhere else.
//!
//! The store must keep the secret itself (it signs with it), but the answer an
//! `Idempotency-Key` stores is kept without it, as with sessions' client secrets: only its
//! SHA-256 goes into the stored answer. The secret is added on the way out: to the first answer
//! from what the request just created, to a replay from the endpoint's current secret when that
//! is still the one the first answer showed. After a later rotation (or a deletion) a replay
//! is refused with 409 `secret_unavailable` rather than showing a different secret.

use std::sync::{Arc, Mutex, PoisonError};

use axum::body::{Body, to_bytes};
use axum::http::StatusCode;
use axum::http::header::CONTENT_LENGTH;
use axum::response::{IntoResponse, Response};
use secrecy::{ExposeSecret as _, SecretString};
use serde_json::Value;
use time::OffsetDateTime;

use crate::store::model::WebhookEndpoint;
use crate::store::secret::SecretHash;
use crate::views::EndpointView;
use crate::web::ApiFailure;
use crate::web::AppState;
use crate::web::idempotency::Reply;

/// The stored answer's field holding the secret's SHA-256 (removed before any answer leaves).
const SECRET_HASH_FIELD: &str = "secret_sha256";
/// An endpoint's view is well under a few KB.
const MAX_VIEW_BYTES: usize = 64 * 1024;

/// Hands the secret a request just issued from its idempotent work to its answer.
#[derive(Clone, Default)]
pub struct IssuedSecret(Arc<Mutex<Option<SecretString>>>);

impl IssuedSecret {
    fn put(&self, secret: SecretString) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = Some(secret);
    }

    fn take(&self) -> Option<SecretString> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).take()
    }
}

/// The answer to store for `endpoint` (its view with the secret's hash, not the secret), and
/// the secret kept in `issued` for the first answer.
pub fn reply(
    status: StatusCode,
    endpoint: &WebhookEndpoint,
    issued: &IssuedSecret,
) -> Result<Reply, ApiFailure> {
    let mut view = serde_json::to_value(EndpointView::new(endpoint, OffsetDateTime::now_utc()))
        .map_err(|e| ApiFailure::Internal(format!("cannot serialise an endpoint: {e}")))?;
    view[SECRET_HASH_FIELD] =
        Value::String(SecretHash::of(endpoint.secret.expose_secret()).to_hex());
    issued.put(endpoint.secret.clone());
    Reply::json(status, &view)
}

/// Replaces the hash in a successful answer by the secret; other answers pass unchanged.
pub async fn reveal(state: &AppState, response: Response, issued: IssuedSecret) -> Response {
    if !response.status().is_success() {
        return response;
    }
    match with_secret(state, response, issued).await {
        Ok(response) => response,
        Err(failure) => failure.into_response(),
    }
}

async fn with_secret(
    state: &AppState,
    response: Response,
    issued: IssuedSecret,
) -> Result<Response, ApiFailure> {
    let (mut parts, body) = response.into_parts();
    let bytes = to_bytes(body, MAX_VIEW_BYTES)
        .await
        .map_err(|e| ApiFailure::Internal(format!("cannot read an endpoint answer: {e}")))?;
    let mut view: Value = serde_json::from_slice(&bytes)
        .map_err(|e| ApiFailure::Internal(format!("stored endpoint answer is not JSON: {e}")))?;
    let hash = view
        .as_object_mut()
        .and_then(|fields| fields.remove(SECRET_HASH_FIELD))
        .and_then(|hash| hash.as_str().and_then(SecretHash::from_hex))
        .ok_or_else(|| ApiFailure::Internal("stored endpoint answer has no secret hash".into()))?;
    let secret = match issued.take() {
        Some(secret) => secret,
        None => current_secret(state, &view, &hash).await?,
    };
    view["secret"] = Value::String(secret.expose_secret().to_owned());
    parts.headers.remove(CONTENT_LENGTH);
    Ok(Response::from_parts(parts, Body::from(view.to_string())))
}

/// For a replay: the endpoint's secret, if it is still the one the first answer showed.
async fn current_secret(
    state: &AppState,
    view: &Value,
    hash: &SecretHash,
) -> Result<SecretString, ApiFailure> {
    let id = view
        .get("id")
        .and_then(Value::as_str)
        .ok_or_else(|| ApiFailure::Internal("stored endpoint answer has no id".into()))?;
    match state.store.get_endpoint(id).await? {
        Some(endpoint) if hash.verify(endpoint.secret.expose_secret()) => Ok(endpoint.secret),
        _ => Err(ApiFailure::conflict(
            "secret_unavailable",
            "the secret this request issued has since been replaced or its endpoint deleted, \
             so it cannot be shown again; rotate the secret to get a new one",
        )),
    }
}
