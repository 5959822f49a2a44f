//! Subscriptions as the server tracks them, and their billed cycles (which the reconciler
//! learns by polling: the gateway sends no webhook for later cycles).

use checkout::contract::{SubscriptionCharge, SubscriptionStatus};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

/// Every subscription status.
pub const ALL_STATUSES: [SubscriptionStatus; 4] = [
    SubscriptionStatus::Active,
    SubscriptionStatus::Paused,
    SubscriptionStatus::Cancelled,
    SubscriptionStatus::Expired,
];

/// Stored name of a status (the contract's JSON name).
pub fn status_name(status: SubscriptionStatus) -> &'static str {
    match status {
        SubscriptionStatus::Active => "active",
        SubscriptionStatus::Paused => "paused",
        SubscriptionStatus::Cancelled => "cancelled",
        SubscriptionStatus::Expired => "expired",
    }
}

/// Reads a stored status name.
pub fn parse_status(name: &str) -> Option<SubscriptionStatus> {
    ALL_STATUSES.into_iter().find(|s| status_name(*s) == name)
}

/// Whether nothing can change a subscription in `status` any more.
pub fn is_final(status: SubscriptionStatus) -> bool {
    match status {
        SubscriptionStatus::Cancelled | SubscriptionStatus::Expired => true,
        SubscriptionStatus::Active | SubscriptionStatus::Paused => false,
    }
}

/// A subscription the gateway created (its first charge went through).
#[derive(Clone, Debug)]
pub struct NewSubscription {
    /// The gateway's subscription id (≤ 36).
    pub gateway_subscription_id: String,
    /// Owner.
    pub customer_id: Option<String>,
    /// Plan id in the server's catalogue.
    pub plan_id: String,
    /// The session that created it.
    pub session_id: Option<String>,
    /// The payment of the first cycle.
    pub first_payment_id: Option<String>,
    /// Full price of one cycle, minor units.
    pub amount: u64,
    /// ISO 4217 code.
    pub currency: String,
    /// As the gateway reports it.
    pub status: SubscriptionStatus,
    /// Cycles paid so far.
    pub completed_cycles: u32,
    /// Next charge, if scheduled.
    pub next_payment_at: Option<OffsetDateTime>,
    /// The gateway's status of the last charge (e.g. `SUCCESSFUL`).
    pub last_payment_status: Option<String>,
    /// When the reconciler should poll it first (ignored for a final status: never polled).
    pub next_poll_at: OffsetDateTime,
    /// `Some(why)` for a subscription this server did not start, found in the gateway's list
    /// (origin `gateway_list`): why a person must look at it. Its creation is then the event
    /// `subscription.needs_review`, not `subscription.created`.
    pub found_in_list: Option<String>,
}

/// Where a stored subscription came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SubscriptionOrigin {
    /// A sign-up through this server (its answer, or its lost answer found again).
    Checkout,
    /// Found in the gateway's list, billed without this server knowing.
    GatewayList,
}

impl SubscriptionOrigin {
    /// Stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Checkout => "checkout",
            Self::GatewayList => "gateway_list",
        }
    }

    /// Reads a stored name.
    pub fn parse(name: &str) -> Option<Self> {
        [Self::Checkout, Self::GatewayList]
            .into_iter()
            .find(|origin| origin.as_str() == name)
    }
}

/// A stored subscription.
#[derive(Clone, Debug)]
pub struct Subscription {
    /// The server's id (a UUID).
    pub id: String,
    /// The gateway's id.
    pub gateway_subscription_id: String,
    /// Owner.
    pub customer_id: Option<String>,
    /// Plan id.
    pub plan_id: String,
    /// The session that created it.
    pub session_id: Option<String>,
    /// The payment of the first cycle.
    pub first_payment_id: Option<String>,
    /// Full price of one cycle.
    pub amount: u64,
    /// ISO 4217 code.
    pub currency: String,
    /// Last known status.
    pub status: SubscriptionStatus,
    /// Cycles paid so far.
    pub completed_cycles: u32,
    /// Next charge, if scheduled.
    pub next_payment_at: Option<OffsetDateTime>,
    /// The gateway's status of the last charge.
    pub last_payment_status: Option<String>,
    /// When the reconciler polls it next (`None` once final).
    pub next_poll_at: Option<OffsetDateTime>,
    /// The instance holding its lease, if any.
    pub lease_owner: Option<String>,
    /// Until when that lease holds.
    pub lease_until: Option<OffsetDateTime>,
    /// Recorded.
    pub created_at: OffsetDateTime,
    /// Last changed.
    pub updated_at: OffsetDateTime,
    /// Counts the writes of its status and counters: a poll's write applies only if it is
    /// still the version read before the poll's gateway call ([`SubscriptionSync::read_version`]).
    pub version: u64,
    /// Where it came from.
    pub origin: SubscriptionOrigin,
    /// Why a person must look at it (a subscription found in the gateway's list); `None` for
    /// an ordinary one, and once staff acknowledged it.
    pub review_note: Option<String>,
}

