//! The store's interface, one trait per concern; [`Store`] is all of them together, used as
//! `Arc<dyn Store>`.
//!
//! The traits use `async_trait` so they stay object-safe: the server holds one
//! `Arc<dyn Store>` chosen at start-up from `DATABASE_URL`, and no handler or worker has to
//! be generic over the backend. The boxed future per call costs nanoseconds against a
//! database round trip.
//!
//! Timestamps are kept to the millisecond; amounts are minor units.

use async_trait::async_trait;
use checkout::contract::PaymentState;
use time::{Duration, OffsetDateTime};

use super::error::StoreResult;
use super::model::*;
use super::secret::BodyDigest;

/// Checkout sessions.
#[async_trait]
pub trait SessionStore: Send + Sync {
    /// Stores a session (and its customer, if named); the store assigns id and `created_at`.
    async fn create_session(&self, new: NewSession) -> StoreResult<Session>;
    /// The session with this id.
    async fn get_session(&self, id: &str) -> StoreResult<Option<Session>>;
    /// The session with this id and, in the same read, the saved card `card_id` if it belongs
    /// to the session's customer (what [`CustomerStore::get_card`] returned for it when it was
    /// last read or written: the card may come from memory, and
    /// [`PaymentStore::claim_and_create_pending_payment`] re-checks it).
    async fn get_session_with_card(
        &self,
        id: &str,
        card_id: &str,
    ) -> StoreResult<Option<(Session, Option<SavedCardRecord>)>>;
    /// The keeper of session `id`: its first payment paid, if any. Always read from the
    /// database (unlike the session itself, it changes once: when the session is paid).
    async fn session_keeper(&self, id: &str) -> StoreResult<Option<SessionKeeper>>;
}

/// Payments and their forward-only state machine.
#[async_trait]
pub trait PaymentStore: Send + Sync {
    /// Records a payment in `created`, before the gateway is called. The store assigns the id
    /// and the webhook path token.
    async fn create_payment(&self, new: NewPayment) -> StoreResult<Payment>;
    /// Records a payment directly in `pending` (`pending_since` now), for a caller about to
    /// call the gateway: one statement where `create_payment` and a step to `pending` take
    /// two. Durable before the call like `created`; if the call never happens the reconciler
    /// treats it as any pending payment whose id was never learned (review, never a charge).
    async fn create_pending_payment(&self, new: NewPayment) -> StoreResult<Payment>;
    /// Takes the idempotency record `claim` (as [`begin_idempotent`] would, for a request
    /// with digest `digest`) and records `new` in `pending`, atomically and in one round trip;
    /// `None`, with nothing written, when the claim is already held, or when `new` names a
    /// saved card that is no longer its customer's with the details `new.card` gives (deleted,
    /// or saved again with a new expiry, since it was read). The pay call's way to claim its
    /// session and record its payment before the gateway is called.
    ///
    /// [`begin_idempotent`]: IdempotencyStore::begin_idempotent
    async fn claim_and_create_pending_payment(
        &self,
        claim: &IdempotencyKey,
        digest: &BodyDigest,
        new: NewPayment,
    ) -> StoreResult<Option<Payment>>;
    /// The payment with this id.
    async fn get_payment(&self, id: &str) -> StoreResult<Option<Payment>>;
    /// The payment the gateway knows as `gateway_transaction_id`.
    async fn find_payment_by_gateway_id(
        &self,
        gateway_transaction_id: &str,
    ) -> StoreResult<Option<Payment>>;
    /// Compare-and-set: moves the payment to `to` only if it is in one of `from` right now, and
    /// applies `changes` in the same statement. Every `from → to` must be allowed by
    /// [`transitions`](super::transitions) (else [`IllegalTransition`]); a payment found in
    /// another state, or failing a guard in [`PaymentChanges`], is returned `Unchanged`.
    ///
    /// [`IllegalTransition`]: super::StoreError::IllegalTransition
    async fn advance_payment(
        &self,
        id: &str,
        from: &[PaymentState],
        to: PaymentState,
        changes: PaymentChanges,
    ) -> StoreResult<Advance>;
    /// [`advance_payment`](Self::advance_payment) and
    /// [`record_attempt`](ActivityStore::record_attempt) of the gateway call that produced the
    /// outcome, in one transaction: the call is logged and counted whether or not the step
    /// happens, and never without the step's decision being recorded with it.
    async fn advance_payment_logged(
        &self,
        id: &str,
        from: &[PaymentState],
        to: PaymentState,
        changes: PaymentChanges,
        attempt: NewAttempt,
    ) -> StoreResult<Advance>;
    /// Records the gateway transaction id of an unsettled (`created`, `pending` or
    /// `needs_review`) payment whose id was not yet known, once a status lookup confirmed it
    /// (a kept hint is dropped then). It also makes the payment due for the reconciler at
    /// once. Returns whether it was recorded; a known id is never replaced, and an id already
    /// recorded on another payment is a `Conflict`.
    async fn note_gateway_transaction(
        &self,
        id: &str,
        gateway_transaction_id: &str,
    ) -> StoreResult<bool>;
    /// Keeps `hint`, a transaction id named for an unsettled payment whose id is not known
    /// and that no status lookup could confirm yet, apart from its gateway id, and makes the
    /// payment due for the reconciler at once. With `replace` it takes the place of a hint
    /// already kept; without, it is kept only where none is. Returns whether it was kept.
    async fn keep_transaction_hint(&self, id: &str, hint: &str, replace: bool)
    -> StoreResult<bool>;
    /// Drops the kept hint of the payment if it is still `hint`. Returns whether it was.
    async fn drop_transaction_hint(&self, id: &str, hint: &str) -> StoreResult<bool>;
    /// Payments, newest first.
    async fn list_payments(&self, query: PaymentQuery) -> StoreResult<Page<Payment>>;
    /// The same payments as [`PaymentStore::list_payments`], only what the CSV export shows of
    /// each (a batch of a streamed export with [`PaymentQuery::bulk`]).
    async fn payment_lines(&self, query: PaymentQuery) -> StoreResult<Page<PaymentLine>>;
    /// How many payments are in each state (states with none are left out).
    async fn count_payments_by_state(&self) -> StoreResult<Vec<(PaymentState, u64)>>;
}

