//! The subscription layer's one error type, and how each variant reaches the client.

use crate::api::ApiFailure;
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

impl From<SubscriptionError> for ApiFailure {
    fn from(error: SubscriptionError) -> Self {
        match error {
            SubscriptionError::NotFound => ApiFailure::NotFound("subscription"),
            SubscriptionError::Refused { code, message } => ApiFailure::conflict(code, message),
            SubscriptionError::Gateway(
                error @ (GatewayError::Transport { .. }
                | GatewayError::Unavailable { .. }
                | GatewayError::OutcomeUnknown { .. }),
            ) => ApiFailure::Unavailable(error.to_string()),
            SubscriptionError::Gateway(error) => ApiFailure::Gateway(error.to_string()),
            SubscriptionError::Store(error) => ApiFailure::from(error),
        }
    }
}

#[cfg(test)]
mod tests {
    use axum::http::StatusCode;

    use super::*;

    #[test]
    fn refusals_are_conflicts_and_outages_are_503() {
        let refused = SubscriptionError::Refused {
            code: "subscription_transition_refused",
            message: "cannot resume an active subscription".into(),
        };
        let failure = ApiFailure::from(refused);
        assert_eq!(failure.status(), StatusCode::CONFLICT);
        assert_eq!(failure.body().error.code, "subscription_transition_refused");
        let outage = SubscriptionError::Gateway(GatewayError::OutcomeUnknown {
            reason: "timeout".into(),
        });
        assert_eq!(
            ApiFailure::from(outage).status(),
            StatusCode::SERVICE_UNAVAILABLE
        );
        assert_eq!(
            ApiFailure::from(SubscriptionError::NotFound).status(),
            StatusCode::NOT_FOUND
        );
    }
}
