//! The one error type of the subscription model: invalid plan fields and refused operations.
//! The HTTP layer maps an invalid field to the emulator's usual 400 `ERR0003` naming the field,
//! and a refused operation to a 400 failure body with [`CODE_TRANSITION_REFUSED`].

use super::status::{Operation, RefusedTransition, SubscriptionStatus};

/// `gateway_response.code` (HTTP 400) for a pause, resume or cancel the current status does
/// not allow. The contract shows no code for it; the `ERR4xxx` range is the emulator's
/// subscription range.
pub const CODE_TRANSITION_REFUSED: &str = "ERR4001";

/// Why the subscription model refused something. State is unchanged whenever one is returned.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SubscriptionError {
    /// A field of the creation request is missing or out of range; `field` is its JSON path.
    #[error("{field} {reason}")]
    InvalidField {
        /// JSON path of the field, e.g. `subscription.cycle_type`.
        field: &'static str,
        /// What is wrong, phrased to follow the field name.
        reason: String,
    },
    /// The operation is not allowed from the current status.
    #[error("cannot {} a subscription that is {}", .operation.verb(), .from.as_str())]
    TransitionRefused {
        /// What was asked.
        operation: Operation,
        /// The status the subscription is in (and stays in).
        from: SubscriptionStatus,
    },
}

impl From<RefusedTransition> for SubscriptionError {
    fn from(refused: RefusedTransition) -> Self {
        Self::TransitionRefused {
            operation: refused.operation,
            from: refused.from,
        }
    }
}

impl SubscriptionError {
    /// Shorthand for [`SubscriptionError::InvalidField`].
    pub fn field(field: &'static str, reason: impl Into<String>) -> Self {
        Self::InvalidField {
            field,
            reason: reason.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_field_or_the_transition() {
        let invalid = SubscriptionError::field("subscription.cycle_type", "must be DAYS");
        assert_eq!(invalid.to_string(), "subscription.cycle_type must be DAYS");
        let refused = SubscriptionError::TransitionRefused {
            operation: Operation::Resume,
            from: SubscriptionStatus::Active,
        };
        assert_eq!(
            refused.to_string(),
            "cannot resume a subscription that is ACTIVE"
        );
    }
}
