//! Payments: one gateway charge (or authorization) attempt for a session, and the changes a
//! state step may carry.

use checkout::contract::{DeclineCode, PaymentState};
use checkout::wire::Address;
use secrecy::SecretString;
use time::OffsetDateTime;

use super::card::CardSummary;
use super::review::ReviewReason;
use super::session::CaptureMode;
use crate::store::secret::SecretHash;

/// Which gateway call a payment uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PaymentKind {
    /// `paymentv2`: 3DS purchase with a card.
    PaymentV2,
    /// `authorizationv2`: 3DS authorization with a card.
    AuthorizationV2,
    /// Token form of `/payment`: purchase with a saved card.
    TokenPayment,
    /// Token form of `/authorization`: authorization with a saved card.
    TokenAuthorization,
    /// `subscription/payment`: the first charge of a subscription.
    Subscription,
}

impl PaymentKind {
    /// Every kind.
    pub const ALL: [PaymentKind; 5] = [
        Self::PaymentV2,
        Self::AuthorizationV2,
        Self::TokenPayment,
        Self::TokenAuthorization,
        Self::Subscription,
    ];

    /// Stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::PaymentV2 => "payment_v2",
            Self::AuthorizationV2 => "authorization_v2",
            Self::TokenPayment => "token_payment",
            Self::TokenAuthorization => "token_authorization",
            Self::Subscription => "subscription",
        }
    }

    /// Reads a stored name.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|kind| kind.as_str() == name)
    }

    /// The kind of a new-card (3-D Secure) payment in a session of `mode`.
    pub fn three_ds_for(mode: CaptureMode) -> Self {
        match mode {
            CaptureMode::Capture => Self::PaymentV2,
            CaptureMode::Authorize => Self::AuthorizationV2,
        }
    }

    /// The kind of a saved-card payment in a session of `mode`.
    pub fn token_for(mode: CaptureMode) -> Self {
        match mode {
            CaptureMode::Capture => Self::TokenPayment,
            CaptureMode::Authorize => Self::TokenAuthorization,
        }
    }
}

/// A payment to record before the gateway is called. It starts in `created`.
#[derive(Clone, Debug)]
pub struct NewPayment {
    /// The session it pays.
    pub session_id: String,
    /// The session's customer, if any (for listing by customer).
    pub customer_id: Option<String>,
    /// Which gateway call.
    pub kind: PaymentKind,
    /// Minor units of `currency`.
    pub amount: u64,
    /// ISO 4217 code.
    pub currency: String,
    /// The session's reference: the store sends it as `merchant_txn_ref` with the payment's
    /// attempt number appended, within 45 characters (`store::sql::new_payment`).
    pub merchant_txn_ref: String,
    /// The card, as far as it may be kept.
    pub card: Option<CardSummary>,
    /// The saved card used, for a token payment.
    pub saved_card_id: Option<String>,
    /// The shopper asked to save the card (its token is kept only then).
    pub save_card: bool,
    /// With `save_card`: the billing address the card is to keep (migration 0021).
    pub save_card_billing: Option<Address>,
    /// When the reconciler should first look at it if it is still unsettled.
    pub next_check_at: OffsetDateTime,
    /// After this, an outcome that was never learned makes it `needs_review`.
    pub review_deadline: OffsetDateTime,
    /// What the card-testing rules count it by.
    pub risk: RiskFacts,
}

/// What the card-testing rules (`risk/`) count a payment by (migration 0016). All `None` for a
/// payment recorded without them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RiskFacts {
    /// The typed card's keyed fingerprint (`risk::CardFingerprint`, 43 characters); never
    /// anything else derived from the number.
    pub card_fingerprint: Option<String>,
    /// The shopper's address key: an IPv4 address or an IPv6 /64, 32 hex digits.
    pub client_key: Option<String>,
    /// The session's e-mail, lower-cased.
    pub shopper_email: Option<String>,
}

