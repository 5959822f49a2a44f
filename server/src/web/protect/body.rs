//! Request bodies: at most `MAX_BODY_BYTES` (413 in the error shape, decided from
//! `Content-Length` before anything is read, and enforced while reading for bodies without
//! one), and JSON only on the API (`/v1/...`): a write with a body of another type is a 415
//! naming the expected type. A body that is JSON but malformed is the extractor's 400 naming
//! the field.

use axum::extract::{Request, State};
use axum::http::Method;
use axum::http::header::{CONTENT_LENGTH, TRANSFER_ENCODING};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::web::ApiFailure;
use checkout::json::declares_json;

/// Middleware: the size and type rules, given the limit in bytes.
pub async fn guard_body(State(limit): State<usize>, request: Request, next: Next) -> Response {
    let declared = request
        .headers()
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|length| length > u64::try_from(limit).unwrap_or(u64::MAX)) {
        return ApiFailure::PayloadTooLarge.into_response();
    }
    let writes = matches!(
        *request.method(),
        Method::POST | Method::PUT | Method::PATCH | Method::DELETE
    );
    let has_body = declared.is_some_and(|length| length > 0)
        || request.headers().contains_key(TRANSFER_ENCODING);
    if writes
        && has_body
        && request.uri().path().starts_with("/v1/")
        && !declares_json(request.headers())
    {
        return ApiFailure::UnsupportedMediaType.into_response();
    }
    next.run(request).await
}
