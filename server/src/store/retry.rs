//! What the store keeps and answers when a shopper pays a session again (issue 32): the 3-D
//! Secure redirect that frees a payment's place, superseding a payment left at the bank by a
//! new one, and the surplus rule that reverses a second charge of one session.
//!
//! Kept apart from [`PaymentStore`](super::traits::PaymentStore): these are the only writes
//! that look at several payments of a session at once.

use async_trait::async_trait;
use time::{Duration, OffsetDateTime};

use super::error::StoreResult;
use super::model::{IdempotencyKey, NewPayment, Payment};
use super::secret::BodyDigest;

/// What [`RetryStore::supersede_and_create_pending_payment`] did.
#[derive(Debug)]
pub enum Supersede {
    /// `new` was recorded in `pending` under the held claim; `superseded` are the payments it
    /// took the place of (at least one: a claim held by no payment at the bank is `Busy`).
    Recorded {
        /// The payment just recorded (with its webhook path secret).
        payment: Box<Payment>,
        /// Ids of the payments it superseded.
        superseded: Vec<String>,
    },
    /// The claim is not held (any more): take it the ordinary way.
    ClaimFree,
    /// The session is paid (its keeper is set): nothing was written.
    Paid,
    /// A payment of the session is in flight and cannot be superseded (its gateway call may
    /// not have been answered, or its outcome is unknown): nothing was written.
    Busy,
}

/// What [`RetryStore::begin_session_claim`] found.
#[derive(Debug, PartialEq, Eq)]
pub enum SessionClaim {
    /// The claim was free and the session not paid: this caller holds it now.
    Taken,
    /// The session is paid (its keeper is set): nothing was written.
    Paid,
    /// Another payment holds the claim, taken at `since`.
    Held {
        /// When the claim was taken.
        since: OffsetDateTime,
    },
}

/// Writes and reads for paying a session again.
#[async_trait]
pub trait RetryStore: Send + Sync {
    /// Takes the pay claim `claim` of session `session_id` (digest `digest`, at `now`) in one
    /// statement that refuses a paid session, as the claim-and-insert of the pay call does
    /// ([`PaymentStore::claim_and_create_pending_payment`](super::traits::PaymentStore::claim_and_create_pending_payment)).
    async fn begin_session_claim(
        &self,
        claim: &IdempotencyKey,
        session_id: &str,
        digest: &BodyDigest,
        now: OffsetDateTime,
    ) -> StoreResult<SessionClaim>;
    /// Notes that the 3-D Secure start of `payment_id` (still `pending`) was answered with a
    /// redirect: the shopper was sent to the bank. Whether it was noted.
    async fn note_three_ds_redirect(
        &self,
        payment_id: &str,
        now: OffsetDateTime,
    ) -> StoreResult<bool>;
    /// Under the session's pay claim `claim` (held, `in_progress`), atomically: when `new`'s
    /// session is not paid (no keeper), and every unsettled one is either superseded or a
    /// 3-D Secure payment `pending` at the bank (redirected before `redirected_before`: one
    /// redirected since counts as in flight, the same click twice), and at least one is the
    /// latter, marks those superseded by the new payment and records `new` in `pending`; the
    /// claim stays held, now for it. Of
    /// two concurrent calls for one session only one records a payment: the claim's row is
    /// locked first (Postgres) or the write lock taken (SQLite), then the payments are read.
    async fn supersede_and_create_pending_payment(
        &self,
        claim: &IdempotencyKey,
        new: NewPayment,
        now: OffsetDateTime,
        redirected_before: OffsetDateTime,
    ) -> StoreResult<Supersede>;
    /// The surplus rule's check of `session_id`, in one statement: of its payments that were
    /// ever authorized or captured (subscriptions aside), the session's keeper keeps the
    /// charge and its check is done; every other one is marked surplus of it (if the step that
    /// paid it did not already) and stays due (made due at `now` if it was not) until its
    /// reversal is recorded. Returns the payments whose work was due, and any newly marked.
    async fn mark_surplus(
        &self,
        session_id: &str,
        now: OffsetDateTime,
    ) -> StoreResult<Vec<Payment>>;
    /// Takes up to `limit` payments whose surplus work is due at `now`, pushing their due
    /// time `hold` later so no other instance takes them meanwhile (a crash leaves them due
    /// again then). Oldest due first.
    async fn take_due_surplus(
        &self,
        now: OffsetDateTime,
        hold: Duration,
        limit: u32,
    ) -> StoreResult<Vec<Payment>>;
    /// Ends the surplus work of `payment_id` (`due: None`: reversed, or nothing to do), or
    /// sets when to try again; `failed` counts one more refused or unknown reversal. Returns
    /// the payment afterwards.
    async fn set_surplus_due(
        &self,
        payment_id: &str,
        due: Option<OffsetDateTime>,
        failed: bool,
    ) -> StoreResult<Option<Payment>>;
}
