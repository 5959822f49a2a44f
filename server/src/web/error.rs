//! The HTTP layer's one error type. Every failure answers with the contract's shape
//! `{ "error": { "code", "message", "field"? } }` ([`ApiError`]); internal causes are logged
//! and the client sees a generic message.

use axum::http::header::{RETRY_AFTER, WWW_AUTHENTICATE};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use checkout::contract::ApiError;

use crate::store::StoreError;
use crate::store::error::UNAVAILABLE_RETRY_SECS;

/// Why a request failed, as the client will be told.
#[derive(Debug, thiserror::Error)]
pub enum ApiFailure {
    /// 400: the request is malformed or a value breaks a rule; `field` names it.
    #[error("{message}")]
    BadRequest {
        /// Stable machine code (`invalid_json`, `luhn_failed`, ...).
        code: &'static str,
        /// English sentence for developers; never contains a card number or CVC.
        message: String,
        /// The dotted path of the field at fault (`card.number`).
        field: Option<String>,
    },
    /// 401: missing or wrong merchant key, client secret or other credential.
    #[error("{message}")]
    Unauthorized {
        /// Stable machine code.
        code: &'static str,
        /// What was wrong.
        message: &'static str,
        /// `WWW-Authenticate` challenge to send, if any.
        challenge: Option<&'static str>,
    },
    /// 404: no such resource (or not visible to this caller).
    #[error("no such {0}")]
    NotFound(&'static str),
    /// 405 on a known path.
    #[error("method not allowed")]
    MethodNotAllowed,
    /// 409: the request conflicts with the current state (idempotency key reuse, a payment
    /// already in progress, an amount above what can be refunded, ...).
    #[error("{message}")]
    Conflict {
        /// Stable machine code.
        code: &'static str,
        /// What conflicts.
        message: String,
        /// The field at fault, if one.
        field: Option<String>,
    },
    /// 410: the resource existed but can no longer be used (an expired session).
    #[error("{message}")]
    Gone {
        /// Stable machine code.
        code: &'static str,
        /// What expired.
        message: &'static str,
    },
    /// 428: a card-testing alert is open; the pay call needs a proof of work answering this
    /// challenge.
    #[error("a proof of work is required")]
    ProofRequired(Box<checkout::contract::ProofChallenge>),
    /// 413: the body is larger than allowed.
    #[error("request body too large")]
    PayloadTooLarge,
    /// 415: the body is not JSON.
    #[error("the body must be JSON (Content-Type: application/json)")]
    UnsupportedMediaType,
    /// 429: too many requests; retry after the given seconds.
    #[error("too many requests")]
    TooManyRequests {
        /// Seconds to wait.
        retry_after_secs: u64,
    },
    /// 502: the gateway failed in a way the client cannot fix (cause logged).
    #[error("payment gateway error: {0}")]
    Gateway(String),
    /// 503: a dependency is unavailable right now (cause logged).
    #[error("service unavailable: {0}")]
    Unavailable(String),
    /// 500: a bug or a storage failure (cause logged, never shown).
    #[error("internal error: {0}")]
    Internal(String),
}

impl ApiFailure {
    /// A 400 naming `field`.
    pub fn invalid(
        code: &'static str,
        field: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Self::BadRequest {
            code,
            message: message.into(),
            field: Some(field.into()),
        }
    }

    /// A 409 without a field.
    pub fn conflict(code: &'static str, message: impl Into<String>) -> Self {
        Self::Conflict {
            code,
            message: message.into(),
            field: None,
        }
    }

