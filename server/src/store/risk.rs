//! What the store answers for the card-testing rules (`risk/`): the block-list entry a try
//! matches and the counts every velocity rule reads, in one statement per pay call, and the
//! step of a try the rules refused to `blocked`.
//!
//! Counts come from the database, never from process memory, so several instances behind a
//! balancer see one count. The payment being checked is already recorded (`pending`, holding
//! the session's pay claim) when its counts are read: its own card is among the cards counted,
//! once, and of two tries sharing an address, a customer or an e-mail at the same moment the
//! later one to count sees the earlier one. The pay call reads them in the round trip that
//! records the payment ([`RiskStore::claim_create_and_count`]).

use async_trait::async_trait;
use time::OffsetDateTime;

use super::error::StoreResult;
use super::model::{BlockKind, IdempotencyKey, NewPayment, Payment};
use super::secret::BodyDigest;

/// Which payments the counts look at: the one being checked gives its session, card and
/// shopper; each window starts at its `…_since`.
#[derive(Clone, Debug)]
pub struct RiskCountQuery {
    /// The session of the try.
    pub session_id: String,
    /// The typed card's fingerprint (`None`: a saved card without one; card counts by card
    /// are then zero).
    pub card_fingerprint: Option<String>,
    /// The shopper's address key (32 hex digits).
    pub client_key: Option<String>,
    /// The session's customer.
    pub customer_id: Option<String>,
    /// The session's e-mail, lower-cased.
    pub shopper_email: Option<String>,
    /// Start of the window of cards per address.
    pub client_since: OffsetDateTime,
    /// Start of the window of cards per customer.
    pub customer_since: OffsetDateTime,
    /// Start of the window of cards per e-mail.
    pub email_since: OffsetDateTime,
    /// Start of the window of declines per card.
    pub card_declines_since: OffsetDateTime,
    /// What the block lists are matched against.
    pub blocks: BlockProbe,
}

/// A try as the block lists match it: every field of every kind of try (a saved card's
/// included). The card is [`RiskCountQuery::card_fingerprint`].
#[derive(Clone, Debug, Default)]
pub struct BlockProbe {
    /// The card's first six digits.
    pub bin: Option<String>,
    /// The client's whole address, 32 hex digits (IPv4 mapped into IPv6).
    pub address: Option<String>,
    /// The session's e-mail, lower-cased.
    pub email: Option<String>,
    /// Its domain.
    pub email_domain: Option<String>,
    /// The session's customer.
    pub customer_id: Option<String>,
}

/// The counts, each over payments not blocked (a blocked try never reached the gateway).
/// Card counts are of distinct fingerprints, the checked try's own included.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RiskCounts {
    /// The first block list (in [`BlockKind::ALL`]'s order) with an entry matching the try.
    pub blocked: Option<BlockKind>,
    /// Distinct cards tried in the session.
    pub session_cards: u64,
    /// Declined payments of the session.
    pub session_declines: u64,
    /// Declined payments of the card in its window.
    pub card_declines: u64,
    /// Distinct cards tried from the address in its window.
    pub client_cards: u64,
    /// Distinct cards tried by the customer in its window.
    pub customer_cards: u64,
    /// Distinct cards tried with the e-mail in its window.
    pub email_cards: u64,
}

/// Reads and writes of the card-testing rules.
#[async_trait]
pub trait RiskStore: Send + Sync {
    /// The block list matching the try and every count the rules read, in one statement.
    async fn risk_counts(&self, query: &RiskCountQuery) -> StoreResult<RiskCounts>;
    /// [`PaymentStore::claim_and_create_pending_payment`], with the counts `query` (built for
    /// `new`: its session and card) read in the same round trip, after `new` is recorded.
    /// `None`, with nothing written, as there. Counts that were read but cannot be decoded
    /// come back as the error beside the payment, which is recorded.
    ///
    /// [`PaymentStore::claim_and_create_pending_payment`]: super::traits::PaymentStore::claim_and_create_pending_payment
    async fn claim_create_and_count(
        &self,
        claim: &IdempotencyKey,
        digest: &BodyDigest,
        new: NewPayment,
        query: &RiskCountQuery,
    ) -> StoreResult<Option<CountedPayment>>;
    /// Moves `payment_id` from `pending` to `blocked` with `rule`, its `payment.blocked`
    /// event written by the same statement; nothing is due for the reconciler afterwards.
    /// `None` when it was not `pending` (nothing changed).
    async fn block_payment(
        &self,
        payment_id: &str,
        rule: &str,
        now: OffsetDateTime,
    ) -> StoreResult<Option<Payment>>;
    /// Whether a pay call is a known shopper's (`risk::returning`): its checkout already has
    /// a try the gateway answered (declined, failed, paid: not blocked, not still waiting at
    /// the bank, not replaced while it waited there), its customer paid before, or its card
    /// paid (authorized, captured, refunded) from its address (a stored address key).
    async fn known_shopper(&self, shopper: &KnownShopperQuery) -> StoreResult<bool>;
    /// Whether a try of `session_id` was left at the bank: still waiting at its 3-D Secure
    /// page, or replaced while it waited there (what a card tester does with a live number).
    async fn left_at_the_bank(&self, session_id: &str) -> StoreResult<bool>;
}

/// A payment just recorded, with the card-testing counts read as it was.
#[derive(Debug)]
pub struct CountedPayment {
    /// The payment, `pending`, holding its session's claim.
    pub payment: Payment,
    /// Its counts, or why they could not be read.
    pub counts: StoreResult<RiskCounts>,
}

/// What [`RiskStore::known_shopper`] looks for.
#[derive(Clone, Debug)]
pub struct KnownShopperQuery {
    /// The checkout session.
    pub session_id: String,
    /// Its customer, when the shop's backend named one.
    pub customer_id: Option<String>,
    /// The client's stored address key.
    pub client_key: String,
    /// The typed card's fingerprint.
    pub card_fingerprint: String,
}
