//! The credential check in front of the gateway API and the control API: a request without
//! the instance's keys is refused with the 401 failure body before any handler runs.

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;

use crate::error::SandboxError;
use crate::state::SandboxState;

/// Middleware refusing requests without valid credentials (401 failure body).
pub async fn require_credentials(
    State(state): State<SandboxState>,
    request: Request,
    next: Next,
) -> Result<Response, SandboxError> {
    state.credentials.check(request.headers())?;
    Ok(next.run(request).await)
}
