//! Why a payment went to `needs_review`, and the keeper of a session: the two facts of
//! issue 45 ("one checkout, one charge") the store keeps beside payments and sessions.

use time::OffsetDateTime;

/// Why a payment needs a person. Only evidence (a webhook, a return visit, a status lookup)
/// or staff resolve it; it is never closed as `failed` on a guess.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReviewReason {
    /// A 3-D Secure attempt whose shopper was sent to the bank and that never heard back (no
    /// webhook, no return visit). The gateway's 3-D Secure start names no transaction, so
    /// nothing can look it up: the bank may have charged it.
    UnverifiedAtTheBank,
    /// A gateway call whose answer was lost (time-out, 5xx, unreadable) and that named no
    /// transaction: it may have been charged, and cannot be looked up.
    OutcomeUnknown,
    /// The gateway still reports the transaction pending after the deadline.
    StillPendingAtTheGateway,
    /// The gateway's record of the transaction contradicts ours (amount, currency, reference
    /// or type): no automatic outcome can be trusted.
    GatewayDisagrees,
}

impl ReviewReason {
    /// Every reason.
    pub const ALL: [ReviewReason; 4] = [
        Self::UnverifiedAtTheBank,
        Self::OutcomeUnknown,
        Self::StillPendingAtTheGateway,
        Self::GatewayDisagrees,
    ];

    /// Stored (and API) name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::UnverifiedAtTheBank => "unverified_at_the_bank",
            Self::OutcomeUnknown => "outcome_unknown",
            Self::StillPendingAtTheGateway => "still_pending_at_the_gateway",
            Self::GatewayDisagrees => "gateway_disagrees",
        }
    }

    /// Reads a stored name.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|reason| reason.as_str() == name)
    }
}

/// The payment that paid a session: its first payment to be authorized or captured. Written
/// once, in the statement that paid it (migration 0026); the session is paid for good from
/// then on, whatever later happens to that payment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionKeeper {
    /// The keeper's payment id.
    pub payment_id: String,
    /// When it was paid.
    pub paid_at: OffsetDateTime,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for reason in ReviewReason::ALL {
            assert_eq!(ReviewReason::parse(reason.as_str()), Some(reason));
        }
        assert_eq!(ReviewReason::parse("failed"), None);
    }
}