    /// The HTTP status this failure answers with.
    pub fn status(&self) -> StatusCode {
        match self {
            Self::BadRequest { .. } => StatusCode::BAD_REQUEST,
            Self::Unauthorized { .. } => StatusCode::UNAUTHORIZED,
            Self::NotFound(_) => StatusCode::NOT_FOUND,
            Self::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            Self::Conflict { .. } => StatusCode::CONFLICT,
            Self::Gone { .. } => StatusCode::GONE,
            Self::ProofRequired(_) => StatusCode::PRECONDITION_REQUIRED,
            Self::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Self::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Self::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            Self::Gateway(_) => StatusCode::BAD_GATEWAY,
            Self::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            Self::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The body the client sees.
    pub fn body(&self) -> ApiError {
        match self {
            Self::BadRequest {
                code,
                message,
                field,
            }
            | Self::Conflict {
                code,
                message,
                field,
            } => with_field(ApiError::new(*code, message.clone()), field.as_deref()),
            Self::Unauthorized { code, message, .. } | Self::Gone { code, message } => {
                ApiError::new(*code, *message)
            }
            Self::NotFound(what) => ApiError::new("not_found", format!("no such {what}")),
            Self::ProofRequired(challenge) => {
                let mut error = ApiError::new(
                    "proof_of_work_required",
                    "solve `challenge` (SHA-256 of `salt` and a number up to `maxnumber`) and \
                     send the pay request again with `proof_of_work`",
                );
                error.error.challenge = Some(challenge.clone());
                error
            }
            Self::MethodNotAllowed => ApiError::new(
                "method_not_allowed",
                "this method is not allowed on this path",
            ),
            Self::PayloadTooLarge => ApiError::new("payload_too_large", self.to_string()),
            Self::UnsupportedMediaType => ApiError::new("unsupported_media_type", self.to_string()),
            Self::TooManyRequests { .. } => {
                ApiError::new("rate_limited", "too many requests; retry later")
            }
            Self::Gateway(_) => ApiError::new(
                "gateway_error",
                "the payment gateway could not complete the request",
            ),
            Self::Unavailable(_) => {
                ApiError::new("unavailable", "the service is unavailable; retry later")
            }
            Self::Internal(_) => ApiError::new("internal_error", "internal error"),
        }
    }
}

fn with_field(mut error: ApiError, field: Option<&str>) -> ApiError {
    error.error.field = field.map(str::to_owned);
    error
}

impl IntoResponse for ApiFailure {
    fn into_response(self) -> Response {
        match &self {
            Self::Internal(cause) => tracing::error!(%cause, "request failed"),
            Self::Gateway(cause) | Self::Unavailable(cause) => {
                tracing::warn!(%cause, "request failed on a dependency")
            }
            _ => {}
        }
        let mut response = (self.status(), axum::Json(self.body())).into_response();
        let headers = response.headers_mut();
        match &self {
            Self::Unauthorized {
                challenge: Some(challenge),
                ..
            } => {
                headers.insert(WWW_AUTHENTICATE, HeaderValue::from_static(challenge));
            }
            Self::TooManyRequests { retry_after_secs } => {
                headers.insert(RETRY_AFTER, HeaderValue::from(*retry_after_secs));
            }
            Self::Unavailable(_) => {
                headers.insert(RETRY_AFTER, HeaderValue::from(UNAVAILABLE_RETRY_SECS));
            }
            _ => {}
        }
        response
    }
}

impl From<StoreError> for ApiFailure {
    fn from(error: StoreError) -> Self {
        match error {
            StoreError::NotFound(what) => Self::NotFound(what),
            StoreError::Invalid { field, reason } => Self::BadRequest {
                code: "invalid_request",
                message: format!("{field} {reason}"),
                field: Some(field.to_owned()),
            },
            StoreError::Conflict(what) => {
                Self::conflict("conflict", format!("conflicts with {what}"))
            }
            StoreError::PaymentLinkUnavailable => Self::conflict(
                "payment_link_unavailable",
                "this payment link takes no more payments",
            ),
            full @ StoreError::AtLimit { .. } => Self::conflict("limit_reached", full.to_string()),
            other if other.is_unavailable() => Self::Unavailable(other.to_string()),
            other => Self::Internal(other.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_causes_stay_private() {
        let failure = ApiFailure::Internal("disk full at /var/lib/secret".into());
        assert_eq!(failure.status(), StatusCode::INTERNAL_SERVER_ERROR);
        let body = serde_json::to_string(&failure.body()).expect("json");
        assert!(!body.contains("disk"), "{body}");
    }

    #[test]
    fn fields_are_reported() {
        let body =
            ApiFailure::invalid("luhn_failed", "card.number", "the card number is not valid")
                .body();
        assert_eq!(body.error.field.as_deref(), Some("card.number"));
        assert_eq!(body.error.code, "luhn_failed");
    }

    #[test]
    fn retry_after_and_challenge_headers() {
        let response = ApiFailure::TooManyRequests {
            retry_after_secs: 7,
        }
        .into_response();
        assert_eq!(response.headers()[RETRY_AFTER], "7");
        let response = ApiFailure::Unauthorized {
            code: "unauthorized",
            message: "no",
            challenge: Some("Bearer"),
        }
        .into_response();
        assert_eq!(response.headers()[WWW_AUTHENTICATE], "Bearer");
    }
}
