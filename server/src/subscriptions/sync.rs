//! What a gateway answer about a subscription means for the store: its status and counters
//! ([`sync_from`]), its billed cycles ([`cycles_from`]), and when to poll it next
//! ([`next_poll_at`]). Pure functions; [`super::Subscriptions::apply`] writes the result.
//!
//! A cycle the gateway retried has one history entry per attempt. A cycle counts as paid when
//! any attempt succeeded, otherwise it is failed as of its latest attempt. Recording is
//! idempotent by (subscription, cycle): a poll that learns nothing new writes nothing.

use std::collections::BTreeMap;
use std::time::Duration;

use time::OffsetDateTime;

use super::terms::terms_from_gateway;
use crate::config::billing_period::period_end;
use crate::payments::subscription::subscription_status;
use crate::store::model::subscription::is_final;
use crate::store::model::{CycleStatus, NewCycle, SubscriptionSync};
use checkout::wire::{SubscriptionDetails, SubscriptionPaymentStatus, SubscriptionTransaction};

/// A poll is never scheduled sooner than this after a charge date (the gateway bills in the
/// background around that time).
const AFTER_DUE: Duration = Duration::from_secs(60);

/// The subscription's status and counters as the gateway reports them, asked for when the
/// subscription's row was at `read_version`.
pub fn sync_from(details: &SubscriptionDetails, read_version: u64) -> SubscriptionSync {
    SubscriptionSync {
        read_version: Some(read_version),
        status: subscription_status(details),
        completed_cycles: details.completed_payment_cycle,
        next_payment_at: details.next_payment_date.as_ref().and_then(|d| d.parse()),
        last_payment_status: details
            .last_payment_status
            .as_ref()
            .map(|s| s.as_str().to_owned()),
    }
}

/// One cycle per cycle number in the history (numbers from 1), for `subscription_id`, whose
/// sign-up was the payment `first_payment_id` (if the server took it). Each cycle covers the
/// period from its first charge attempt to one billing period later; cycle 1 of a plan without
/// a trial was charged by the sign-up's payment, every other cycle by the gateway itself.
pub fn cycles_from(
    subscription_id: &str,
    first_payment_id: Option<&str>,
    details: &SubscriptionDetails,
) -> Vec<NewCycle> {
    let terms = terms_from_gateway("", details);
    let signup_paid_cycle_1 = first_payment_id.filter(|_| terms.trial_days.is_none());
    let mut by_cycle: BTreeMap<u32, Vec<&SubscriptionTransaction>> = BTreeMap::new();
    for attempt in details.subscription_transaction_details.iter().flatten() {
        if attempt.cycle == 0 {
            continue;
        }
        by_cycle.entry(attempt.cycle).or_default().push(attempt);
    }
    by_cycle
        .into_iter()
        .filter_map(|(cycle, attempts)| {
            let chosen = attempts
                .iter()
                .find(|a| a.status == SubscriptionPaymentStatus::Successful)
                .copied()
                .or_else(|| latest_failure(&attempts))?;
            let status = match chosen.status {
                SubscriptionPaymentStatus::Successful => CycleStatus::Succeeded,
                SubscriptionPaymentStatus::Failed => CycleStatus::Failed,
                SubscriptionPaymentStatus::Other(_) => return None,
            };
            let period_start = attempts
                .iter()
                .filter_map(|attempt| attempt.transaction_date.parse())
                .min();
            Some(NewCycle {
                subscription_id: subscription_id.to_owned(),
                cycle,
                gateway_transaction_id: Some(chosen.id.clone()),
                amount: chosen.amount.minor_units(),
                currency: chosen.ccy.clone(),
                status,
                charged_at: chosen
                    .transaction_date
                    .parse()
                    .unwrap_or(OffsetDateTime::UNIX_EPOCH),
                payment_id: signup_paid_cycle_1
                    .filter(|_| cycle == 1)
                    .map(str::to_owned),
                period_start,
                period_end: period_start
                    .and_then(|start| period_end(start, terms.cycle_unit, terms.cycle_interval)),
            })
        })
        .collect()
}

/// The failed attempt with the latest date (history order breaks ties). Attempts with a
/// status this server does not know are left out: they are neither paid nor failed.
fn latest_failure<'a>(
    attempts: &[&'a SubscriptionTransaction],
) -> Option<&'a SubscriptionTransaction> {
    attempts
        .iter()
        .filter(|a| a.status == SubscriptionPaymentStatus::Failed)
        .max_by_key(|a| a.transaction_date.parse())
        .copied()
}

/// When to poll again: shortly after the next charge date, and never later than `every`
/// from `now`; `None` once the subscription can no longer change.
pub fn next_poll_at(
    sync: &SubscriptionSync,
    now: OffsetDateTime,
    every: Duration,
) -> Option<OffsetDateTime> {
    if is_final(sync.status) {
        return None;
    }
    let latest = now.saturating_add(span(every));
    let after_charge = sync
        .next_payment_at
        .map(|due| due.max(now).saturating_add(span(AFTER_DUE)));
    Some(after_charge.map_or(latest, |at| at.min(latest)))
}

fn span(duration: Duration) -> time::Duration {
    time::Duration::try_from(duration).unwrap_or(time::Duration::DAY)
}

#[cfg(test)]
mod tests {
    use checkout::contract::SubscriptionStatus;
    use checkout::wire::TrialPeriodType;
    use serde_json::json;

    use super::*;

