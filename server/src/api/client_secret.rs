//! A session's client secret is derived, never stored: HMAC-SHA256 of the session id under the
//! merchant secret key. The store keeps only its hash, as for every secret it hands out, and the
//! create answer an `Idempotency-Key` stores is kept without it: the secret is added on the way
//! out, to the first answer and to every replay alike.

use axum::body::{Body, to_bytes};
use axum::http::StatusCode;
use axum::http::header::CONTENT_LENGTH;
use axum::response::{IntoResponse, Response};
use secrecy::ExposeSecret as _;
use serde_json::Value;

use crate::web::ApiFailure;
use crate::web::AppState;
use crate::web::idempotency::REPLAYED;

/// A session view is a few hundred bytes.
const MAX_VIEW_BYTES: usize = 64 * 1024;

pub use crate::payments::client_secret::derive;

/// Adds `client_secret` to a 201 answer of `POST /v1/sessions`; other answers pass unchanged.
///
/// A replay is checked against the session's stored hash first: after the merchant key has
/// changed, the derived secret would no longer open the session, so the replay is refused
/// (409 `client_secret_unavailable`) rather than handing out a secret that does not work.
pub async fn reveal(state: &AppState, response: Response) -> Response {
    if response.status() != StatusCode::CREATED {
        return response;
    }
    match with_secret(state, response).await {
        Ok(response) => response,
        Err(failure) => failure.into_response(),
    }
}

async fn with_secret(state: &AppState, response: Response) -> Result<Response, ApiFailure> {
    let replayed = response.headers().contains_key(REPLAYED);
    let (mut parts, body) = response.into_parts();
    let bytes = to_bytes(body, MAX_VIEW_BYTES)
        .await
        .map_err(|e| ApiFailure::Internal(format!("cannot read a session answer: {e}")))?;
    let mut view: Value = serde_json::from_slice(&bytes)
        .map_err(|e| ApiFailure::Internal(format!("stored session answer is not JSON: {e}")))?;
    let id = view
        .get("id")
        .and_then(Value::as_str)
        .ok_or_else(|| ApiFailure::Internal("stored session answer has no id".into()))?
        .to_owned();
    let secret = derive(&state.config.merchant.secret_key, &id);
    if replayed {
        let session = state
            .store
            .get_session(&id)
            .await?
            .ok_or(ApiFailure::NotFound("session"))?;
        if !session.client_secret_hash.verify(secret.expose_secret()) {
            return Err(ApiFailure::conflict(
                "client_secret_unavailable",
                "this session was created under an earlier merchant secret key, so its client \
                 secret cannot be shown again; create a new session",
            ));
        }
    }
    view["client_secret"] = Value::String(secret.expose_secret().to_owned());
    parts.headers.remove(CONTENT_LENGTH);
    Ok(Response::from_parts(parts, Body::from(view.to_string())))
}