/// What a poll (or a pause/resume/cancel answer) says about a subscription now.
///
/// Applied with three guards so an old answer arriving late cannot undo a newer one: a final
/// status (cancelled, expired) is never left, a report counting fewer completed cycles than
/// recorded is stale and changes nothing, and so is a report read before the row was last
/// written (its `read_version` is no longer the row's): a poll that asked the gateway before a
/// pause never writes its older answer after it.
#[derive(Clone, Debug)]
pub struct SubscriptionSync {
    /// Status now.
    pub status: SubscriptionStatus,
    /// Cycles paid so far.
    pub completed_cycles: u32,
    /// Next charge, if scheduled.
    pub next_payment_at: Option<OffsetDateTime>,
    /// The gateway's status of the last charge.
    pub last_payment_status: Option<String>,
    /// The subscription's version read before the gateway was asked; `None` writes whatever
    /// the version (only for a report nothing else can have overtaken).
    pub read_version: Option<u64>,
}

/// The subscription after a sync, and whether the sync changed it.
#[derive(Clone, Debug)]
pub struct Synced {
    /// As stored now.
    pub subscription: Subscription,
    /// Whether anything changed.
    pub changed: bool,
    /// The report was read before another write of the row: nothing of it was applied, and
    /// the subscription is due for a poll at once.
    pub stale: bool,
}

/// How a billed cycle went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CycleStatus {
    /// Charged.
    Succeeded,
    /// The charge failed.
    Failed,
}

impl CycleStatus {
    /// Stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Succeeded => "succeeded",
            Self::Failed => "failed",
        }
    }

    /// Reads a stored name.
    pub fn parse(name: &str) -> Option<Self> {
        [Self::Succeeded, Self::Failed]
            .into_iter()
            .find(|s| s.as_str() == name)
    }
}

/// A billed cycle as the gateway reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewCycle {
    /// The server's subscription id.
    pub subscription_id: String,
    /// Cycle number, from 1.
    pub cycle: u32,
    /// The gateway transaction of the charge.
    pub gateway_transaction_id: Option<String>,
    /// Amount charged, minor units.
    pub amount: u64,
    /// ISO 4217 code.
    pub currency: String,
    /// How it went.
    pub status: CycleStatus,
    /// When it was charged.
    pub charged_at: OffsetDateTime,
    /// The payment that charged it: the sign-up's, for the cycle its own charge paid. `None`
    /// when the gateway charged it by itself (every later cycle, cycle 1 after a trial): such
    /// a cycle, once paid, is `subscription.renewed`.
    pub payment_id: Option<String>,
    /// The period it pays for: from its first charge attempt...
    pub period_start: Option<OffsetDateTime>,
    /// ...to one billing period later.
    pub period_end: Option<OffsetDateTime>,
}

/// A stored cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubscriptionCycle {
    /// The server's subscription id.
    pub subscription_id: String,
    /// Cycle number, from 1.
    pub cycle: u32,
    /// The gateway transaction of the charge.
    pub gateway_transaction_id: Option<String>,
    /// Amount charged.
    pub amount: u64,
    /// ISO 4217 code.
    pub currency: String,
    /// How it went.
    pub status: CycleStatus,
    /// When it was charged.
    pub charged_at: OffsetDateTime,
    /// When the server first recorded it.
    pub recorded_at: OffsetDateTime,
    /// The payment that charged it (the sign-up's), or `None` when the gateway did by itself.
    pub payment_id: Option<String>,
    /// Start of the period it pays for (`None` for cycles recorded before issue 46).
    pub period_start: Option<OffsetDateTime>,
    /// End of that period.
    pub period_end: Option<OffsetDateTime>,
}

impl From<&SubscriptionCycle> for SubscriptionCharge {
    fn from(cycle: &SubscriptionCycle) -> Self {
        SubscriptionCharge {
            cycle: cycle.cycle,
            amount: cycle.amount,
            currency: cycle.currency.clone(),
            succeeded: cycle.status == CycleStatus::Succeeded,
            date: cycle.charged_at.format(&Rfc3339).unwrap_or_default(),
        }
    }
}

/// What recording a cycle did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CycleUpsert {
    /// A cycle not seen before.
    Inserted,
    /// Known, and the report differed (e.g. a failed charge retried): updated.
    Updated,
    /// Known and identical: nothing written.
    Unchanged,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_names_match_the_contract_json() {
        for status in ALL_STATUSES {
            assert_eq!(parse_status(status_name(status)), Some(status));
            let json = serde_json::to_value(status).expect("status serializes");
            assert_eq!(json.as_str(), Some(status_name(status)));
        }
        assert!(is_final(SubscriptionStatus::Cancelled));
        assert!(!is_final(SubscriptionStatus::Paused));
    }

    #[test]
    fn a_cycle_becomes_a_charge_with_an_rfc3339_date() {
        let cycle = SubscriptionCycle {
            subscription_id: "s".into(),
            cycle: 2,
            gateway_transaction_id: None,
            amount: 900,
            currency: "JPY".into(),
            status: CycleStatus::Succeeded,
            charged_at: OffsetDateTime::UNIX_EPOCH,
            recorded_at: OffsetDateTime::UNIX_EPOCH,
            payment_id: None,
            period_start: None,
            period_end: None,
        };
        let charge = SubscriptionCharge::from(&cycle);
        assert_eq!(charge.date, "1970-01-01T00:00:00Z");
        assert!(charge.succeeded);
        assert_eq!((charge.cycle, charge.amount), (2, 900));
    }
}