/// Leases that keep several server instances from working on the same record at once.
///
/// A lease is a (owner, until) pair on the row. Claims take only rows whose lease is free or
/// expired, in one atomic statement (Postgres: `FOR UPDATE SKIP LOCKED`; SQLite: a single
/// writer), so two instances never hold the same row. An instance that dies simply lets its
/// leases expire.
#[async_trait]
pub trait LeaseStore: Send + Sync {
    /// Leases up to `limit` payments in `created`, `pending` or `needs_review` whose
    /// `next_check_at` is due, oldest due first.
    async fn claim_due_payments(
        &self,
        now: OffsetDateTime,
        owner: &str,
        lease: Duration,
        limit: u32,
    ) -> StoreResult<Vec<Payment>>;
    /// Leases one payment (any state) for an operation such as capture or refund; `false` when
    /// someone else holds it.
    async fn lease_payment(
        &self,
        id: &str,
        owner: &str,
        now: OffsetDateTime,
        lease: Duration,
    ) -> StoreResult<bool>;
    /// Gives a payment's lease back and sets when it is due again (`None` keeps the time).
    /// `false` when `owner` did not hold it (it expired and was taken over).
    async fn release_payment(
        &self,
        id: &str,
        owner: &str,
        next_check_at: Option<OffsetDateTime>,
    ) -> StoreResult<bool>;
    /// Leases up to `limit` active or paused subscriptions whose `next_poll_at` is due.
    async fn claim_due_subscriptions(
        &self,
        now: OffsetDateTime,
        owner: &str,
        lease: Duration,
        limit: u32,
    ) -> StoreResult<Vec<Subscription>>;
    /// Gives a subscription's lease back and sets when to poll it next (`None` keeps the time).
    async fn release_subscription(
        &self,
        id: &str,
        owner: &str,
        next_poll_at: Option<OffsetDateTime>,
    ) -> StoreResult<bool>;
}

/// Gateway call log and webhook deliveries.
#[async_trait]
pub trait ActivityStore: Send + Sync {
    /// Logs a finished gateway call and counts it on its payment.
    async fn record_attempt(&self, attempt: NewAttempt) -> StoreResult<GatewayAttempt>;
    /// A payment's gateway calls, oldest first.
    async fn list_attempts(&self, payment_id: &str) -> StoreResult<Vec<GatewayAttempt>>;
    /// Records a webhook delivery. A body already received for the same payment is recorded
    /// as a duplicate, atomically, so of two simultaneous identical deliveries one is `First`.
    async fn record_webhook(&self, event: NewWebhookEvent) -> StoreResult<WebhookReceipt>;
    /// Sets the verdict of a delivery after judging it.
    async fn set_webhook_verdict(&self, event_id: i64, verdict: WebhookVerdict) -> StoreResult<()>;
    /// A payment's webhook deliveries, oldest first.
    async fn list_webhooks(&self, payment_id: &str) -> StoreResult<Vec<WebhookEvent>>;
}

