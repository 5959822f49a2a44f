//! Plan terms shown before a subscription is paid, and the customer's view of a subscription.

use serde::{Deserialize, Serialize};

/// A subscription plan's terms, as the shopper must see them before paying.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanTerms {
    /// Plan id in the server's catalogue.
    pub id: String,
    /// Plan name.
    pub name: String,
    /// Plan description.
    #[serde(default)]
    pub description: String,
    /// Full price of one cycle, minor units.
    pub amount: u64,
    /// ISO 4217 code.
    pub currency: String,
    /// Unit of the billing interval.
    pub cycle_unit: CycleUnit,
    /// Number of units between charges.
    pub cycle_interval: u32,
    /// Free days before the first charge, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trial_days: Option<u32>,
    /// Introductory discount, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discount: Option<Discount>,
    /// Number of charges in all.
    pub max_cycles: u32,
}

/// Unit of a billing interval.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CycleUnit {
    /// Days.
    Days,
    /// Weeks.
    Weeks,
    /// Calendar months.
    Months,
}

/// A percentage off the first cycles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Discount {
    /// Whole percent, 1–100.
    pub percentage: u8,
    /// Number of cycles it applies to.
    pub cycles: u32,
}

impl Discount {
    /// Price of a discounted cycle: `amount × (100 − pct) / 100`, rounded down.
    pub fn apply(self, amount: u64) -> u64 {
        amount * u64::from(100 - self.percentage.min(100)) / 100
    }
}

/// Subscription states as the gateway names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SubscriptionStatus {
    /// Billing on schedule.
    Active,
    /// Billing halted until resumed.
    Paused,
    /// Ended by the customer or merchant; final.
    Cancelled,
    /// Ran all its cycles; final.
    Expired,
}

/// A subscription as its customer sees it in the management view.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubscriptionView {
    /// Subscription id.
    pub id: String,
    /// Current status.
    pub status: SubscriptionStatus,
    /// The plan's terms.
    pub plan: PlanTerms,
    /// Cycles paid so far.
    pub completed_cycles: u32,
    /// Next charge date (RFC 3339), absent when none is scheduled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_payment_date: Option<String>,
    /// Charges so far, oldest first.
    #[serde(default)]
    pub history: Vec<SubscriptionCharge>,
}

/// One billed cycle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubscriptionCharge {
    /// Cycle number, from 1.
    pub cycle: u32,
    /// Amount charged, minor units.
    pub amount: u64,
    /// ISO 4217 code.
    pub currency: String,
    /// Whether the charge went through.
    pub succeeded: bool,
    /// When it was charged (RFC 3339).
    pub date: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discount_matches_the_gateway_sample() {
        let d = Discount {
            percentage: 10,
            cycles: 3,
        };
        assert_eq!(d.apply(1000), 900);
        assert_eq!(
            Discount {
                percentage: 33,
                cycles: 1
            }
            .apply(1001),
            670
        );
    }
}
