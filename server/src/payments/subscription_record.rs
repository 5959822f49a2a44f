//! Recording a subscription the gateway made for a sign-up of this server's: the row (tied to
//! the session, its customer and the sign-up's payment) and, when the gateway's answer is the
//! creation answer of a plan without a trial, the first cycle, which the sign-up's own payment
//! charged. Used by the pay call (the answer came) and by the reconciler (the answer was lost
//! and the gateway's list showed the subscription).

use checkout::contract::PlanTerms;

use super::subscription::subscription_status;
use super::{PaymentError, PaymentService, now};
use crate::config::billing_period::period_end;
use crate::store::StoreError;
use crate::store::model::{CycleStatus, NewCycle, NewSubscription, Payment, Session, Subscription};
use checkout::wire::{self, SubscriptionDetails};

impl PaymentService {
    /// Stores the subscription `details` describes, made by the sign-up `payment` of `session`
    /// to `plan`; `first_transaction_id` is the gateway's id of the sign-up's charge, when
    /// known. Recording it twice returns the first record.
    pub async fn record_subscription(
        &self,
        session: &Session,
        plan: &PlanTerms,
        payment: &Payment,
        details: &SubscriptionDetails,
        first_transaction_id: Option<&str>,
    ) -> Result<Subscription, PaymentError> {
        let next_payment_at = details
            .next_payment_date
            .as_ref()
            .and_then(wire::GatewayTimestamp::parse);
        let new = NewSubscription {
            gateway_subscription_id: details.id.clone(),
            customer_id: session.customer_id.clone(),
            plan_id: plan.id.clone(),
            session_id: Some(session.id.clone()),
            first_payment_id: Some(payment.id.clone()),
            amount: plan.amount,
            currency: plan.currency.clone(),
            status: subscription_status(details),
            completed_cycles: details.completed_payment_cycle,
            next_payment_at,
            last_payment_status: details
                .last_payment_status
                .as_ref()
                .map(|s| s.as_str().to_owned()),
            // Due at once: polled at the reconciler's next pass, then `subscriptions::sync`
            // schedules it (after each charge date, at least every SUBSCRIPTION_POLL_SECONDS).
            next_poll_at: now(),
            found_in_list: None,
        };
        let subscription = match self.store().create_subscription(new).await {
            Ok(subscription) => subscription,
            Err(StoreError::Conflict(what)) => {
                let known = self
                    .store()
                    .find_subscription_by_gateway_id(&details.id)
                    .await?;
                return match known {
                    Some(known) if known.first_payment_id.as_deref() == Some(&payment.id) => {
                        Ok(known)
                    }
                    _ => Err(StoreError::Conflict(what).into()),
                };
            }
            Err(error) => return Err(error.into()),
        };
        let history_given = details.subscription_transaction_details.is_some();
        if plan.trial_days.is_none() && details.completed_payment_cycle >= 1 && !history_given {
            // The creation answer: cycle 1 is the sign-up's own charge, made just now.
            let charged_at = now();
            let cycle = NewCycle {
                subscription_id: subscription.id.clone(),
                cycle: 1,
                gateway_transaction_id: first_transaction_id.map(str::to_owned),
                amount: payment.amount,
                currency: payment.currency.clone(),
                status: CycleStatus::Succeeded,
                charged_at,
                payment_id: Some(payment.id.clone()),
                period_start: Some(charged_at),
                period_end: period_end(charged_at, plan.cycle_unit, plan.cycle_interval),
            };
            if let Err(error) = self.store().upsert_cycle(cycle).await {
                tracing::error!(subscription_id = %subscription.id, %error, "could not record the first cycle");
            }
        }
        tracing::info!(payment_id = %payment.id, subscription_id = %subscription.id, "subscription started");
        Ok(subscription)
    }
}