/// A stored payment.
#[derive(Clone, Debug)]
pub struct Payment {
    /// Payment id (a UUID); also in its webhook, success and decline paths.
    pub id: String,
    /// The session it pays.
    pub session_id: String,
    /// The session's customer.
    pub customer_id: Option<String>,
    /// Which gateway call.
    pub kind: PaymentKind,
    /// Where it stands.
    pub state: PaymentState,
    /// Minor units of `currency`.
    pub amount: u64,
    /// ISO 4217 code.
    pub currency: String,
    /// Sent as `merchant_txn_ref`: the session's reference with `-<attempt_number>` appended
    /// (migration 0026; payments recorded before it carry the session's reference alone).
    pub merchant_txn_ref: String,
    /// Its place among its session's payments, from 1 (`None` before migration 0026).
    pub attempt_number: Option<u32>,
    /// Why it went to `needs_review`, once it has.
    pub review_reason: Option<ReviewReason>,
    /// The payment link its session was made from (migration 0038).
    pub payment_link_id: Option<String>,
    /// `transaction_details.id`, once a status lookup confirmed it is this payment's.
    pub gateway_transaction_id: Option<String>,
    /// A transaction id a return visit or webhook named while no lookup could confirm it:
    /// only ever looked up, never taken as the payment's id before a lookup matches it.
    pub transaction_hint: Option<String>,
    /// `transaction_details.ref`, once learned.
    pub gateway_ref: Option<i64>,
    /// `payment_details.response_code` of the outcome.
    pub response_code: Option<i64>,
    /// Why it was declined.
    pub decline_code: Option<DeclineCode>,
    /// The card-testing rule that blocked it (state `blocked`).
    pub risk_rule: Option<String>,
    /// The card's keyed fingerprint, when one was recorded (a typed card's, or a saved card's
    /// kept from the payment it was saved from).
    pub card_fingerprint: Option<String>,
    /// The shopper's address key (an IPv4 address or an IPv6 /64, 32 hex digits), when one was
    /// recorded.
    pub client_key: Option<String>,
    /// The card, as far as it is kept.
    pub card: Option<CardSummary>,
    /// The saved card used, for a token payment.
    pub saved_card_id: Option<String>,
    /// Captured so far, minor units.
    pub captured_amount: u64,
    /// Refunded so far, minor units (never above `captured_amount`).
    pub refunded_amount: u64,
    /// Gateway calls made for it.
    pub attempts: u32,
    /// The subscription its charge started.
    pub subscription_id: Option<String>,
    /// The SHA-256 of its webhook URL's path secret; see [`Payment::verify_webhook_token`].
    pub webhook_token_hash: SecretHash,
    /// The path secret itself: only on the payment as the store has just recorded it, for the
    /// gateway request that names the webhook URL; the store keeps only its hash.
    pub webhook_token: Option<SecretString>,
    /// The shopper asked to save the card.
    pub save_card: bool,
    /// When it first became pending.
    pub pending_since: Option<OffsetDateTime>,
    /// When an unlearned outcome turns into `needs_review`.
    pub review_deadline: OffsetDateTime,
    /// When the reconciler looks at it next.
    pub next_check_at: Option<OffsetDateTime>,
    /// The instance holding its lease, if any.
    pub lease_owner: Option<String>,
    /// Until when that lease holds.
    pub lease_until: Option<OffsetDateTime>,
    /// Recorded.
    pub created_at: OffsetDateTime,
    /// Last changed.
    pub updated_at: OffsetDateTime,
    /// What happened to it after its session was paid again: superseded, the surplus rule.
    pub retry: RetryMarks,
}

/// What a payment carries about the shopper paying its session again (issue 32): the 3-D
/// Secure redirect that let a later payment supersede it, and the surplus rule's work.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RetryMarks {
    /// When its 3-D Secure start was answered with a redirect: the shopper went to the bank,
    /// no gateway call of ours is in flight for it.
    pub redirected_at: Option<OffsetDateTime>,
    /// The later payment of the same session that took its place.
    pub superseded_by: Option<String>,
    /// When that happened.
    pub superseded_at: Option<OffsetDateTime>,
    /// When it first became authorized or captured.
    pub paid_at: Option<OffsetDateTime>,
    /// When the surplus rule has work to do on it (check, or reverse); `None`: nothing.
    pub surplus_due_at: Option<OffsetDateTime>,
    /// The payment of the same session that keeps the charge: this one is to be reversed.
    pub surplus_of: Option<String>,
    /// Reversals of this surplus the gateway refused or left unknown so far.
    pub surplus_failures: u32,
}

