//! What the whole-list check (issue 46) reads and keeps: which of the gateway's subscriptions
//! the store knows, the check's one lease and its last run, and the subscriptions it found
//! that a person must look at.

use async_trait::async_trait;
use time::{Duration, OffsetDateTime};

use super::error::StoreResult;
use super::model::Subscription;

/// Most gateway ids one [`GatewayListStore::known_gateway_ids`] call takes.
pub const KNOWN_IDS_BATCH: usize = 500;

/// A gateway subscription the store knows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KnownSubscription {
    /// The gateway's id.
    pub gateway_subscription_id: String,
    /// The server's id.
    pub id: String,
    /// The sign-up payment that made it, if this server's.
    pub first_payment_id: Option<String>,
}

/// What one run of the check saw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ListCheckRun {
    /// When it ran.
    pub ran_at: Option<OffsetDateTime>,
    /// Subscriptions in the gateway's list.
    pub listed: u64,
    /// Of those, recorded by this run (unknown to the store before).
    pub found: u64,
    /// Why it could not finish, if it could not.
    pub error: Option<String>,
}

/// The whole-list check's bookkeeping.
#[async_trait]
pub trait GatewayListStore: Send + Sync {
    /// Of `gateway_ids` (at most [`KNOWN_IDS_BATCH`]), those the store holds.
    async fn known_gateway_ids(
        &self,
        gateway_ids: &[String],
    ) -> StoreResult<Vec<KnownSubscription>>;
    /// Takes the check for `owner` until `now + lease` if it is due at `now` and nobody holds
    /// it; whether it was taken.
    async fn claim_list_check(
        &self,
        now: OffsetDateTime,
        owner: &str,
        lease: Duration,
    ) -> StoreResult<bool>;
    /// Gives the check back with what the run saw and when it is due next; `false` when
    /// `owner` no longer held it.
    async fn finish_list_check(
        &self,
        owner: &str,
        run: &ListCheckRun,
        next_run_at: OffsetDateTime,
    ) -> StoreResult<bool>;
    /// The last run's figures and when the check runs next.
    async fn list_check_status(&self) -> StoreResult<(ListCheckRun, OffsetDateTime)>;
    /// Subscriptions a person must look at (found in the gateway's list), oldest first.
    async fn subscriptions_to_review(&self, limit: u32) -> StoreResult<Vec<Subscription>>;
    /// A person looked at subscription `id`: it leaves the review queue. `false` when it was
    /// not in it.
    async fn acknowledge_subscription(&self, id: &str) -> StoreResult<bool>;
}
