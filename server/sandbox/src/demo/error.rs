//! The demo shop backend's failures, in the same `{ "error": { code, message, field? } }` shape
//! as checkout-server's API, so the demo page reads both alike. A failure the merchant API
//! answered is passed on as it came.

use axum::Json;
use axum::body::Bytes;
use axum::http::StatusCode;
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};
use checkout::contract::ApiError;
use checkout::json::JsonRejection;

/// What went wrong in a demo request.
#[derive(Debug, thiserror::Error)]
pub enum DemoError {
    /// 404: no such page or endpoint.
    #[error("no such endpoint")]
    NotFound,
    /// 400 naming the field at fault.
    #[error("{message}")]
    Invalid {
        /// Stable machine code.
        code: &'static str,
        /// The request field at fault.
        field: Option<String>,
        /// What was wrong.
        message: String,
    },
    /// The request body was not taken (answered as the shared extractor words it).
    #[error(transparent)]
    Body(#[from] JsonRejection),
    /// 401: a cookie-authenticated POST from a page of another site.
    #[error("the demo shop backend only answers its own pages")]
    CrossOrigin,
    /// The merchant API refused the request: its status and JSON body, passed on.
    #[error("the merchant API answered {status}")]
    MerchantApi {
        /// The status the merchant API answered.
        status: StatusCode,
        /// Its body (the API's error shape).
        body: Bytes,
    },
    /// 502: the merchant API could not be reached or answered something unreadable.
    #[error("the merchant API failed: {0}")]
    Upstream(String),
    /// 500: a fault of this process.
    #[error("{0}")]
    Internal(&'static str),
}

impl IntoResponse for DemoError {
    fn into_response(self) -> Response {
        let (status, body) = match self {
            Self::MerchantApi { status, body } => {
                return (status, [(CONTENT_TYPE, "application/json")], body).into_response();
            }
            Self::NotFound => (
                StatusCode::NOT_FOUND,
                ApiError::new("not_found", "no such endpoint"),
            ),
            Self::Invalid {
                code,
                field,
                message,
            } => {
                let mut body = ApiError::new(code, message);
                body.error.field = field;
                (StatusCode::BAD_REQUEST, body)
            }
            Self::Body(rejection) => return rejection.into_response(),
            Self::CrossOrigin => (
                StatusCode::UNAUTHORIZED,
                ApiError::new("cross_origin", self.to_string()),
            ),
            Self::Upstream(cause) => {
                tracing::warn!(%cause, "demo shop: the merchant API failed");
                (
                    StatusCode::BAD_GATEWAY,
                    ApiError::new("upstream_failed", "the checkout server did not answer"),
                )
            }
            Self::Internal(cause) => {
                tracing::error!(cause, "demo shop request failed");
                (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    ApiError::new("internal_error", "internal error"),
                )
            }
        };
        (status, Json(body)).into_response()
    }
}
