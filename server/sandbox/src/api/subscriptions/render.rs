//! A subscription as the contract shows it (`subscription_details`), in the variants each
//! endpoint uses:
//!
//! | view       | `last_payment_status` | `subscription_transaction_details` |
//! |------------|-----------------------|------------------------------------|
//! | Creation   | absent                | absent                             |
//! | ListItem   | absent                | present                            |
//! | Detail     | present once billed   | present                            |
//!
//! Pause, resume and cancel answer with the Detail view. `next_payment_date` and
//! `next_payment_cycle` are `null` once every cycle is billed, and when cancelled or expired.

use checkout::wire::{
    self, GatewayTimestamp, ResponseAmount, SubscriptionDetails, SubscriptionEndType,
    SubscriptionEvent, SubscriptionPaymentStatus, SubscriptionPlan, TransactionRef,
    TrialPeriodType,
};

use crate::subscriptions::history::{CycleEvent, CycleStatus, SubscriptionTransaction};
use crate::subscriptions::status::SubscriptionStatus;
use crate::subscriptions::subscription::Subscription;
use crate::subscriptions::terms::PlanTerms;

/// Which variant of `subscription_details` to render.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// The creation response.
    Creation,
    /// An item of the list response.
    ListItem,
    /// Retrieve, pause, resume and cancel.
    Detail,
}

/// Renders `subscription` in `view`.
pub fn subscription_details<C>(subscription: &Subscription<C>, view: View) -> SubscriptionDetails {
    let terms = subscription.terms();
    let last_payment_status = match view {
        View::Detail => subscription.last_payment_status().map(payment_status),
        View::Creation | View::ListItem => None,
    };
    let history = match view {
        View::Creation => None,
        View::ListItem | View::Detail => {
            Some(subscription.history().iter().map(transaction).collect())
        }
    };
    SubscriptionDetails {
        id: subscription.id().to_string(),
        kind: SubscriptionEndType::Cycle,
        max_cycle_count: Some(terms.max_cycle_count),
        status: status(subscription.status()),
        completed_payment_cycle: subscription.completed_payment_cycle(),
        last_payment_status,
        next_payment_date: subscription
            .next_payment_date()
            .map(GatewayTimestamp::from_datetime),
        next_payment_cycle: subscription.next_payment_cycle(),
        subscription_plan_details: plan(terms),
        subscription_transaction_details: history,
    }
}

/// `subscription_plan_details`. Without a trial: `trial_period_duration` `""` and type `NONE`;
/// without a discount: percentage and duration 0.
pub fn plan(terms: &PlanTerms) -> SubscriptionPlan {
    let (trial_period_duration, trial_period_duration_type) = match terms.trial_days {
        Some(days) => (days.to_string(), TrialPeriodType::Days),
        None => (String::new(), TrialPeriodType::NoTrial),
    };
    let (percentage, duration) = terms
        .discount
        .map_or((0, 0), |discount| (discount.percentage, discount.duration));
    SubscriptionPlan {
        name: terms.name.clone(),
        desc: Some(terms.description.clone()),
        billing_cycle_type: wire::CycleType::from(terms.cadence.unit.billing_name()),
        billing_cycle_interval: terms.cadence.interval,
        amount: ResponseAmount::new(terms.amount),
        ccy: terms.currency.clone(),
        trial_period_duration,
        trial_period_duration_type,
        plan_discount_percentage: Some(serde_json::Number::from(percentage)),
        plan_discount_duration: Some(duration),
    }
}

fn transaction(entry: &SubscriptionTransaction) -> wire::SubscriptionTransaction {
    wire::SubscriptionTransaction {
        id: entry.id.to_string(),
        reference: TransactionRef::Number(entry.reference),
        cycle: entry.cycle,
        status: payment_status(entry.status),
        transaction_date: GatewayTimestamp::from_datetime(entry.transaction_date),
        amount: ResponseAmount::new(entry.amount),
        ccy: entry.currency.clone(),
        event: match entry.event {
            CycleEvent::Captured => SubscriptionEvent::Captured,
            CycleEvent::Declined => SubscriptionEvent::from(CycleEvent::Declined.as_str()),
        },
    }
}

fn status(status: SubscriptionStatus) -> wire::SubscriptionStatus {
    match status {
        SubscriptionStatus::Active => wire::SubscriptionStatus::Active,
        SubscriptionStatus::Paused => wire::SubscriptionStatus::Paused,
        SubscriptionStatus::Cancelled => wire::SubscriptionStatus::Cancelled,
        SubscriptionStatus::Expired => wire::SubscriptionStatus::Expired,
    }
}

fn payment_status(status: CycleStatus) -> SubscriptionPaymentStatus {
    match status {
        CycleStatus::Successful => SubscriptionPaymentStatus::Successful,
        CycleStatus::Failed => SubscriptionPaymentStatus::Failed,
    }
}

#[cfg(test)]
#[path = "render_tests.rs"]
mod tests;
