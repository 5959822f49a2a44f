//! The subscription layer's one error type. It knows nothing of HTTP: `api` maps it to answers.

use crate::gateway::GatewayError;
use crate::store::StoreError;

/// Why a subscription operation did not complete.
#[derive(Debug, thiserror::Error)]
pub enum SubscriptionError {
    /// No such subscription (or not the caller's).
    #[error("no such subscription")]
    NotFound,
    /// The operation is not allowed in the subscription's state (409).
    #[error("{message}")]
    Refused {
        /// Stable machine code: `subscription_final` or `subscription_transition_refused`.
        code: &'static str,
        /// What was refused and why.
        message: String,
    },
    /// The gateway did not answer in a usable way; the state is unknown until the next poll.
    #[error("gateway: {0}")]
    Gateway(#[from] GatewayError),
    /// The store failed.
    #[error("store: {0}")]
    Store(#[from] StoreError),
}
