//! The pay call of a subscription session: `/subscription/payment` with the plan from the
//! server's catalogue (never from the browser), the card stored at the gateway for later
//! cycles, and the new subscription recorded with its first cycle. Later cycles are the
//! reconciler's: the gateway sends no webhook for them.

use checkout::contract::{CycleUnit, PlanTerms, SubscriptionStatus};

use super::card_input::ParsedCard;
use super::outcome::Attempt;
use super::pay::answer;
use super::request::Shopper;
use super::screen::Screened;
use super::{PaymentError, PaymentService, now};
use crate::config::first_charge;
use crate::risk::TryKind;
use crate::store::model::{
    CycleStatus, NewCycle, NewSubscription, Payment, PaymentChanges, PaymentKind, Session,
};
use checkout::contract::PayResponse;
use checkout::wire::{
    self, Address, CycleType, PaymentMethod, RequestAmount, SubscriptionDetails,
    SubscriptionEndType, SubscriptionPaymentRequest, SubscriptionPlanRequest, TransactionResponse,
    TrialPeriodType,
};

impl PaymentService {
    /// Starts the subscription `plan_id` for `session` with `card`.
    pub(crate) async fn pay_subscription(
        &self,
        session: &Session,
        plan_id: &str,
        card: &ParsedCard,
        billing: Address,
        time_zone: &str,
        shopper: &Shopper,
    ) -> Result<PayResponse, PaymentError> {
        let plan = self.settings().plans.get(plan_id).cloned().ok_or_else(|| {
            PaymentError::conflict(
                "plan_unavailable",
                "the session's plan is no longer offered",
            )
        })?;
        let fingerprint = self.risk().fingerprint(&card.number);
        let facts = self.risk_facts(session, Some(fingerprint), shopper);
        let payment = self
            .open_payment(
                session,
                PaymentKind::Subscription,
                first_charge(&plan),
                Some(card.summary()),
                facts.clone(),
            )
            .await?;
        let payment = match self
            .screen(payment, &facts, TryKind::TypedCard, shopper)
            .await?
        {
            Screened::Allowed(payment) => *payment,
            Screened::Blocked(answer) => return Ok(answer),
        };
        let request = SubscriptionPaymentRequest {
            amount: RequestAmount::new(plan.amount),
            currency: plan.currency.clone(),
            card: card.wire(),
            merchant_id: self.settings().merchant_id.clone(),
            billing_address: billing,
            merchant_txn_ref: payment.merchant_txn_ref.clone(),
            customer_ip: shopper.ip.to_string(),
            return_url: Some(self.return_url(&payment)?),
            shipping_address: None,
            time_zone: time_zone.to_owned(),
            payment_method: PaymentMethod::scheme(true),
            subscription: plan_request(&plan),
        };
        let started = now();
        let result = self.gateway().subscription_payment(&request).await;
        let attempt = Attempt::new("subscription/payment", started);
        let mut extra = PaymentChanges::default();
        if let Ok(response) = &result {
            extra.subscription_id = self
                .record_subscription(session, &plan, &payment, response)
                .await;
        }
        let payment = self.finish_charge(payment, attempt, &result, extra).await?;
        Ok(answer(&payment))
    }

    /// Stores the subscription the gateway created and its first cycle; returns its id.
    /// A storage failure is logged (the charge itself is still recorded): the subscription
    /// then exists only at the gateway, where the merchant's list shows it.
    async fn record_subscription(
        &self,
        session: &Session,
        plan: &PlanTerms,
        payment: &Payment,
        response: &TransactionResponse,
    ) -> Option<String> {
        let Some(details) = &response.subscription_details else {
            tracing::error!(payment_id = %payment.id, "the gateway created a subscription without subscription_details");
            return None;
        };
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
        };
        let subscription = match self.store().create_subscription(new).await {
            Ok(subscription) => subscription,
            Err(error) => {
                tracing::error!(payment_id = %payment.id, %error, "could not store a subscription the gateway created");
                return None;
            }
        };
        if plan.trial_days.is_none() && details.completed_payment_cycle >= 1 {
            let cycle = NewCycle {
                subscription_id: subscription.id.clone(),
                cycle: 1,
                gateway_transaction_id: response.transaction_id().map(str::to_owned),
                amount: payment.amount,
                currency: payment.currency.clone(),
                status: CycleStatus::Succeeded,
                charged_at: now(),
            };
            if let Err(error) = self.store().upsert_cycle(cycle).await {
                tracing::error!(subscription_id = %subscription.id, %error, "could not record the first cycle");
            }
        }
        tracing::info!(payment_id = %payment.id, subscription_id = %subscription.id, "subscription started");
        Some(subscription.id)
    }
}

/// The plan as the gateway's `subscription` object.
pub fn plan_request(plan: &PlanTerms) -> SubscriptionPlanRequest {
    SubscriptionPlanRequest {
        plan_name: plan.name.clone(),
        plan_desc: plan.description.clone(),
        cycle_type: match plan.cycle_unit {
            CycleUnit::Days => CycleType::Days,
            CycleUnit::Weeks => CycleType::Weekly,
            CycleUnit::Months => CycleType::Monthly,
        },
        subscription_end_type: SubscriptionEndType::Cycle,
        cycle_interval: plan.cycle_interval,
        max_cycle_count: plan.max_cycles,
        has_trial_period: plan.trial_days.is_some(),
        trial_period_duration_type: TrialPeriodType::Days,
        trial_period_duration: plan.trial_days.unwrap_or(0),
        has_discount: plan.discount.is_some(),
        discount_percentage: plan.discount.map_or(0, |d| u32::from(d.percentage)),
        discount_duration: plan.discount.map_or(0, |d| d.cycles),
    }
}

/// The gateway's status in the contract's terms; an unnamed status is taken as active (the
/// reconciler corrects it on its next poll).
pub fn subscription_status(details: &SubscriptionDetails) -> SubscriptionStatus {
    match &details.status {
        wire::SubscriptionStatus::Active | wire::SubscriptionStatus::Other(_) => {
            SubscriptionStatus::Active
        }
        wire::SubscriptionStatus::Paused => SubscriptionStatus::Paused,
        wire::SubscriptionStatus::Cancelled => SubscriptionStatus::Cancelled,
        wire::SubscriptionStatus::Expired => SubscriptionStatus::Expired,
    }
}

#[cfg(test)]
mod tests {
    use checkout::contract::{CycleUnit, Discount};

    use super::*;

    #[test]
    fn plan_terms_become_the_gateway_plan() {
        let weekly = PlanTerms {
            id: "weekly".into(),
            name: "Weekly".into(),
            description: String::new(),
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
        };
        let request = plan_request(&weekly);
        assert_eq!(request.cycle_type, CycleType::Weekly);
        assert!(request.has_discount);
        assert_eq!(request.discount_percentage, 10);
        assert!(!request.has_trial_period);
    }
}
