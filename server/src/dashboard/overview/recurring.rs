//! Monthly recurring revenue: each active subscription's price per cycle brought to a month
//! (a month being a twelfth of 365 days for plans billed in days or weeks), summed per
//! currency in minor units, rounded half up once per plan and price.

use std::collections::BTreeMap;

use checkout::contract::CycleUnit;

use crate::config::PlanCatalogue;
use crate::store::analytics::ActivePlan;

/// MRR per currency, and how many active subscriptions name a plan no longer in the
/// catalogue (left out: their cadence is unknown).
pub fn monthly(plans: &[ActivePlan], catalogue: &PlanCatalogue) -> (BTreeMap<String, u64>, u64) {
    let mut mrr: BTreeMap<String, u64> = BTreeMap::new();
    let mut unknown = 0;
    for active in plans {
        let Some(plan) = catalogue.get(&active.plan_id) else {
            unknown += active.subscriptions;
            continue;
        };
        let interval = u128::from(plan.cycle_interval.max(1));
        // Per month = amount × num / den.
        let (num, den) = match plan.cycle_unit {
            CycleUnit::Months => (1, interval),
            CycleUnit::Weeks => (365, 12 * 7 * interval),
            CycleUnit::Days => (365, 12 * interval),
        };
        let total = u128::from(active.amount) * u128::from(active.subscriptions) * num;
        let monthly = (total + den / 2) / den;
        let entry = mrr.entry(active.currency.clone()).or_default();
        *entry = entry.saturating_add(u64::try_from(monthly).unwrap_or(u64::MAX));
    }
    (mrr, unknown)
}

#[cfg(test)]
mod tests {
    use super::*;
    use checkout::contract::PlanTerms;

    fn plan(id: &str, unit: CycleUnit, interval: u32) -> PlanTerms {
        PlanTerms {
            id: id.into(),
            name: id.into(),
            description: String::new(),
            amount: 1000,
            currency: "EUR".into(),
            cycle_unit: unit,
            cycle_interval: interval,
            trial_days: None,
            discount: None,
            max_cycles: 12,
        }
    }

    fn active(plan_id: &str, amount: u64, n: u64) -> ActivePlan {
        ActivePlan {
            plan_id: plan_id.into(),
            currency: "EUR".into(),
            amount,
            subscriptions: n,
        }
    }

    #[test]
    fn cycles_become_months() {
        let catalogue: PlanCatalogue = [
            plan("monthly", CycleUnit::Months, 1),
            plan("quarterly", CycleUnit::Months, 3),
            plan("weekly", CycleUnit::Weeks, 1),
            plan("daily", CycleUnit::Days, 1),
        ]
        .into_iter()
        .collect();
        let (mrr, unknown) = monthly(&[active("monthly", 1000, 3)], &catalogue);
        assert_eq!((mrr["EUR"], unknown), (3000, 0));
        assert_eq!(
            monthly(&[active("quarterly", 999, 1)], &catalogue).0["EUR"],
            333
        );
        // 1000 a week: 1000 × 365 / 84 = 4345.2…
        assert_eq!(
            monthly(&[active("weekly", 1000, 1)], &catalogue).0["EUR"],
            4345
        );
        // 100 a day: 100 × 365 / 12 = 3041.6…
        assert_eq!(
            monthly(&[active("daily", 100, 1)], &catalogue).0["EUR"],
            3042
        );
        let (mrr, unknown) = monthly(&[active("gone", 1000, 2)], &catalogue);
        assert!(mrr.is_empty());
        assert_eq!(unknown, 2);
    }
}
