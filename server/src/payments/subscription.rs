//! The pay call of a subscription session: `/subscription/payment` with the plan from the
//! server's catalogue (never from the browser), the card stored at the gateway for later
//! cycles, and the new subscription recorded with its first cycle
//! ([`super::subscription_record`]). The sign-up is recorded before the call
//! ([`super::signup`]): a second sign-up of the customer to the plan is refused meanwhile, and
//! an answer that is lost leaves it open for the reconciler, which finds the subscription in
//! the gateway's list (the gateway sends no webhook for this call). Later cycles are the
//! reconciler's too.

use checkout::contract::{CycleUnit, PlanTerms, SubscriptionStatus};

use super::card_input::ParsedCard;
use super::claim::Opened;
use super::outcome::Attempt;
use super::request::Shopper;
use super::screen::Screened;
use super::{PaymentError, PaymentService, answer, now};
use crate::config::first_charge;
use crate::risk::TryKind;
use crate::store::model::{PaymentChanges, PaymentKind, Session};
use checkout::contract::PayResponse;
use checkout::wire::{
    self, Address, CycleType, PaymentMethod, RequestAmount, SubscriptionDetails,
    SubscriptionEndType, SubscriptionPaymentRequest, SubscriptionPlanRequest, TrialPeriodType,
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
        self.check_signup(session.customer_id.as_deref(), plan_id)
            .await?;
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
            .screen(
                Opened::uncounted(payment),
                &facts,
                TryKind::TypedCard,
                shopper,
            )
            .await?
        {
            Screened::Allowed(payment) => *payment,
            Screened::Blocked(answer) => return Ok(answer),
        };
        let payment = self.open_signup(session, plan_id, payment).await?;
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
            extra.subscription_id = match &response.subscription_details {
                Some(details) => {
                    let first = response.transaction_id();
                    match self
                        .record_subscription(session, &plan, &payment, details, first)
                        .await
                    {
                        Ok(subscription) => Some(subscription.id),
                        Err(error) => {
                            tracing::error!(payment_id = %payment.id, %error, "could not store a subscription the gateway created; its sign-up stays open for the reconciler");
                            None
                        }
                    }
                }
                None => {
                    tracing::error!(payment_id = %payment.id, "the gateway created a subscription without subscription_details; its sign-up stays open for the reconciler");
                    None
                }
            };
        }
        self.close_signup(&payment.id, &result, extra.subscription_id.as_deref())
            .await;
        let payment = self.finish_charge(payment, attempt, &result, extra).await?;
        Ok(answer(&payment))
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