/// `Idempotency-Key` records.
#[async_trait]
pub trait IdempotencyStore: Send + Sync {
    /// Atomically claims `key` for a request with digest `request`, or reports what an earlier
    /// request with the same key did. Of two concurrent identical requests exactly one gets
    /// [`IdempotencyBegin::New`].
    async fn begin_idempotent(
        &self,
        key: &IdempotencyKey,
        request: &BodyDigest,
        now: OffsetDateTime,
    ) -> StoreResult<IdempotencyBegin>;
    /// Stores the response of the request that got `New`. Errors with `NotFound` if the key
    /// is not in progress.
    async fn complete_idempotent(
        &self,
        key: &IdempotencyKey,
        response: &StoredResponse,
        now: OffsetDateTime,
    ) -> StoreResult<()>;
    /// Forgets an in-progress key whose request failed before anything happened (so a retry
    /// with the same key runs again). A completed key is kept.
    async fn release_idempotent(&self, key: &IdempotencyKey) -> StoreResult<()>;
    /// Deletes records created before `before`; returns how many.
    async fn purge_idempotency(&self, before: OffsetDateTime) -> StoreResult<u64>;
}

/// Customers, their saved cards and their self-service tokens.
#[async_trait]
pub trait CustomerStore: Send + Sync {
    /// Creates the customer or updates the e-mail (a `None` e-mail keeps the old one).
    async fn upsert_customer(&self, id: &str, email: Option<&str>) -> StoreResult<Customer>;
    /// Saves a card (creating the customer if needed). Saving the same gateway token for the
    /// same customer again returns the existing card.
    async fn save_card(&self, card: NewSavedCard) -> StoreResult<SavedCardRecord>;
    /// A customer's saved cards, oldest first.
    async fn list_cards(&self, customer_id: &str) -> StoreResult<Vec<SavedCardRecord>>;
    /// One saved card, only if it belongs to `customer_id`.
    async fn get_card(
        &self,
        customer_id: &str,
        card_id: &str,
    ) -> StoreResult<Option<SavedCardRecord>>;
    /// Deletes a saved card of `customer_id`; `false` if there was none.
    async fn delete_card(&self, customer_id: &str, card_id: &str) -> StoreResult<bool>;
    /// Stores a customer token's hash (creating the customer if needed).
    async fn create_customer_token(&self, token: NewCustomerToken) -> StoreResult<()>;
    /// The customer whose unexpired token `presented` is.
    async fn customer_for_token(
        &self,
        presented: &str,
        now: OffsetDateTime,
    ) -> StoreResult<Option<String>>;
    /// Revokes a token; `false` if it was unknown.
    async fn revoke_customer_token(&self, presented: &str) -> StoreResult<bool>;
}

/// Subscriptions and their billed cycles.
#[async_trait]
pub trait SubscriptionStore: Send + Sync {
    /// Stores a subscription the gateway created; the store assigns the id.
    async fn create_subscription(&self, new: NewSubscription) -> StoreResult<Subscription>;
    /// The subscription with this id.
    async fn get_subscription(&self, id: &str) -> StoreResult<Option<Subscription>>;
    /// The subscription the gateway knows as `gateway_subscription_id`.
    async fn find_subscription_by_gateway_id(
        &self,
        gateway_subscription_id: &str,
    ) -> StoreResult<Option<Subscription>>;
    /// Subscriptions, newest first.
    async fn list_subscriptions(&self, query: SubscriptionQuery)
    -> StoreResult<Page<Subscription>>;
    /// Applies what the gateway says now (see [`SubscriptionSync`] for the guards) and sets the
    /// next poll time (cleared once the status is final).
    async fn sync_subscription(
        &self,
        id: &str,
        sync: SubscriptionSync,
        next_poll_at: Option<OffsetDateTime>,
    ) -> StoreResult<Synced>;
    /// Records a billed cycle, idempotently by (subscription, cycle).
    async fn upsert_cycle(&self, cycle: NewCycle) -> StoreResult<CycleUpsert>;
    /// A subscription's cycles, by number.
    async fn list_cycles(&self, subscription_id: &str) -> StoreResult<Vec<SubscriptionCycle>>;
}

/// Everything the server stores. Implemented by [`SqliteStore`](super::SqliteStore) and
/// [`PostgresStore`](super::PostgresStore); pick one with [`connect`](super::connect).
#[async_trait]
pub trait Store:
    SessionStore
    + PaymentStore
    + LeaseStore
    + ActivityStore
    + IdempotencyStore
    + CustomerStore
    + SubscriptionStore
    + super::events::EventStore
    + super::delivery_report::DeliveryReportStore
    + super::stats::StatsStore
    + super::analytics::AnalyticsStore
    + super::staff::StaffStore
    + super::staff::AuditStore
    + super::two_factor::TwoFactorStore
    + super::retry::RetryStore
    + super::key_rotation::KeyRotationStore
    + super::risk::RiskStore
    + super::blocks::BlockListStore
    + super::card_testing::CardTestingStore
    + super::risk_overrides::RiskOverrideStore
    + super::signups::SignupStore
    + super::gateway_list::GatewayListStore
    + super::links::PaymentLinkStore
{
    /// `"sqlite"` or `"postgres"`.
    fn backend_name(&self) -> &'static str;
    /// One round trip to the database (for `/readyz`).
    async fn ping(&self) -> StoreResult<()>;
    /// Closes the pool, waiting for connections in use (graceful shutdown).
    async fn close(&self);
}
