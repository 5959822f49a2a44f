//! What deciding a lost sign-up does (issue 46, [`super::signups`]): record the subscription it
//! made and settle its payment, fail it when the list holds none, or send it to review with
//! every subscription it could have made recorded for review.

use checkout::contract::PaymentState;
use time::OffsetDateTime;

use super::signups::{Case, Failure};
use super::{PassReport, Reconciler, count};
use crate::metrics::reconcile::Event;
use crate::payments::PaymentError;
use crate::payments::outcome::changes_from;
use crate::payments::settle::matches_record;
use crate::store::model::{Payment, PaymentChanges};
use crate::store::signups::{Signup, SignupEnd};
use crate::subscriptions::signup_match::CLOCK_SKEW;
use checkout::wire::TransactionResponse;

impl Reconciler {
    /// The sign-up made `gateway_id`: record it with its cycles, settle the payment (with the
    /// sign-up's own charge `charge`, when one proves it), end the sign-up.
    pub(super) async fn made(
        &self,
        case: Case,
        gateway_id: &str,
        charge: Option<&TransactionResponse>,
        now: OffsetDateTime,
        report: &mut PassReport,
    ) -> Result<(), Failure> {
        let details = self.state.gateway.subscription_get(gateway_id).await?;
        let details = details.subscription_details;
        // The sign-up's own charge: the one proving it, when its amount, currency, reference and
        // type are the payment's (a charge after a trial proves the subscription, but the
        // sign-up itself charged 0).
        let own_charge = charge.and_then(|response| {
            let id = response.transaction_id()?;
            matches_record(&case.payment, id, response)
                .is_ok()
                .then_some((id, response))
        });
        let subscription = self
            .state
            .payments
            .record_subscription(
                &case.session,
                &case.plan,
                &case.payment,
                &details,
                own_charge.map(|(id, _)| id),
            )
            .await?;
        self.state
            .subscriptions()
            .apply(&subscription, &details, now)
            .await?;
        let changes = PaymentChanges {
            subscription_id: Some(subscription.id.clone()),
            ..own_charge.map_or_else(PaymentChanges::default, |(id, response)| PaymentChanges {
                gateway_transaction_id: Some(id.to_owned()),
                ..changes_from(response)
            })
        };
        self.step_payment(&case.payment, PaymentState::Captured, changes)
            .await?;
        self.end(&case, SignupEnd::Recorded(subscription.id.clone()))
            .await?;
        tracing::info!(payment_id = %case.payment.id, subscription_id = %subscription.id, gateway_subscription_id = gateway_id, "reconciler: a sign-up whose answer was lost was found in the gateway's list and recorded");
        report.signups_recorded += 1;
        count(Event::SignupRecorded, 1);
        Ok(())
    }

    /// Several listed subscriptions could be the sign-up's: each is recorded for review and
    /// the payment goes to review.
    pub(super) async fn ambiguous(
        &self,
        case: Case,
        gateway_ids: Vec<String>,
        now: OffsetDateTime,
        report: &mut PassReport,
    ) -> Result<(), Failure> {
        let note = format!(
            "the sign-up of payment {} (customer {}, plan {}) may have made any of {} \
             subscriptions in the gateway's list ({}); the list cannot tell which",
            case.payment.id,
            case.signup.customer_id.as_deref().unwrap_or("none"),
            case.plan.id,
            gateway_ids.len(),
            gateway_ids.join(", ")
        );
        let subscriptions = self.state.subscriptions();
        for gateway_id in &gateway_ids {
            let details = self.state.gateway.subscription_get(gateway_id).await?;
            let (_, recorded) = subscriptions
                .record_found(&details.subscription_details, note.clone(), now)
                .await?;
            if recorded {
                report.subscriptions_found += 1;
                count(Event::SubscriptionFound, 1);
            }
        }
        self.signup_to_review(&case.payment, &case.signup, &note)
            .await?;
        report.signups_to_review += 1;
        Ok(())
    }

    /// The list holds no subscription the sign-up could have made: its payment fails.
    pub(super) async fn absent(&self, case: Case, report: &mut PassReport) -> Result<(), Failure> {
        self.step_payment(
            &case.payment,
            PaymentState::Failed,
            PaymentChanges::default(),
        )
        .await?;
        let note = format!(
            "the gateway's list holds no subscription on plan {} created between {} and the \
             end of the call: the gateway made none",
            case.plan.id,
            case.signup.called_at.saturating_sub(CLOCK_SKEW)
        );
        self.end(&case, SignupEnd::Failed(note)).await?;
        tracing::info!(payment_id = %case.payment.id, "reconciler: a sign-up whose answer was lost made no subscription: failed");
        report.signups_failed += 1;
        count(Event::SignupFailed, 1);
        Ok(())
    }

    /// The sign-up `signup` of `payment` needs a person: its payment goes to review.
    pub(super) async fn signup_to_review(
        &self,
        payment: &Payment,
        signup: &Signup,
        note: &str,
    ) -> Result<(), Failure> {
        self.step_payment(
            payment,
            PaymentState::NeedsReview,
            PaymentChanges::default(),
        )
        .await?;
        let end = SignupEnd::Review(note.to_owned());
        self.state.store.end_signup(&signup.id, end).await?;
        tracing::warn!(payment_id = %payment.id, note, "reconciler: a sign-up whose answer was lost needs review");
        count(Event::SignupToReview, 1);
        Ok(())
    }

    /// Moves the sign-up's payment (as stored now) to `to`, unless it is settled already.
    async fn step_payment(
        &self,
        payment: &Payment,
        to: PaymentState,
        changes: PaymentChanges,
    ) -> Result<(), PaymentError> {
        let payments = &self.state.payments;
        let current = payments
            .store()
            .get_payment(&payment.id)
            .await?
            .ok_or(PaymentError::NotFound("payment"))?;
        if current.outcome_is_final() {
            return Ok(());
        }
        payments.step(current, to, changes).await?;
        Ok(())
    }

    pub(super) async fn end(&self, case: &Case, end: SignupEnd) -> Result<(), Failure> {
        self.state.store.end_signup(&case.signup.id, end).await?;
        Ok(())
    }
}
