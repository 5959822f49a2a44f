//! Subscription objects in responses (gateway-interface.md, "Subscription", "Plan",
//! "Subscription transaction").

use serde::{Deserialize, Serialize};

use super::amount::ResponseAmount;
use super::enums::{
    CycleType, SubscriptionEndType, SubscriptionEvent, SubscriptionPaymentStatus,
    SubscriptionStatus, TrialPeriodType,
};
use super::scalars::{GatewayTimestamp, TransactionRef, lenient};

/// `subscription_details`: one subscription.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SubscriptionDetails {
    /// Subscription id, at most 36 characters.
    pub id: String,
    /// `CYCLE` or an unlimited type.
    #[serde(rename = "type")]
    pub kind: SubscriptionEndType,
    /// Maximum billing cycles; may be null for an unlimited subscription.
    #[serde(default)]
    pub max_cycle_count: Option<u32>,
    /// `ACTIVE`, `PAUSED`, `CANCELLED`, `EXPIRED`.
    pub status: SubscriptionStatus,
    /// Completed payment cycles (1 right after creation).
    pub completed_payment_cycle: u32,
    /// Status of the last payment: absent from the creation response and list items.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_payment_status: Option<SubscriptionPaymentStatus>,
    /// Next billing date; may be null once nothing is due.
    #[serde(default)]
    pub next_payment_date: Option<GatewayTimestamp>,
    /// Number of the next cycle; may be null once nothing is due.
    #[serde(default)]
    pub next_payment_cycle: Option<u32>,
    /// The plan.
    pub subscription_plan_details: SubscriptionPlan,
    /// Billing history: absent from the creation response.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subscription_transaction_details: Option<Vec<SubscriptionTransaction>>,
}

/// `subscription_plan_details`.
///
/// A discounted cycle is charged `amount` reduced by `plan_discount_percentage` (the sample:
/// 900 charged on a plan amount of 1000 with a discount of 10).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SubscriptionPlan {
    /// Plan name.
    pub name: String,
    /// Plan description.
    #[serde(default)]
    pub desc: Option<String>,
    /// `DAYS` or `MONTHS` (responses); request spellings accepted.
    pub billing_cycle_type: CycleType,
    /// Units between billing cycles.
    pub billing_cycle_interval: u32,
    /// Plan amount per cycle, minor units.
    pub amount: ResponseAmount,
    /// Currency.
    pub ccy: String,
    /// Trial length as text; empty when there is no trial (numbers read as text).
    #[serde(deserialize_with = "lenient::string")]
    pub trial_period_duration: String,
    /// `NONE` without a trial; `DAYS` or `MONTHS` otherwise.
    pub trial_period_duration_type: TrialPeriodType,
    /// Discount percentage (a JSON number, integer or not; not money).
    #[serde(default)]
    pub plan_discount_percentage: Option<serde_json::Number>,
    /// Discount duration in billing cycles.
    #[serde(default)]
    pub plan_discount_duration: Option<u32>,
}

/// An item of `subscription_transaction_details`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubscriptionTransaction {
    /// Transaction id.
    pub id: String,
    /// Transaction reference (integer; string accepted and kept).
    #[serde(rename = "ref")]
    pub reference: TransactionRef,
    /// Cycle number.
    pub cycle: u32,
    /// `SUCCESSFUL` seen.
    pub status: SubscriptionPaymentStatus,
    /// When the cycle was charged.
    pub transaction_date: GatewayTimestamp,
    /// Amount charged, minor units.
    pub amount: ResponseAmount,
    /// Currency.
    pub ccy: String,
    /// `CAPTURED` seen.
    pub event: SubscriptionEvent,
}