impl Payment {
    /// Whether `presented` is this payment's webhook path token (constant-time).
    pub fn verify_webhook_token(&self, presented: &str) -> bool {
        self.webhook_token_hash.verify(presented)
    }

    /// Whether its outcome is known for good: settled, and not waiting for review (a payment
    /// in review may still be settled by a status lookup).
    pub fn outcome_is_final(&self) -> bool {
        self.state.is_settled()
            && self.state != PaymentState::NeedsReview
            && !self.is_abandoned_at_the_bank()
    }

    /// A superseded 3-D Secure payment that an earlier version resolved as failed at its review
    /// deadline because its session was paid by another payment and it never heard back
    /// (decline reason `authentication_failed`). Since issue 45 such a payment goes to review
    /// instead (`unverified_at_the_bank`); rows resolved before still exist. The bank may still
    /// prove a charge on one; that is recorded (`failed → authorized/captured`) and reversed
    /// as surplus, so it is not final.
    pub fn is_abandoned_at_the_bank(&self) -> bool {
        self.state == PaymentState::Failed
            && self.retry.superseded_by.is_some()
            && self.decline_code == Some(DeclineCode::AuthenticationFailed)
    }

    /// What can still be refunded, minor units.
    pub fn refundable(&self) -> u64 {
        self.captured_amount.saturating_sub(self.refunded_amount)
    }

    /// The state a refund of `amount` leads to, or `None` when it is not refundable that much.
    pub fn state_after_refund(&self, amount: u64) -> Option<PaymentState> {
        let refundable_now = matches!(
            self.state,
            PaymentState::Captured | PaymentState::PartiallyRefunded
        );
        if !refundable_now || amount == 0 || amount > self.refundable() {
            return None;
        }
        Some(if amount == self.refundable() {
            PaymentState::Refunded
        } else {
            PaymentState::PartiallyRefunded
        })
    }
}

/// Fields a state step may set alongside the new state. `None` leaves a field as it is.
#[derive(Clone, Debug, Default)]
pub struct PaymentChanges {
    /// Recorded when none is known yet. If a different id is already known the step does not
    /// happen (a hint naming another transaction must not re-point the payment).
    pub gateway_transaction_id: Option<String>,
    /// `transaction_details.ref`.
    pub gateway_ref: Option<i64>,
    /// `payment_details.response_code`.
    pub response_code: Option<i64>,
    /// Decline reason.
    pub decline_code: Option<DeclineCode>,
    /// Amount captured. A step to `captured` without it captures the whole amount; it may not
    /// exceed the payment's amount.
    pub captured_amount: Option<u64>,
    /// A refund to add. Required exactly for steps to `partially_refunded` / `refunded`; the step
    /// happens only if the new total stays within what was captured and matches the state
    /// (`refunded` exactly at the captured amount, `partially_refunded` below it).
    pub refund: Option<u64>,
    /// The subscription this charge started (recorded once).
    pub subscription_id: Option<String>,
    /// When the reconciler should look next. On a step to an unsettled state `None` keeps the
    /// current time; on a step to a settled state the value is taken as is, so `None` means
    /// "nothing left to check" (set a time to have a `needs_review` payment looked at again).
    pub next_check_at: Option<OffsetDateTime>,
    /// Why, on a step to `needs_review`; kept as it is otherwise.
    pub review_reason: Option<ReviewReason>,
}

/// The answer of a compare-and-set state step.
#[derive(Clone, Debug)]
pub enum Advance {
    /// This call moved the payment; here it is afterwards.
    Moved(Payment),
    /// It was not in an expected state (or a guard failed): nothing changed; here it is now.
    Unchanged(Payment),
}

impl Advance {
    /// Whether this call moved the payment.
    pub fn moved(&self) -> bool {
        matches!(self, Self::Moved(_))
    }

    /// The payment after the call.
    pub fn payment(&self) -> &Payment {
        match self {
            Self::Moved(p) | Self::Unchanged(p) => p,
        }
    }

    /// The payment after the call.
    pub fn into_payment(self) -> Payment {
        match self {
            Self::Moved(p) | Self::Unchanged(p) => p,
        }
    }
}
