//! The gateway's subscription list as the reconciler keeps it: one small summary per listed
//! subscription ([`ListedSubscription`]: its id, plan terms, when it started and its first
//! charge), read in bounded memory ([`Subscriptions::read_list`]), and split into what the
//! store knows and what it lacks ([`Subscriptions::unknown`]).
//!
//! The list carries no merchant reference. What it does carry, and the matching uses: the plan
//! (name, amount, currency, cadence, trial, discount, cycles), the history's first charge
//! (its transaction id, whose status lookup names the sign-up's reference, and its date), and
//! for a trial not yet over, the date cycle 1 falls due (the end of the trial).

use std::collections::HashMap;

use checkout::contract::PlanTerms;
use time::OffsetDateTime;

use super::terms::terms_from_gateway;
use super::{SubscriptionError, Subscriptions};
use crate::gateway::ListRead;
use crate::store::gateway_list::{KNOWN_IDS_BATCH, KnownSubscription};
use checkout::wire::{SubscriptionDetails, SubscriptionPaymentStatus};

/// A subscription's first charge as the history shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FirstCharge {
    /// The gateway's transaction id (look it up with the status endpoint).
    pub transaction_id: String,
    /// Whether it went through.
    pub successful: bool,
}

/// One subscription of the gateway's list, as much as matching and reporting need.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedSubscription {
    /// The gateway's id.
    pub gateway_id: String,
    /// Its plan terms as the gateway reports them (`id` left empty).
    pub terms: PlanTerms,
    /// When it was created, as far as the list tells: cycle 1's first charge attempt, or, while
    /// a trial runs, the end of the trial less its length.
    pub started_at: Option<OffsetDateTime>,
    /// Cycle 1's first charge attempt (the sign-up's own charge for a plan without a trial;
    /// the first charge after the trial otherwise), if made.
    pub first_charge: Option<FirstCharge>,
}

impl ListedSubscription {
    /// The summary of `details`.
    pub fn of(details: &SubscriptionDetails) -> Self {
        let terms = terms_from_gateway("", details);
        let trial = time::Duration::days(i64::from(terms.trial_days.unwrap_or(0)));
        let first = details
            .subscription_transaction_details
            .iter()
            .flatten()
            .filter(|attempt| attempt.cycle == 1)
            .min_by_key(|attempt| attempt.transaction_date.parse());
        let cycle_1_due = match (details.next_payment_cycle, &details.next_payment_date) {
            (Some(1), Some(date)) => date.parse(),
            _ => None,
        };
        let started_at = first
            .and_then(|attempt| attempt.transaction_date.parse())
            .or(cycle_1_due)
            .and_then(|at| at.checked_sub(trial));
        Self {
            gateway_id: details.id.clone(),
            terms,
            started_at,
            first_charge: first.map(|attempt| FirstCharge {
                transaction_id: attempt.id.clone(),
                successful: attempt.status == SubscriptionPaymentStatus::Successful,
            }),
        }
    }

    /// Whether its plan is `plan` (every term but the id and description, which the gateway
    /// may shorten).
    pub fn has_plan(&self, plan: &PlanTerms) -> bool {
        let listed = &self.terms;
        listed.name == plan.name
            && listed.amount == plan.amount
            && listed.currency.eq_ignore_ascii_case(&plan.currency)
            && listed.cycle_unit == plan.cycle_unit
            && listed.cycle_interval == plan.cycle_interval
            && listed.trial_days == plan.trial_days
            && listed.discount == plan.discount
            && listed.max_cycles == plan.max_cycles
    }
}

/// The listed subscriptions split by what the store holds.
#[derive(Debug, Default)]
pub struct Split {
    /// Not in the store.
    pub unknown: Vec<ListedSubscription>,
    /// In the store and made by a sign-up of this server's: by that sign-up's payment id, the
    /// server's subscription id and the listed summary.
    pub signed_up: HashMap<String, (String, ListedSubscription)>,
}

