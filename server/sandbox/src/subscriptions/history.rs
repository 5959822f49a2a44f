//! One billing attempt of a subscription (an item of `subscription_transaction_details`).

use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use uuid::Uuid;

/// Outcome of one billing attempt (`status`, also used for `last_payment_status`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum CycleStatus {
    /// The card was charged.
    Successful,
    /// The charge was declined or rejected; no money moved.
    Failed,
}

impl CycleStatus {
    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Successful => "SUCCESSFUL",
            Self::Failed => "FAILED",
        }
    }
}

/// What happened to the money (`event`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum CycleEvent {
    /// The amount was captured.
    Captured,
    /// The issuer or a risk rule declined the charge.
    Declined,
}

impl CycleEvent {
    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Captured => "CAPTURED",
            Self::Declined => "DECLINED",
        }
    }
}

/// The gateway transaction a billing attempt produced, as the charge step reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChargeResult {
    /// `transaction_details.id` of the recorded transaction (findable by /transaction/status).
    pub transaction_id: Uuid,
    /// `transaction_details.ref` of that transaction.
    pub reference: u64,
    /// Whether the card was charged.
    pub approved: bool,
    /// When the charge was made (sandbox clock).
    pub charged_at: OffsetDateTime,
}

/// One recorded billing attempt. A cycle that is retried has one entry per attempt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubscriptionTransaction {
    /// `id`: the gateway transaction id.
    pub id: Uuid,
    /// `ref`: the gateway transaction reference.
    pub reference: u64,
    /// `cycle`: the 1-based cycle this attempt was for.
    pub cycle: u32,
    /// Which attempt at this cycle it was (1 = on the due date, 2.. = retries).
    pub attempt: u8,
    /// `status`.
    pub status: CycleStatus,
    /// `transaction_date`: when the charge was made.
    pub transaction_date: OffsetDateTime,
    /// `amount` asked for, in minor units (after any discount).
    pub amount: u64,
    /// `ccy`.
    pub currency: String,
    /// `event`.
    pub event: CycleEvent,
}

impl SubscriptionTransaction {
    /// Builds the entry for `cycle`'s attempt `attempt` from the charge's result.
    pub fn from_charge(
        cycle: u32,
        attempt: u8,
        amount: u64,
        currency: &str,
        charge: &ChargeResult,
    ) -> Self {
        let (status, event) = if charge.approved {
            (CycleStatus::Successful, CycleEvent::Captured)
        } else {
            (CycleStatus::Failed, CycleEvent::Declined)
        };
        Self {
            id: charge.transaction_id,
            reference: charge.reference,
            cycle,
            attempt,
            status,
            transaction_date: charge.charged_at,
            amount,
            currency: currency.to_owned(),
            event,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn approved_is_successful_and_captured_declined_is_failed_and_declined() {
        let mut charge = ChargeResult {
            transaction_id: Uuid::new_v4(),
            reference: 41,
            approved: true,
            charged_at: datetime!(2025-05-01 00:00:00 UTC),
        };
        let paid = SubscriptionTransaction::from_charge(2, 1, 900, "JPY", &charge);
        assert_eq!(paid.status.as_str(), "SUCCESSFUL");
        assert_eq!(paid.event.as_str(), "CAPTURED");
        assert_eq!(
            (paid.id, paid.reference, paid.cycle, paid.amount),
            (charge.transaction_id, 41, 2, 900)
        );
        assert_eq!(paid.currency, "JPY");
        assert_eq!(paid.transaction_date, charge.charged_at);
        charge.approved = false;
        let failed = SubscriptionTransaction::from_charge(3, 2, 1000, "JPY", &charge);
        assert_eq!(failed.status.as_str(), "FAILED");
        assert_eq!(failed.event.as_str(), "DECLINED");
        assert_eq!(failed.attempt, 2);
    }
}
