//! The payment layer's one error type. It knows nothing of HTTP: `api` maps it to answers.

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
    /// A card-testing alert is open and the call brought no valid proof of work: solve this
    /// challenge and pay again.
    #[error("a proof of work is required")]
    ProofOfWorkRequired(Box<checkout::contract::ProofChallenge>),
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
}
