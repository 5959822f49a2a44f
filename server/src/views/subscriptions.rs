//! How the API shows subscriptions: the merchant API's [`MerchantSubscription`] (every field
//! the server keeps) and the contract's [`SubscriptionView`] for the customer's management view.

use checkout::contract::{PlanTerms, SubscriptionCharge, SubscriptionStatus, SubscriptionView};
use serde::Serialize;

use super::merchant::rfc3339;
use crate::store::model::{CycleStatus, Subscription, SubscriptionCycle};

/// A subscription as the merchant API shows it.
#[derive(Debug, Clone, Serialize)]
pub struct MerchantSubscription {
    /// The server's id.
    pub id: String,
    /// The gateway's id.
    pub gateway_subscription_id: String,
    /// Owner, if the session named one.
    pub customer_id: Option<String>,
    /// Plan id in the catalogue.
    pub plan_id: String,
    /// The plan's terms, when the plan is still in the catalogue.
    pub plan: Option<PlanTerms>,
    /// Last known status.
    pub status: SubscriptionStatus,
    /// Full price of one cycle, minor units.
    pub amount: u64,
    /// ISO 4217 code.
    pub currency: String,
    /// Cycles closed so far (paid or not: see `history`).
    pub completed_cycles: u32,
    /// Next charge (RFC 3339), if scheduled.
    pub next_payment_date: Option<String>,
    /// The gateway's status of the last charge (`SUCCESSFUL`, `FAILED`).
    pub last_payment_status: Option<String>,
    /// The checkout session that created it.
    pub session_id: Option<String>,
    /// The payment of its first charge.
    pub first_payment_id: Option<String>,
    /// When the server last asked the gateway about it is at most this old; next poll time.
    pub next_poll_at: Option<String>,
    /// `checkout` (a sign-up through this server) or `gateway_list` (found in the gateway's
    /// list: billed without this server starting it, or one of several a lost sign-up could
    /// have made).
    pub origin: &'static str,
    /// Why a person must look at it (a subscription found in the gateway's list); `null` for an
    /// ordinary one and once acknowledged on the dashboard.
    pub review_note: Option<String>,
    /// Recorded (RFC 3339).
    pub created_at: String,
    /// Last changed (RFC 3339).
    pub updated_at: String,
    /// Billed cycles, oldest first; only on the single-subscription answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub history: Option<Vec<MerchantCharge>>,
}

/// One billed cycle in the merchant API.
#[derive(Debug, Clone, Serialize)]
pub struct MerchantCharge {
    /// Cycle number, from 1.
    pub cycle: u32,
    /// Amount charged, minor units.
    pub amount: u64,
    /// ISO 4217 code.
    pub currency: String,
    /// `succeeded` or `failed`.
    pub status: &'static str,
    /// The gateway transaction of the charge (look it up with the status endpoint).
    pub gateway_transaction_id: Option<String>,
    /// When it was charged (RFC 3339).
    pub charged_at: String,
    /// When this server learned of it (RFC 3339).
    pub recorded_at: String,
    /// The payment that charged it: the sign-up's, for the first cycle of a plan without a
    /// trial; `null` when the gateway charged it by itself (then, once paid, it is a
    /// `subscription.renewed` event).
    pub payment_id: Option<String>,
    /// Start of the period this cycle pays for: its first charge attempt (RFC 3339); `null`
    /// for cycles recorded before this was kept.
    pub period_start: Option<String>,
    /// End of that period: one billing period after its start (calendar months, the day
    /// clamped to the month's end), RFC 3339.
    pub period_end: Option<String>,
}

impl MerchantSubscription {
    /// The view of `subscription` with the plan `plan` (if known) and, for a single
    /// subscription, its `cycles`.
    pub fn new(
        subscription: &Subscription,
        plan: Option<PlanTerms>,
        cycles: Option<&[SubscriptionCycle]>,
    ) -> Self {
        Self {
            id: subscription.id.clone(),
            gateway_subscription_id: subscription.gateway_subscription_id.clone(),
            customer_id: subscription.customer_id.clone(),
            plan_id: subscription.plan_id.clone(),
            plan,
            status: subscription.status,
            amount: subscription.amount,
            currency: subscription.currency.clone(),
            completed_cycles: subscription.completed_cycles,
            next_payment_date: subscription.next_payment_at.map(rfc3339),
            last_payment_status: subscription.last_payment_status.clone(),
            session_id: subscription.session_id.clone(),
            first_payment_id: subscription.first_payment_id.clone(),
            next_poll_at: subscription.next_poll_at.map(rfc3339),
            origin: subscription.origin.as_str(),
            review_note: subscription.review_note.clone(),
            created_at: rfc3339(subscription.created_at),
            updated_at: rfc3339(subscription.updated_at),
            history: cycles.map(|cycles| cycles.iter().map(MerchantCharge::from).collect()),
        }
    }
}

impl From<&SubscriptionCycle> for MerchantCharge {
    fn from(cycle: &SubscriptionCycle) -> Self {
        Self {
            cycle: cycle.cycle,
            amount: cycle.amount,
            currency: cycle.currency.clone(),
            status: match cycle.status {
                CycleStatus::Succeeded => "succeeded",
                CycleStatus::Failed => "failed",
            },
            gateway_transaction_id: cycle.gateway_transaction_id.clone(),
            charged_at: rfc3339(cycle.charged_at),
            recorded_at: rfc3339(cycle.recorded_at),
            payment_id: cycle.payment_id.clone(),
            period_start: cycle.period_start.map(rfc3339),
            period_end: cycle.period_end.map(rfc3339),
        }
    }
}

/// The customer's view of `subscription` under `plan`, with its `cycles` as history.
pub fn customer_view(
    subscription: &Subscription,
    plan: PlanTerms,
    cycles: &[SubscriptionCycle],
) -> SubscriptionView {
    SubscriptionView {
        id: subscription.id.clone(),
        status: subscription.status,
        plan,
        completed_cycles: subscription.completed_cycles,
        next_payment_date: subscription.next_payment_at.map(rfc3339),
        history: cycles.iter().map(SubscriptionCharge::from).collect(),
    }
}
