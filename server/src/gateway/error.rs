//! The gateway layer's error: each variant says what the caller must do next.
//!
//! The split that matters is between "the gateway did not act" (`Transport`, `Rejected`,
//! `Unauthorized`, `NotFound`, `InvalidRequest`: safe to fix and send again) and "the gateway
//! may have acted" (`OutcomeUnknown`: never re-send a charge; settle it with the status
//! endpoint or mark it for review, gateway-notes.md "Finding a transaction again").
//! No variant carries credentials, request bodies or card data.

use thiserror::Error;

use checkout::wire::{TransactionResponse, WireValidationError};

/// What went wrong talking to the gateway.
#[derive(Debug, Error)]
pub enum GatewayError {
    /// The client configuration is unusable (bad base URL, HTTP client could not be built).
    #[error("gateway client configuration: {reason}")]
    Config {
        /// What is wrong.
        reason: String,
    },

    /// The request breaks the contract; nothing was sent.
    #[error("request not sent: {0}")]
    InvalidRequest(#[from] WireValidationError),

    /// The gateway processed the transaction and declined it (`success` false or
    /// `payment_details.response_code` not 0). Final: do not retry the same payment blindly.
    #[error("declined by the gateway (response code {response_code}, {code}): {message}")]
    Declined {
        /// `payment_details.response_code` (5 do not honour, 51 insufficient funds, ...).
        response_code: i64,
        /// `gateway_response.code`.
        code: String,
        /// `gateway_response.message`.
        message: String,
        /// The full response (its card number is masked by the gateway).
        transaction: Box<TransactionResponse>,
    },

    /// The gateway refused the request without processing it (a 4xx failure body, or a 2xx
    /// body with `success` false and no transaction). `code`/`message` come from
    /// `gateway_response` when the body is JSON; a non-JSON body leaves them `None`.
    #[error("rejected by the gateway (HTTP {status}{}): {}", code.as_deref().map(|c| format!(", {c}")).unwrap_or_default(), message.as_deref().unwrap_or("no message"))]
    Rejected {
        /// HTTP status.
        status: u16,
        /// `gateway_response.code`, if readable.
        code: Option<String>,
        /// `gateway_response.message`, if readable.
        message: Option<String>,
    },

    /// HTTP 401 or 403: the API key or x-api-key is wrong or missing.
    #[error("the gateway refused the credentials (HTTP {status})")]
    Unauthorized {
        /// HTTP status.
        status: u16,
    },

    /// HTTP 404: the transaction or subscription does not exist.
    #[error("not found at the gateway")]
    NotFound,

    /// A money-moving or state-changing request may or may not have taken effect: a timeout,
    /// a 5xx, a dropped connection or an unreadable body after the request was sent.
    /// Never retried automatically.
    #[error("outcome unknown: {reason}")]
    OutcomeUnknown {
        /// Why the outcome cannot be known.
        reason: String,
    },

    /// The gateway could not be reached, or a safe read failed at the transport level after
    /// all retries. For a money-moving request this means nothing was sent.
    #[error("gateway unreachable: {reason}")]
    Transport {
        /// The transport failure.
        reason: String,
    },

    /// A safe read kept getting 5xx or 429 answers until the retry budget ran out.
    #[error("gateway unavailable (HTTP {status})")]
    Unavailable {
        /// The last HTTP status.
        status: u16,
    },

    /// A safe read got an answer that does not match the contract.
    #[error("invalid gateway response (HTTP {status}): {reason}")]
    InvalidResponse {
        /// HTTP status.
        status: u16,
        /// What did not match.
        reason: String,
    },
}

impl GatewayError {
    /// True when the request certainly had no effect and may be sent again as is.
    pub fn is_safe_to_retry(&self) -> bool {
        matches!(self, Self::Transport { .. } | Self::Unavailable { .. })
    }
}