impl Subscriptions<'_> {
    /// Reads the gateway's whole list (at most `max_bytes` of it) and keeps the summaries
    /// `keep` accepts.
    pub async fn read_list(
        &self,
        max_bytes: usize,
        keep: impl Fn(&ListedSubscription) -> bool,
    ) -> Result<(Vec<ListedSubscription>, ListRead), SubscriptionError> {
        let mut kept = Vec::new();
        let read = self
            .gateway
            .subscription_list_each(max_bytes, |details| {
                let listed = ListedSubscription::of(&details);
                if keep(&listed) {
                    kept.push(listed);
                }
            })
            .await?;
        Ok((kept, read))
    }

    /// Splits `listed` into what the store lacks and what sign-ups of this server's made,
    /// asking the store in batches.
    pub async fn unknown(
        &self,
        listed: Vec<ListedSubscription>,
    ) -> Result<Split, SubscriptionError> {
        let mut known: HashMap<String, KnownSubscription> = HashMap::new();
        for batch in listed.chunks(KNOWN_IDS_BATCH) {
            let ids: Vec<String> = batch.iter().map(|l| l.gateway_id.clone()).collect();
            for found in self.store.known_gateway_ids(&ids).await? {
                known.insert(found.gateway_subscription_id.clone(), found);
            }
        }
        let mut split = Split::default();
        for listed in listed {
            match known.remove(&listed.gateway_id) {
                None => split.unknown.push(listed),
                Some(KnownSubscription {
                    id,
                    first_payment_id: Some(payment_id),
                    ..
                }) => {
                    split.signed_up.insert(payment_id, (id, listed));
                }
                Some(_) => {}
            }
        }
        Ok(split)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn details(
        trial: Option<u32>,
        history: serde_json::Value,
        next: (u32, &str),
    ) -> SubscriptionDetails {
        let (trial_duration, trial_type) = match trial {
            Some(days) => (json!(days.to_string()), "DAYS"),
            None => (json!(""), "NONE"),
        };
        serde_json::from_value(json!({
            "id": "gw-1", "type": "CYCLE", "max_cycle_count": 12, "status": "ACTIVE",
            "completed_payment_cycle": 0, "next_payment_date": next.1, "next_payment_cycle": next.0,
            "subscription_plan_details": {
                "name": "Pro", "desc": "", "billing_cycle_type": "MONTHS", "billing_cycle_interval": 1,
                "amount": 980, "ccy": "EUR", "trial_period_duration": trial_duration,
                "trial_period_duration_type": trial_type,
                "plan_discount_percentage": 0, "plan_discount_duration": 0
            },
            "subscription_transaction_details": history,
        }))
        .expect("parses")
    }

    #[test]
    fn a_plain_sign_up_starts_at_its_first_charge() {
        let history = json!([
            {"id": "t2", "ref": 2, "cycle": 2, "status": "SUCCESSFUL", "transaction_date": "2030-02-01T10:00:00Z", "amount": 980, "ccy": "EUR", "event": "CAPTURED"},
            {"id": "t1", "ref": 1, "cycle": 1, "status": "SUCCESSFUL", "transaction_date": "2030-01-01T10:00:00Z", "amount": 980, "ccy": "EUR", "event": "CAPTURED"}
        ]);
        let listed = ListedSubscription::of(&details(None, history, (3, "2030-03-01T10:00:00Z")));
        assert_eq!(
            listed.first_charge,
            Some(FirstCharge {
                transaction_id: "t1".into(),
                successful: true
            })
        );
        assert_eq!(
            listed.started_at.map(|at| at.to_string()),
            Some("2030-01-01 10:00:00.0 +00:00:00".into())
        );
        assert_eq!(listed.terms.amount, 980);
    }

    #[test]
    fn a_running_trial_starts_its_length_before_cycle_1_is_due() {
        let listed =
            ListedSubscription::of(&details(Some(14), json!([]), (1, "2030-01-15T10:00:00Z")));
        assert_eq!(listed.first_charge, None);
        assert_eq!(listed.terms.trial_days, Some(14));
        assert_eq!(
            listed.started_at.map(|at| at.date().to_string()),
            Some("2030-01-01".into())
        );
    }
}
