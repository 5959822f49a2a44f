//! One form, one effect: every dashboard action runs its service call under the merchant
//! API's idempotency (`web::idempotency::run_idempotent`), keyed by the hidden
//! `idempotency_key` each rendering of a form carries and scoped to the staff member and the
//! path. A double submit gets the first submit's answer, marked as a replay, and does nothing
//! more. The answer is the API's JSON; [`refusal`] reads an error answer back.

use axum::body::to_bytes;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::Response;
use serde_json::Value;

use super::auth::Staff;
use super::error::DashboardError;
use super::state::DashboardState;
use crate::store::prelude::BodyDigest;
use crate::web::ApiFailure;
use crate::web::idempotency::{IDEMPOTENCY_KEY, REPLAYED, Reply, run_idempotent};

/// The form's idempotency key, or a refusal naming the field.
pub fn form_key(text: &str) -> Result<&str, DashboardError> {
    let key = text.trim();
    if key.is_empty() || key.len() > 255 || !key.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(DashboardError::bad(
            "idempotency_key",
            "missing or malformed; reload the page and try again",
        ));
    }
    Ok(key)
}

/// Runs `work` once per (staff member, `path`, `key`, `request`): `request` describes what the
/// form asks (a repeat asking something else with the same key is refused by the API's rule).
pub async fn run_once<F, Fut>(
    state: &DashboardState,
    staff: &Staff,
    key: &str,
    path: &str,
    request: &str,
    work: F,
) -> Response
where
    F: FnOnce() -> Fut + Send + 'static,
    Fut: Future<Output = Result<Reply, ApiFailure>> + Send + 'static,
{
    let mut headers = HeaderMap::new();
    if let Ok(value) = HeaderValue::from_str(key) {
        headers.insert(IDEMPOTENCY_KEY, value);
    }
    let scope = format!("dashboard:{}:{path}", staff.user.id);
    let digest = BodyDigest::of(request.as_bytes());
    run_idempotent(&state.app, &headers, scope, digest, work).await
}

/// Whether `answer` repeats an earlier submit's.
pub fn replayed(answer: &Response) -> bool {
    answer.headers().contains_key(REPLAYED)
}

/// The JSON of a successful answer.
pub async fn body(answer: Response) -> Result<Value, DashboardError> {
    let bytes = to_bytes(answer.into_body(), 64 * 1024)
        .await
        .map_err(|e| DashboardError::Internal(format!("cannot read an answer: {e}")))?;
    serde_json::from_slice(&bytes)
        .map_err(|e| DashboardError::Internal(format!("an answer is not JSON: {e}")))
}

/// A refused action: the API's error code, message and field.
#[derive(Debug, Clone)]
pub struct Refusal {
    /// The status of the answer.
    pub status: StatusCode,
    /// The error code (the status when the answer has none).
    pub code: String,
    /// What was wrong.
    pub message: String,
    /// The field at fault, if one was.
    pub field: Option<String>,
}

impl Refusal {
    /// The page for this refusal: bad input names its field, a missing object is a 404, a
    /// failure of ours a 500, anything else (the service's refusal, the gateway unreachable)
    /// a conflict with the service's message.
    pub fn page(&self, what: &str) -> DashboardError {
        match (&self.field, self.status) {
            (Some(field), _) => {
                // The API's message starts with the field; the page names it once.
                let prefix = format!("{field}: ");
                let message = self.message.strip_prefix(&prefix).unwrap_or(&self.message);
                DashboardError::bad(field, message)
            }
            (None, StatusCode::NOT_FOUND) => DashboardError::NotFound("object"),
            (None, StatusCode::INTERNAL_SERVER_ERROR) => {
                DashboardError::Internal(format!("{what}: {}", self.message))
            }
            _ => DashboardError::Conflict(format!("{what} refused: {}", self.message)),
        }
    }
}

/// Reads an error answer.
pub async fn refusal(answer: Response) -> Refusal {
    let status = answer.status();
    let body = to_bytes(answer.into_body(), 64 * 1024)
        .await
        .unwrap_or_default();
    let json: Value = serde_json::from_slice(&body).unwrap_or_default();
    let error = &json["error"];
    let text = |key: &str| error[key].as_str().map(str::to_owned);
    Refusal {
        status,
        code: text("code").unwrap_or_else(|| status.as_u16().to_string()),
        message: text("message").unwrap_or_else(|| "the action failed".to_owned()),
        field: text("field"),
    }
}
