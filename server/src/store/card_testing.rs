//! What the store keeps for the card-testing alert (`risk/attack.rs`): the store-wide tally of
//! recent tries the alert's trigger reads, the alerts themselves (at most one open), and the
//! blocked tries by rule the overview shows.
//!
//! Everything is read from and written to the database, so every instance behind a balancer
//! sees one alert: the first to find the trigger holding raises it, the others join it.

use std::time::Duration;

use async_trait::async_trait;
use time::OffsetDateTime;

use super::error::StoreResult;

/// The store's tries since a moment (a try: one checkout's card, however many rows it took;
/// tries already refused left out), and how many of them were declined, blocked, or a
/// session's change of card in a checkout that has not paid.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TryTally {
    /// Payments recorded.
    pub tries: u64,
    /// Of those, declined by the issuer or 3-D Secure.
    pub declined: u64,
    /// Of those, blocked by the card-testing rules.
    pub blocked: u64,
    /// Of those, made with another card than an earlier try of their session (a card tester
    /// runs several numbers through one checkout; a shopper rarely changes card).
    pub switched: u64,
}

/// The store's pace of tries the surge trigger compares: the tries of the last seconds and of
/// the last day's busiest quarter hour (from the dashboard's rollup), blocked tries left out
/// of the latter so an earlier attack does not raise the bar.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TryPace {
    /// Payments recorded in the surge window.
    pub recent: u64,
    /// Payments not blocked in the busiest quarter hour of the day before the present one.
    pub busiest_quarter_hour: u64,
}

/// Which of the alert's triggers raised it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AlertCause {
    /// The share of tries blocked.
    Blocked,
    /// The share of tries declined.
    Declined,
    /// The share of tries made with another card than their session's earlier try.
    Switched,
    /// A surge of tries past the day's busiest pace.
    Surge,
}

impl AlertCause {
    /// The stored and shown name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Blocked => "blocked",
            Self::Declined => "declined",
            Self::Switched => "switched",
            Self::Surge => "surge",
        }
    }

    /// The cause stored as `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        [Self::Blocked, Self::Declined, Self::Switched, Self::Surge]
            .into_iter()
            .find(|cause| cause.as_str() == name)
    }
}

/// A card-testing alert: the store suspected card testing from `started_at` until
/// `ended_at`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardTestingAlert {
    /// `ct_…`.
    pub id: String,
    /// When it was raised.
    pub started_at: OffsetDateTime,
    /// The last time its trigger held.
    pub last_seen_at: OffsetDateTime,
    /// When it ended; `None` while open.
    pub ended_at: Option<OffsetDateTime>,
    /// The window's figures when it was raised.
    pub tally: TryTally,
    /// The window those figures cover.
    pub window: Duration,
    /// The trigger that raised it; `None` for alerts raised before causes were kept.
    pub cause: Option<AlertCause>,
}

/// Blocked tries of one rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleCount {
    /// The rule's stored name (`payments.risk_rule`).
    pub rule: String,
    /// Tries it blocked.
    pub tries: u64,
}

/// Reads and writes of the card-testing alert.
#[async_trait]
pub trait CardTestingStore: Send + Sync {
    /// Tries (a checkout's card) recorded at or after `since`, with their declines and blocks,
    /// leaving out tries already refused and counting no failure of a checkout that paid.
    async fn try_tally(&self, since: OffsetDateTime) -> StoreResult<TryTally>;
    /// When the newest try from `since` until before `before` that counts in a share of the
    /// tally (declined, blocked or a change of card, in a checkout that has not paid) was
    /// recorded.
    async fn last_suspect_try(
        &self,
        since: OffsetDateTime,
        before: OffsetDateTime,
    ) -> StoreResult<Option<OffsetDateTime>>;
    /// Payments recorded at or after `recent_since`, and the busiest quarter hour's payments
    /// not blocked in the day before the quarter hour holding `now`.
    async fn try_pace(
        &self,
        recent_since: OffsetDateTime,
        now: OffsetDateTime,
    ) -> StoreResult<TryPace>;
    /// Raises `alert` (its id, start, tally, window and cause) unless one is open; either way
    /// the open alert's trigger is seen at `alert.last_seen_at` (never moved back). Returns
    /// the open alert.
    async fn raise_card_testing_alert(
        &self,
        alert: &CardTestingAlert,
    ) -> StoreResult<Option<CardTestingAlert>>;
    /// Ends the open alert at `now` if its trigger was last seen before `quiet_since`;
    /// `card_testing.ended` is written by the same statement. Returns the ended alert.
    async fn end_card_testing_alert(
        &self,
        quiet_since: OffsetDateTime,
        now: OffsetDateTime,
    ) -> StoreResult<Option<CardTestingAlert>>;
    /// The open alert, if any.
    async fn open_card_testing_alert(&self) -> StoreResult<Option<CardTestingAlert>>;
    /// The latest `limit` alerts, newest first.
    async fn card_testing_alerts(&self, limit: u32) -> StoreResult<Vec<CardTestingAlert>>;
    /// Tries blocked from `from` until before `before`, by rule, most first.
    async fn blocked_by_rule(
        &self,
        from: OffsetDateTime,
        before: OffsetDateTime,
    ) -> StoreResult<Vec<RuleCount>>;
}
