//! A subscription's plan terms as the gateway reports them, for a plan no longer in the
//! catalogue (the catalogue changed since the subscription started).

use checkout::contract::{CycleUnit, Discount, PlanTerms};
use checkout::wire::{CycleType, SubscriptionDetails, TrialPeriodType};

/// The plan's terms as the gateway reports them, for a plan no longer in the catalogue.
pub fn terms_from_gateway(plan_id: &str, details: &SubscriptionDetails) -> PlanTerms {
    let plan = &details.subscription_plan_details;
    let cycle_unit = match &plan.billing_cycle_type {
        CycleType::Days => CycleUnit::Days,
        CycleType::Weekly | CycleType::Weeks => CycleUnit::Weeks,
        CycleType::Monthly | CycleType::Months | CycleType::Other(_) => CycleUnit::Months,
    };
    let trial_days = match plan.trial_period_duration_type {
        TrialPeriodType::Days => plan
            .trial_period_duration
            .trim()
            .parse()
            .ok()
            .filter(|d| *d > 0),
        TrialPeriodType::Months => plan
            .trial_period_duration
            .trim()
            .parse::<u32>()
            .ok()
            .filter(|m| *m > 0)
            .map(|months| months.saturating_mul(30)),
        TrialPeriodType::NoTrial | TrialPeriodType::Other(_) => None,
    };
    let discount = plan
        .plan_discount_percentage
        .as_ref()
        .and_then(serde_json::Number::as_u64)
        .and_then(|pct| u8::try_from(pct).ok())
        .filter(|pct| (1..=100).contains(pct))
        .zip(plan.plan_discount_duration.filter(|cycles| *cycles > 0))
        .map(|(percentage, cycles)| Discount { percentage, cycles });
    PlanTerms {
        id: plan_id.to_owned(),
        name: plan.name.clone(),
        description: plan.desc.clone().unwrap_or_default(),
        amount: plan.amount.minor_units(),
        currency: plan.ccy.clone(),
        cycle_unit,
        cycle_interval: plan.billing_cycle_interval,
        trial_days,
        discount,
        max_cycles: details.max_cycle_count.unwrap_or(0),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn gateway_plans_become_terms() {
        let details: SubscriptionDetails = serde_json::from_value(json!({
            "id": "s", "type": "CYCLE", "max_cycle_count": 6, "status": "ACTIVE",
            "completed_payment_cycle": 1, "next_payment_date": null, "next_payment_cycle": null,
            "subscription_plan_details": {
                "name": "Weekly", "desc": "every week", "billing_cycle_type": "WEEKS",
                "billing_cycle_interval": 2, "amount": "500", "ccy": "USD",
                "trial_period_duration": 7, "trial_period_duration_type": "DAYS",
                "plan_discount_percentage": 10, "plan_discount_duration": 3
            }
        }))
        .expect("parses");
        let terms = terms_from_gateway("weekly", &details);
        assert_eq!(terms.cycle_unit, CycleUnit::Weeks);
        assert_eq!(
            (terms.cycle_interval, terms.amount, terms.max_cycles),
            (2, 500, 6)
        );
        assert_eq!(terms.trial_days, Some(7));
        assert_eq!(
            terms.discount,
            Some(Discount {
                percentage: 10,
                cycles: 3
            })
        );
    }
}
