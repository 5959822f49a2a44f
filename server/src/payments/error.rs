//! The payment layer's one error type, and how each variant reaches the client.

use crate::api::ApiFailure;
use crate::gateway::GatewayError;
use crate::store::StoreError;

/// Why a payment operation did not complete.
#[derive(Debug, thiserror::Error)]
pub enum PaymentError {
    /// Input breaks a rule; `field` is the dotted request path (`card.number`).
    #[error("{field}: {message}")]
    Invalid {
        /// Stable machine code (`luhn_failed`, `invalid_field`, ...).
        code: &'static str,
        /// The field at fault.
        field: String,
        /// English sentence, never quoting card data.
        message: String,
    },
    /// No such record (or not visible to the caller).
    #[error("no such {0}")]
    NotFound(&'static str),
    /// The operation conflicts with the current state.
    #[error("{message}")]
    Conflict {
        /// Stable machine code (`payment_in_progress`, `invalid_state`, ...).
        code: &'static str,
        /// What conflicts.
        message: String,
        /// The field at fault, if one.
        field: Option<String>,
    },
    /// The session can no longer be paid.
    #[error("the checkout session has expired")]
    SessionExpired,
    /// The gateway refused or failed the call.
    #[error("gateway: {0}")]
    Gateway(#[from] GatewayError),
    /// The store failed.
    #[error("store: {0}")]
    Store(#[from] StoreError),
}

impl PaymentError {
    /// A 400-class error naming `field`.
    pub fn invalid(
        code: &'static str,
        field: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Self::Invalid {
            code,
            field: field.into(),
            message: message.into(),
        }
    }

    /// A conflict without a field.
    pub fn conflict(code: &'static str, message: impl Into<String>) -> Self {
        Self::Conflict {
            code,
            message: message.into(),
            field: None,
        }
    }

    /// The HTTP failure for this error.
    pub fn into_api(self) -> ApiFailure {
        match self {
            Self::Invalid {
                code,
                field,
                message,
            } => ApiFailure::BadRequest {
                code,
                message: format!("{field}: {message}"),
                field: Some(field),
            },
            Self::NotFound(what) => ApiFailure::NotFound(what),
            Self::Conflict {
                code,
                message,
                field,
            } => ApiFailure::Conflict {
                code,
                message,
                field,
            },
            Self::SessionExpired => ApiFailure::Gone {
                code: "session_expired",
                message: "the checkout session has expired",
            },
            Self::Gateway(error) => gateway_failure(error),
            Self::Store(error) => ApiFailure::from(error),
        }
    }
}

/// A gateway refusal the merchant can act on is a 409 with the gateway's own message; an
/// unreachable gateway is a 503; anything else a 502 (cause logged).
fn gateway_failure(error: GatewayError) -> ApiFailure {
    match error {
        GatewayError::Rejected { message, code, .. } => ApiFailure::conflict(
            "gateway_refused",
            format!(
                "the gateway refused the request ({}): {}",
                code.as_deref().unwrap_or("no code"),
                message.as_deref().unwrap_or("no message")
            ),
        ),
        GatewayError::Declined { code, message, .. } => ApiFailure::conflict(
            "gateway_declined",
            format!("the gateway declined the request ({code}): {message}"),
        ),
        GatewayError::Transport { .. } | GatewayError::Unavailable { .. } => {
            ApiFailure::Unavailable(error.to_string())
        }
        other => ApiFailure::Gateway(other.to_string()),
    }
}
