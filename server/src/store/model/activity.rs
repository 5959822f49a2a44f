//! The audit trail around a payment: every gateway call made and every webhook received.

use checkout::contract::PaymentState;
use time::OffsetDateTime;

use crate::store::secret::BodyDigest;

/// How a gateway call ended, in the terms the gateway client reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AttemptOutcome {
    /// The gateway accepted the request (approved, or 3DS started).
    Succeeded,
    /// The issuer or a risk rule refused it.
    Declined,
    /// The gateway refused the request itself (validation, state).
    Rejected,
    /// The gateway refused the credentials.
    Unauthorized,
    /// Timeout, 5xx or unreadable body after a money-moving call: the outcome is not known.
    OutcomeUnknown,
    /// The request never reached the gateway.
    Transport,
}

impl AttemptOutcome {
    /// Every outcome.
    pub const ALL: [AttemptOutcome; 6] = [
        Self::Succeeded,
        Self::Declined,
        Self::Rejected,
        Self::Unauthorized,
        Self::OutcomeUnknown,
        Self::Transport,
    ];

    /// Stored name (also a good metrics label).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Succeeded => "succeeded",
            Self::Declined => "declined",
            Self::Rejected => "rejected",
            Self::Unauthorized => "unauthorized",
            Self::OutcomeUnknown => "outcome_unknown",
            Self::Transport => "transport",
        }
    }

    /// Reads a stored name.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|o| o.as_str() == name)
    }
}

/// A finished gateway call to log.
#[derive(Clone, Debug)]
pub struct NewAttempt {
    /// The payment it was for (its attempt counter goes up by one).
    pub payment_id: Option<String>,
    /// The subscription it was for (polls, pause, resume, cancel).
    pub subscription_id: Option<String>,
    /// Endpoint name, e.g. `paymentv2`, `transaction/status`.
    pub endpoint: String,
    /// When the request was sent.
    pub started_at: OffsetDateTime,
    /// When the answer (or the failure) came.
    pub finished_at: OffsetDateTime,
    /// How it ended.
    pub outcome: AttemptOutcome,
    /// HTTP status, when one was received.
    pub http_status: Option<u16>,
}

/// A logged gateway call.
#[derive(Clone, Debug)]
pub struct GatewayAttempt {
    /// Sequence number.
    pub id: i64,
    /// The payment it was for.
    pub payment_id: Option<String>,
    /// The subscription it was for.
    pub subscription_id: Option<String>,
    /// Endpoint name.
    pub endpoint: String,
    /// When the request was sent.
    pub started_at: OffsetDateTime,
    /// When it ended.
    pub finished_at: OffsetDateTime,
    /// `finished_at - started_at`, microseconds.
    pub latency_us: i64,
    /// How it ended.
    pub outcome: AttemptOutcome,
    /// HTTP status, when one was received.
    pub http_status: Option<u16>,
}

/// What the server concluded about a webhook notification.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WebhookVerdict {
    /// Recorded, not judged yet (or the status lookup failed; the reconciler settles it).
    Received,
    /// The status endpoint confirmed what it claimed.
    Confirmed,
    /// Same body as an earlier delivery for the same payment: ignored.
    Duplicate,
    /// It claimed an outcome the status endpoint contradicts (e.g. "paid" for an unpaid one).
    Forged,
    /// Amount, currency or transaction did not match the payment's record.
    Mismatch,
}

impl WebhookVerdict {
    /// Every verdict.
    pub const ALL: [WebhookVerdict; 5] = [
        Self::Received,
        Self::Confirmed,
        Self::Duplicate,
        Self::Forged,
        Self::Mismatch,
    ];

    /// Stored name (also a good metrics label).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Received => "received",
            Self::Confirmed => "confirmed",
            Self::Duplicate => "duplicate",
            Self::Forged => "forged",
            Self::Mismatch => "mismatch",
        }
    }

    /// Reads a stored name.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.as_str() == name)
    }
}

/// A webhook delivery to record. The body itself is never stored, only its digest.
#[derive(Clone, Debug)]
pub struct NewWebhookEvent {
    /// The payment named by the webhook path.
    pub payment_id: String,
    /// Arrival time.
    pub received_at: OffsetDateTime,
    /// Digest of the raw body, to recognise a repeat delivery.
    pub body_digest: BodyDigest,
    /// `transaction_details.id` it carried.
    pub gateway_transaction_id: Option<String>,
    /// The outcome it claimed.
    pub claimed_state: Option<PaymentState>,
    /// The amount it claimed, minor units.
    pub claimed_amount: Option<u64>,
    /// The currency it claimed.
    pub claimed_currency: Option<String>,
}

/// A recorded webhook delivery.
#[derive(Clone, Debug)]
pub struct WebhookEvent {
    /// Sequence number.
    pub id: i64,
    /// The payment named by the webhook path.
    pub payment_id: String,
    /// Arrival time.
    pub received_at: OffsetDateTime,
    /// Digest of the raw body.
    pub body_digest: BodyDigest,
    /// `transaction_details.id` it carried.
    pub gateway_transaction_id: Option<String>,
    /// The outcome it claimed.
    pub claimed_state: Option<PaymentState>,
    /// The amount it claimed.
    pub claimed_amount: Option<u64>,
    /// The currency it claimed.
    pub claimed_currency: Option<String>,
    /// What the server concluded.
    pub verdict: WebhookVerdict,
    /// For a duplicate: the first delivery with the same body.
    pub duplicate_of: Option<i64>,
}

/// The answer to recording a webhook delivery.
#[derive(Clone, Debug)]
pub enum WebhookReceipt {
    /// The first delivery of this body for this payment: judge it.
    First(WebhookEvent),
    /// A repeat, recorded with verdict `duplicate`; `original` is the first delivery.
    Duplicate {
        /// This delivery's record.
        event: WebhookEvent,
        /// The first delivery with the same body.
        original: WebhookEvent,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for outcome in AttemptOutcome::ALL {
            assert_eq!(AttemptOutcome::parse(outcome.as_str()), Some(outcome));
        }
        for verdict in WebhookVerdict::ALL {
            assert_eq!(WebhookVerdict::parse(verdict.as_str()), Some(verdict));
        }
        assert_eq!(WebhookVerdict::parse("ok"), None);
    }
}
