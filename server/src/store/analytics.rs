//! What the dashboard's overview reads: payments counted and summed per local day and outcome
//! (from the `payment_rollup` the store's triggers keep, migration `0008_analytics`), the
//! subscriptions' standing, and the size of the review queue. Nothing here changes a row.
//!
//! Days are the merchant's: the caller names the span in UTC milliseconds and the time zone's
//! UTC offset from each of its transitions on, and the store groups by local calendar day
//! (days since 1970-01-01 in that zone), so a day border follows the zone's daylight saving.

use async_trait::async_trait;
use checkout::contract::{DeclineCode, PaymentState};
use time::OffsetDateTime;

use super::error::StoreResult;

/// A span of local days: `[from_ms, before_ms)` in UTC, and the zone's offset over it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocalSpan {
    /// The first day's start, Unix milliseconds.
    pub from_ms: i64,
    /// The day after the last one's start, Unix milliseconds.
    pub before_ms: i64,
    /// `(since_ms, offset_seconds)`: from `since_ms` on, local time is UTC plus the offset.
    /// The first entry's `since_ms` is at or before `from_ms`; entries are in time order.
    pub offsets: Vec<(i64, i32)>,
}

/// Payments of one local day with one outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DayOutcome {
    /// Local days since 1970-01-01.
    pub day: i64,
    /// ISO 4217 code.
    pub currency: String,
    /// Where they stand now.
    pub state: PaymentState,
    /// Paid through 3-D Secure (a card typed into the form).
    pub three_ds: bool,
    /// Why they were declined.
    pub decline_code: Option<DeclineCode>,
    /// How many.
    pub payments: u64,
    /// Their amounts, minor units.
    pub amount: u64,
    /// Captured of them, minor units.
    pub captured: u64,
    /// Refunded of them, minor units.
    pub refunded: u64,
}

/// Active subscriptions on one plan at one price.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActivePlan {
    /// The catalogue's plan id.
    pub plan_id: String,
    /// ISO 4217 code.
    pub currency: String,
    /// Charged per cycle, minor units.
    pub amount: u64,
    /// How many subscriptions.
    pub subscriptions: u64,
}

/// Where the subscriptions stand.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SubscriptionStanding {
    /// Active now.
    pub active: u64,
    /// Paused now.
    pub paused: u64,
    /// Cancelled (their last change) within the span asked for.
    pub cancelled: u64,
    /// The active ones by plan and price.
    pub active_plans: Vec<ActivePlan>,
}

/// The overview's reads.
#[async_trait]
pub trait AnalyticsStore: Send + Sync {
    /// Payments created within `span`, by local day and outcome (groups with none left out).
    async fn day_outcomes(&self, span: &LocalSpan) -> StoreResult<Vec<DayOutcome>>;
    /// Payments created within `span`, counted by state only (states with none left out): a
    /// period's approval rate without its days, currencies or sums, for comparing with.
    async fn state_counts(&self, span: &LocalSpan) -> StoreResult<Vec<(PaymentState, u64)>>;
    /// Subscriptions now, and those cancelled in `[from, before)`.
    async fn subscription_standing(
        &self,
        from: OffsetDateTime,
        before: OffsetDateTime,
    ) -> StoreResult<SubscriptionStanding>;
    /// How many payments the review queue holds: every `needs_review` one and every
    /// `pending` one created before `pending_before`.
    async fn review_queue_size(&self, pending_before: OffsetDateTime) -> StoreResult<u64>;
    /// Folds the rollup's per-connection shards of the slots that ended before `before` into
    /// one row a group, changing no sum (PostgreSQL; SQLite keeps one row a group and folds
    /// nothing): how many shard rows were folded.
    async fn fold_rollup(&self, before: OffsetDateTime) -> StoreResult<u64>;
}
