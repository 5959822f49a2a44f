//! A sign-up's own record (issue 46): opened before the `subscription/payment` call and tied
//! to its payment, closed by the call's answer, or left open when the answer is lost (a
//! timeout, a 5xx after the gateway processed it) for the reconciler to find the subscription
//! in the gateway's list. While it is open, the customer's second sign-up to the same plan is
//! refused, and so is one to a plan they already hold, unless the shop allows several
//! (`SUBSCRIPTION_SEVERAL_PER_PLAN`).

use std::time::Duration;

use checkout::contract::PaymentState;

use super::outcome::is_unknown;
use super::{PaymentError, PaymentService, now};
use crate::gateway::GatewayError;
use crate::store::model::{Payment, PaymentChanges, Session};
use crate::store::signups::{NewSignup, SignupBlock, SignupEnd, SignupOpened};
use checkout::wire::TransactionResponse;

/// How long after a sign-up's call may have ended the reconciler first looks for it, if
/// nothing closed it (the process died in between).
const AFTER_THE_CALL: Duration = Duration::from_secs(60);

/// The error a refused sign-up answers: a 409 whose message says what to do.
pub fn refusal(block: SignupBlock) -> PaymentError {
    match block {
        SignupBlock::Pending => PaymentError::conflict(
            "subscription_pending",
            "this customer's earlier sign-up to this plan is still being confirmed with the \
             gateway, and nothing more is charged meanwhile; once it is settled (within minutes) \
             the subscription is listed if it went through, and a new sign-up is possible if it \
             did not",
        ),
        SignupBlock::Live => PaymentError::conflict(
            "already_subscribed",
            "this customer already has a subscription to this plan (active or paused): manage \
             it (pause, resume, cancel) instead of signing up again",
        ),
    }
}

impl PaymentService {
    /// Refuses a sign-up of `customer_id` to `plan_id` that could not start now (see
    /// [`refusal`]). A read: opening the sign-up decides again, atomically. A session without
    /// a customer cannot be told apart from another customer's and is never refused.
    pub async fn check_signup(
        &self,
        customer_id: Option<&str>,
        plan_id: &str,
    ) -> Result<(), PaymentError> {
        let Some(customer_id) = customer_id else {
            return Ok(());
        };
        let several = self.settings().subscriptions.several_per_plan;
        match self
            .store()
            .signup_block(customer_id, plan_id, several)
            .await?
        {
            Some(block) => Err(refusal(block)),
            None => Ok(()),
        }
    }

    /// Records the sign-up of `payment` (pending, about to be sent) to `plan_id`, or refuses it
    /// (the payment is then failed: it was never sent).
    pub(crate) async fn open_signup(
        &self,
        session: &Session,
        plan_id: &str,
        payment: Payment,
    ) -> Result<Payment, PaymentError> {
        let called_at = now();
        let call_ends = self
            .settings()
            .gateway_timeout
            .saturating_add(AFTER_THE_CALL);
        let new = NewSignup {
            payment_id: payment.id.clone(),
            session_id: session.id.clone(),
            customer_id: session.customer_id.clone(),
            plan_id: plan_id.to_owned(),
            called_at,
            check_at: called_at.saturating_add(
                time::Duration::try_from(call_ends).unwrap_or(time::Duration::HOUR),
            ),
            several_per_plan: self.settings().subscriptions.several_per_plan,
        };
        match self.store().open_signup(new).await? {
            SignupOpened::Opened(_) => Ok(payment),
            SignupOpened::Refused(block) => {
                tracing::info!(payment_id = %payment.id, ?block, "sign-up refused before the gateway call");
                self.step(payment, PaymentState::Failed, PaymentChanges::default())
                    .await?;
                Err(refusal(block))
            }
        }
    }

    /// Closes the sign-up of `payment_id` as its call's `result` says: recorded (with the
    /// subscription `recorded`), failed, or, when the outcome is unknown (or the subscription
    /// the gateway made could not be stored), left open and due for the reconciler now.
    pub(crate) async fn close_signup(
        &self,
        payment_id: &str,
        result: &Result<TransactionResponse, GatewayError>,
        recorded: Option<&str>,
    ) {
        let closed = match (result, recorded) {
            (Ok(_), Some(subscription_id)) => {
                self.store()
                    .end_signup(payment_id, SignupEnd::Recorded(subscription_id.to_owned()))
                    .await
            }
            (Err(error), _) if !is_unknown(error) => {
                self.store()
                    .end_signup(
                        payment_id,
                        SignupEnd::Failed(format!("the gateway answered: {error}")),
                    )
                    .await
            }
            (Ok(_), None) | (Err(_), _) => {
                tracing::warn!(
                    payment_id,
                    "sign-up outcome unknown here: left for the reconciler to find in the gateway's list"
                );
                self.store().signup_outcome_unknown(payment_id, now()).await
            }
        };
        if let Err(error) = closed {
            // The sign-up stays open and becomes due after its call's time limit: the
            // reconciler settles it from the gateway's list then.
            tracing::error!(payment_id, %error, "could not close a sign-up");
        }
    }
}
