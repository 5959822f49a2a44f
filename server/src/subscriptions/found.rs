//! Recording a subscription the gateway bills and the store lacks (found by the whole-list
//! check, or one of several a lost sign-up could have made): stored with origin `gateway_list`
//! and a note for the review queue, its status and billed cycles recorded like any poll's, so
//! the shop, the dashboard and (once a person ties it to a customer) the self-service page see
//! it, and each paid period is a `subscription.renewed` like any other.

use time::OffsetDateTime;

use super::listed::ListedSubscription;
use super::sync::sync_from;
use super::{SubscriptionError, Subscriptions};
use crate::store::StoreError;
use crate::store::model::{NewSubscription, Subscription};
use checkout::wire::SubscriptionDetails;

/// Longest plan id made up for a plan the catalogue does not hold.
const MAX_MADE_UP_PLAN_ID: usize = 64;

impl Subscriptions<'_> {
    /// Records `details` as found in the gateway's list, with `note` (why a person must look
    /// at it); whether this call recorded it. Another instance (or an earlier decision)
    /// recording it first is no error: that record is returned.
    pub async fn record_found(
        &self,
        details: &SubscriptionDetails,
        note: String,
        now: OffsetDateTime,
    ) -> Result<(Subscription, bool), SubscriptionError> {
        let listed = ListedSubscription::of(details);
        let sync = sync_from(details, 0);
        let new = NewSubscription {
            gateway_subscription_id: details.id.clone(),
            customer_id: None,
            plan_id: self.plan_id_of(&listed),
            session_id: None,
            first_payment_id: None,
            amount: listed.terms.amount,
            currency: listed.terms.currency.clone(),
            status: sync.status,
            completed_cycles: sync.completed_cycles,
            next_payment_at: sync.next_payment_at,
            last_payment_status: sync.last_payment_status,
            next_poll_at: now,
            found_in_list: Some(note),
        };
        let subscription = match self.store.create_subscription(new).await {
            Ok(subscription) => subscription,
            Err(StoreError::Conflict(_)) => {
                let known = self
                    .store
                    .find_subscription_by_gateway_id(&details.id)
                    .await?
                    .ok_or(SubscriptionError::NotFound)?;
                return Ok((known, false));
            }
            Err(error) => return Err(error.into()),
        };
        let (subscription, _) = self.apply(&subscription, details, now).await?;
        Ok((subscription, true))
    }

    /// A person looked at `subscription` (found in the gateway's list): it leaves the review
    /// queue. Whether it was in it.
    pub async fn acknowledge(
        &self,
        subscription: &Subscription,
    ) -> Result<bool, SubscriptionError> {
        Ok(self
            .store
            .acknowledge_subscription(&subscription.id)
            .await?)
    }

    /// The catalogue's plan with exactly `listed`'s terms, or, when none (or several) has
    /// them, an id made of the gateway's plan name (`gateway-<name>`).
    fn plan_id_of(&self, listed: &ListedSubscription) -> String {
        let mut matching = self.plans.iter().filter(|plan| listed.has_plan(plan));
        match (matching.next(), matching.next()) {
            (Some(plan), None) => plan.id.clone(),
            _ => made_up_plan_id(&listed.terms.name),
        }
    }
}

/// `gateway-` and the plan's name in lower-case letters, digits and dashes.
fn made_up_plan_id(name: &str) -> String {
    let mut id = String::from("gateway-");
    for c in name.chars() {
        if id.len() >= MAX_MADE_UP_PLAN_ID {
            break;
        }
        if c.is_ascii_alphanumeric() {
            id.push(c.to_ascii_lowercase());
        } else if !id.ends_with('-') {
            id.push('-');
        }
    }
    id.trim_end_matches('-').to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn made_up_plan_ids_are_plain() {
        assert_eq!(
            made_up_plan_id("Gold plan (yearly)"),
            "gateway-gold-plan-yearly"
        );
        assert_eq!(made_up_plan_id("Ünïcode"), "gateway-n-code");
        assert!(made_up_plan_id(&"x".repeat(200)).len() <= MAX_MADE_UP_PLAN_ID);
    }
}
