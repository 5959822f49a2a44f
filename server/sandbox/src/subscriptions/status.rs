//! The subscription state machine: `ACTIVE`, `PAUSED`, `CANCELLED`, `EXPIRED`.
//!
//! | from \ operation | pause    | resume  | cancel     |
//! |------------------|----------|---------|------------|
//! | ACTIVE           | PAUSED   | refused | CANCELLED  |
//! | PAUSED           | refused  | ACTIVE  | CANCELLED  |
//! | CANCELLED        | refused  | refused | refused    |
//! | EXPIRED          | refused  | refused | refused    |
//!
//! `EXPIRED` is reached only through the schedule, never by an operation: when all
//! `max_cycle_count` cycles are closed and the last billed period has ended (see
//! `Schedule::end_of_term`). `CANCELLED` and `EXPIRED` are final.

use serde::{Deserialize, Serialize};

/// Status of a subscription (`subscription_details.status`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SubscriptionStatus {
    /// Billed on schedule.
    Active,
    /// Billing halted until resumed.
    Paused,
    /// Stopped by the merchant; final.
    Cancelled,
    /// Ran all its cycles; final.
    Expired,
}

/// An operation the merchant asks for on an existing subscription.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    /// `POST /subscription/{id}/pause`.
    Pause,
    /// `POST /subscription/{id}/resume`.
    Resume,
    /// `POST /subscription/{id}/cancel`.
    Cancel,
}

impl Operation {
    /// The verb as it appears in the path and in messages.
    pub fn verb(self) -> &'static str {
        match self {
            Self::Pause => "pause",
            Self::Resume => "resume",
            Self::Cancel => "cancel",
        }
    }
}

impl SubscriptionStatus {
    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Active => "ACTIVE",
            Self::Paused => "PAUSED",
            Self::Cancelled => "CANCELLED",
            Self::Expired => "EXPIRED",
        }
    }

    /// Whether no operation and no billing can change this status any more.
    pub fn is_final(self) -> bool {
        matches!(self, Self::Cancelled | Self::Expired)
    }

    /// The status after `operation`, or the refusal (the caller keeps `self`).
    pub fn apply(self, operation: Operation) -> Result<Self, RefusedTransition> {
        match (self, operation) {
            (Self::Active, Operation::Pause) => Ok(Self::Paused),
            (Self::Paused, Operation::Resume) => Ok(Self::Active),
            (Self::Active | Self::Paused, Operation::Cancel) => Ok(Self::Cancelled),
            (Self::Active, Operation::Resume)
            | (Self::Paused, Operation::Pause)
            | (Self::Cancelled | Self::Expired, _) => Err(RefusedTransition {
                operation,
                from: self,
            }),
        }
    }
}

/// An operation the status does not allow (the subscription model's error says it as
/// `SubscriptionError::TransitionRefused`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RefusedTransition {
    /// What was asked.
    pub operation: Operation,
    /// The status the subscription is in (and stays in).
    pub from: SubscriptionStatus,
}

#[cfg(test)]
mod tests {
    use super::*;
    use SubscriptionStatus::{Active, Cancelled, Expired, Paused};

    const ALL_OPERATIONS: [Operation; 3] = [Operation::Pause, Operation::Resume, Operation::Cancel];

    #[test]
    fn allowed_transitions() {
        assert_eq!(Active.apply(Operation::Pause), Ok(Paused));
        assert_eq!(Paused.apply(Operation::Resume), Ok(Active));
        assert_eq!(Active.apply(Operation::Cancel), Ok(Cancelled));
        assert_eq!(Paused.apply(Operation::Cancel), Ok(Cancelled));
    }

    #[test]
    fn every_other_transition_is_refused_naming_operation_and_status() {
        let refused = [
            (Active, Operation::Resume),
            (Paused, Operation::Pause),
            (Cancelled, Operation::Pause),
            (Cancelled, Operation::Resume),
            (Cancelled, Operation::Cancel),
            (Expired, Operation::Pause),
            (Expired, Operation::Resume),
            (Expired, Operation::Cancel),
        ];
        for (from, operation) in refused {
            assert_eq!(
                from.apply(operation),
                Err(RefusedTransition { operation, from }),
                "{} from {}",
                operation.verb(),
                from.as_str()
            );
        }
        // 4 statuses × 3 operations = 12 pairs: 4 allowed + 8 refused above.
        let allowed = [Active, Paused, Cancelled, Expired]
            .iter()
            .flat_map(|from| ALL_OPERATIONS.iter().map(move |op| from.apply(*op)))
            .filter(Result::is_ok)
            .count();
        assert_eq!(allowed, 4);
    }

    #[test]
    fn final_states_are_cancelled_and_expired() {
        assert!(!Active.is_final());
        assert!(!Paused.is_final());
        assert!(Cancelled.is_final());
        assert!(Expired.is_final());
    }
}