    fn details(status: &str, history: serde_json::Value) -> SubscriptionDetails {
        serde_json::from_value(json!({
            "id": "4c1f4f6e-2a47-4a36-9a8a-2f3f1c9b7d10",
            "type": "CYCLE",
            "max_cycle_count": 12,
            "status": status,
            "completed_payment_cycle": 3,
            "last_payment_status": "FAILED",
            "next_payment_date": "2030-03-01T00:00:00Z",
            "next_payment_cycle": 4,
            "subscription_plan_details": {
                "name": "Pro", "desc": "", "billing_cycle_type": "MONTHS", "billing_cycle_interval": 1,
                "amount": 1000, "ccy": "JPY", "trial_period_duration": "", "trial_period_duration_type": "NONE",
                "plan_discount_percentage": 0, "plan_discount_duration": 0
            },
            "subscription_transaction_details": history,
        }))
        .expect("subscription details parse")
    }

    fn attempt(id: &str, cycle: u32, status: &str, date: &str) -> serde_json::Value {
        json!({"id": id, "ref": 1, "cycle": cycle, "status": status, "transaction_date": date,
               "amount": 1000, "ccy": "JPY", "event": if status == "SUCCESSFUL" { "CAPTURED" } else { "DECLINED" }})
    }

    #[test]
    fn one_cycle_per_number_paid_if_any_attempt_paid() {
        let history = json!([
            attempt("t1", 1, "SUCCESSFUL", "2030-01-01T00:00:00Z"),
            attempt("t2", 2, "FAILED", "2030-02-01T00:00:00Z"),
            attempt("t3", 2, "SUCCESSFUL", "2030-02-02T00:00:00Z"),
            attempt("t4", 3, "FAILED", "2030-03-01T00:00:00Z"),
            attempt("t5", 3, "FAILED", "2030-03-02T00:00:00Z"),
            attempt("t6", 4, "PENDING", "2030-04-01T00:00:00Z"),
        ]);
        let cycles = cycles_from("sub-1", Some("pay-1"), &details("ACTIVE", history));
        let summary: Vec<(u32, CycleStatus, Option<&str>)> = cycles
            .iter()
            .map(|c| (c.cycle, c.status, c.gateway_transaction_id.as_deref()))
            .collect();
        assert_eq!(
            summary,
            vec![
                (1, CycleStatus::Succeeded, Some("t1")),
                (2, CycleStatus::Succeeded, Some("t3")),
                (3, CycleStatus::Failed, Some("t5")),
            ]
        );
        assert_eq!(cycles[0].amount, 1000);
        assert_eq!(cycles[0].charged_at.year(), 2030);
        // Cycle 1 of a plan without a trial is the sign-up's payment; the gateway charged the rest.
        let payers: Vec<Option<&str>> = cycles.iter().map(|c| c.payment_id.as_deref()).collect();
        assert_eq!(payers, vec![Some("pay-1"), None, None]);
        // A retried cycle's period starts at its first attempt and lasts the plan's month.
        let second = &cycles[1];
        assert_eq!(
            second.period_start.map(|at| at.date().to_string()),
            Some("2030-02-01".to_owned())
        );
        assert_eq!(
            second.period_end.map(|at| at.date().to_string()),
            Some("2030-03-01".to_owned())
        );
    }

    #[test]
    fn after_a_trial_the_gateway_charged_cycle_1_itself() {
        let mut trial = details(
            "ACTIVE",
            json!([attempt("t1", 1, "SUCCESSFUL", "2030-01-15T00:00:00Z")]),
        );
        trial.subscription_plan_details.trial_period_duration = "14".into();
        trial.subscription_plan_details.trial_period_duration_type = TrialPeriodType::Days;
        let cycles = cycles_from("sub-1", Some("pay-1"), &trial);
        assert_eq!(cycles.len(), 1);
        assert_eq!(cycles[0].payment_id, None, "the sign-up charged nothing");
        let found = cycles_from(
            "sub-1",
            None,
            &details(
                "ACTIVE",
                json!([attempt("t1", 1, "SUCCESSFUL", "2030-01-15T00:00:00Z")]),
            ),
        );
        assert_eq!(found[0].payment_id, None, "no sign-up of this server's");
    }

    #[test]
    fn status_and_counters() {
        let sync = sync_from(&details("PAUSED", json!([])), 0);
        assert_eq!(sync.status, SubscriptionStatus::Paused);
        assert_eq!(sync.completed_cycles, 3);
        assert_eq!(sync.last_payment_status.as_deref(), Some("FAILED"));
        assert!(sync.next_payment_at.is_some());
    }

    #[test]
    fn polls_after_the_charge_date_but_at_least_every_interval() {
        let now = OffsetDateTime::UNIX_EPOCH + time::Duration::days(10_000);
        let every = Duration::from_secs(3600);
        let mut sync = sync_from(&details("ACTIVE", json!([])), 0);
        sync.next_payment_at = Some(now + time::Duration::minutes(5));
        assert_eq!(
            next_poll_at(&sync, now, every),
            Some(now + time::Duration::minutes(6))
        );
        sync.next_payment_at = Some(now + time::Duration::days(30));
        assert_eq!(
            next_poll_at(&sync, now, every),
            Some(now + time::Duration::hours(1))
        );
        sync.next_payment_at = Some(now - time::Duration::days(1));
        assert_eq!(
            next_poll_at(&sync, now, every),
            Some(now + time::Duration::minutes(1))
        );
        sync.status = SubscriptionStatus::Cancelled;
        assert_eq!(next_poll_at(&sync, now, every), None);
    }
}
