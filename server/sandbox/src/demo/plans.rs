//! The demo shop's subscription plans, which checkout-server's catalogue holds when it runs
//! beside the in-process emulator and its configuration names none: a plain monthly plan, a
//! weekly plan with a discount, and a monthly plan with a free trial and a discount, so the demo
//! shop can sell every kind.

use checkout::contract::{CycleUnit, Discount, PlanTerms};

/// The demo plans.
pub fn plans() -> Vec<PlanTerms> {
    vec![
        PlanTerms {
            id: "demo-monthly".into(),
            name: "Demo monthly".into(),
            description: "A demo subscription billed every month, twelve times".into(),
            amount: 980,
            currency: "JPY".into(),
            cycle_unit: CycleUnit::Months,
            cycle_interval: 1,
            trial_days: None,
            discount: None,
            max_cycles: 12,
        },
        PlanTerms {
            id: "demo-weekly".into(),
            name: "Demo weekly".into(),
            description: "A demo subscription billed every week, 10% off the first four".into(),
            amount: 500,
            currency: "USD".into(),
            cycle_unit: CycleUnit::Weeks,
            cycle_interval: 1,
            trial_days: None,
            discount: Some(Discount {
                percentage: 10,
                cycles: 4,
            }),
            max_cycles: 52,
        },
        PlanTerms {
            id: "demo-trial".into(),
            name: "Demo trial".into(),
            description:
                "A demo subscription billed every month after a 7-day free trial, 20% off the first two"
                    .into(),
            amount: 1200,
            currency: "EUR".into(),
            cycle_unit: CycleUnit::Months,
            cycle_interval: 1,
            trial_days: Some(7),
            discount: Some(Discount {
                percentage: 20,
                cycles: 2,
            }),
            max_cycles: 12,
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_demo_catalogue_sells_a_trial_with_a_discount() {
        let demo = plans();
        assert_eq!(demo.len(), 3);
        let trial = demo
            .iter()
            .find(|p| p.id == "demo-trial")
            .expect("demo plan");
        assert_eq!(trial.trial_days, Some(7));
        assert_eq!(
            trial.discount.map(|d| (d.percentage, d.cycles)),
            Some((20, 2))
        );
        assert_eq!(
            (trial.max_cycles, trial.cycle_unit),
            (12, CycleUnit::Months)
        );
    }
}
