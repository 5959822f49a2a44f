//! Validated plan terms of one subscription and the amount each cycle is charged.
//!
//! Discount rounding (the emulator's choice, the contract only shows 1000 at 10% → 900):
//! the discounted amount is `amount × (100 − pct) / 100` in integer minor units, rounded
//! **down** (plain integer division), so the cardholder is never charged more than the exact
//! discounted price: 999 at 15% → 849 (849.15), 995 at 50% → 497 (497.5).

use serde::{Deserialize, Serialize};

use super::cadence::Cadence;

/// A discount on the first cycles of a plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Discount {
    /// Percentage taken off, 1..=99.
    pub percentage: u8,
    /// How many billed cycles (counted from cycle 1) get the discount, at least 1.
    pub duration: u32,
}

/// The terms a subscription was created with; they never change afterwards.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanTerms {
    /// `subscription.plan_name`.
    pub name: String,
    /// `subscription.plan_desc` (empty when not sent).
    pub description: String,
    /// `cycle_type` × `cycle_interval`.
    pub cadence: Cadence,
    /// Plan amount per cycle in minor units of `currency` (before any discount), ≥ 1.
    pub amount: u64,
    /// ISO 4217 code, upper case.
    pub currency: String,
    /// How many cycles the subscription runs before it expires, ≥ 1.
    pub max_cycle_count: u32,
    /// Trial length in days; cycle 1 is due when it ends. `None`: cycle 1 is due at creation.
    pub trial_days: Option<u32>,
    /// Discount on the first cycles, if any.
    pub discount: Option<Discount>,
}

impl PlanTerms {
    /// The amount charged for cycle `cycle` (1-based): discounted for cycles
    /// 1..=`discount.duration`, the plan amount afterwards.
    pub fn amount_for_cycle(&self, cycle: u32) -> u64 {
        match self.discount {
            Some(discount) if cycle <= discount.duration => {
                discounted_amount(self.amount, discount.percentage)
            }
            _ => self.amount,
        }
    }
}

/// `amount × (100 − percentage) / 100`, rounded down; a percentage above 100 counts as 100.
pub fn discounted_amount(amount: u64, percentage: u8) -> u64 {
    let kept = 100 - u128::from(percentage.min(100));
    let reduced = u128::from(amount) * kept / 100;
    // `reduced` ≤ `amount`, so it always fits back into a u64.
    u64::try_from(reduced).unwrap_or(amount)
}

#[cfg(test)]
mod tests {
    use super::super::cadence::CycleType;
    use super::*;

    fn plan(discount: Option<Discount>) -> PlanTerms {
        PlanTerms {
            name: "Gold".into(),
            description: String::new(),
            cadence: Cadence {
                unit: CycleType::Monthly,
                interval: 1,
            },
            amount: 1000,
            currency: "JPY".into(),
            max_cycle_count: 6,
            trial_days: None,
            discount,
        }
    }

    #[test]
    fn the_contract_sample_1000_at_10_percent_is_900() {
        assert_eq!(discounted_amount(1000, 10), 900);
    }

    #[test]
    fn rounding_is_down_to_the_minor_unit() {
        assert_eq!(discounted_amount(999, 15), 849);
        assert_eq!(discounted_amount(995, 50), 497);
        assert_eq!(discounted_amount(1, 50), 0);
        assert_eq!(discounted_amount(101, 1), 99);
        assert_eq!(discounted_amount(7, 0), 7);
        assert_eq!(discounted_amount(7, 100), 0);
        assert_eq!(discounted_amount(7, 250), 0);
    }

    #[test]
    fn no_overflow_on_the_largest_amount() {
        assert_eq!(discounted_amount(u64::MAX, 0), u64::MAX);
        assert_eq!(discounted_amount(u64::MAX, 50), u64::MAX / 2);
    }

    #[test]
    fn discount_applies_to_the_first_duration_cycles_only() {
        let terms = plan(Some(Discount {
            percentage: 10,
            duration: 2,
        }));
        assert_eq!(terms.amount_for_cycle(1), 900);
        assert_eq!(terms.amount_for_cycle(2), 900);
        assert_eq!(terms.amount_for_cycle(3), 1000);
        assert_eq!(terms.amount_for_cycle(6), 1000);
    }

    #[test]
    fn without_discount_every_cycle_is_the_plan_amount() {
        let terms = plan(None);
        assert!((1..=6).all(|cycle| terms.amount_for_cycle(cycle) == 1000));
    }
}
