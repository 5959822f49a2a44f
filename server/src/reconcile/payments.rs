//! One due payment: settle it through the status endpoint when its gateway id is known,
//! otherwise wait for a hint until its deadline and then hand it to a person (`needs_review`),
//! unless it is a superseded 3-D Secure payment whose session another payment paid: that one
//! was abandoned at the bank and ends `failed` without staff.
//! Nothing here ever calls a money-moving endpoint.

use std::time::Duration;

use checkout::contract::{DeclineCode, PaymentState};
use time::OffsetDateTime;

use super::{PassReport, Reconciler, count};
use crate::metrics::reconcile::Event;
use crate::payments::StatusVerdict;
use crate::payments::settle::GatewayState;
use crate::store::model::{Payment, PaymentChanges};

/// How often a `needs_review` payment whose gateway id is known is looked up again.
const REVIEW_RECHECK: Duration = Duration::from_secs(3600);
/// How long a `needs_review` payment without a gateway id waits before it is looked at
/// again (a hint arriving in between makes it due at once).
const REVIEW_IDLE: Duration = Duration::from_secs(86_400);

/// What to do after looking at a payment.
enum Next {
    /// Nothing more: it is settled, or its next check time is already right.
    Done,
    /// Look again at this time.
    CheckAt(OffsetDateTime),
}

impl Reconciler {
    /// Handles one claimed payment and gives its lease back.
    pub(super) async fn reconcile_payment(
        &self,
        payment: Payment,
        now: OffsetDateTime,
    ) -> PassReport {
        let mut report = PassReport {
            payments_checked: 1,
            ..PassReport::default()
        };
        let id = payment.id.clone();
        let next = match self.decide(payment, now, &mut report).await {
            Ok(next) => next,
            Err(error) => {
                tracing::error!(payment_id = %id, %error, "reconciler: could not handle a payment");
                report.failures += 1;
                count(Event::LookupFailed, 1);
                Next::CheckAt(now.saturating_add(self.retry_gap()))
            }
        };
        let next_check_at = match next {
            Next::Done => None,
            Next::CheckAt(at) => Some(at),
        };
        match self
            .state
            .store
            .release_payment(&id, &self.owner, next_check_at)
            .await
        {
            Ok(true) => {}
            Ok(false) => {
                tracing::warn!(payment_id = %id, "reconciler: lease expired before the payment was released")
            }
            Err(error) => {
                tracing::error!(payment_id = %id, %error, "reconciler: could not release a payment")
            }
        }
        report
    }

    async fn decide(
        &self,
        payment: Payment,
        now: OffsetDateTime,
        report: &mut PassReport,
    ) -> Result<Next, crate::payments::PaymentError> {
        if payment.state == PaymentState::Created {
            // Recorded but never moved to pending: the gateway was never called.
            let after = self
                .state
                .payments
                .step(payment, PaymentState::Failed, PaymentChanges::default())
                .await?;
            if after.state == PaymentState::Failed {
                tracing::warn!(payment_id = %after.id, "payment was recorded but never sent; marked failed");
                report.payments_abandoned += 1;
                count(Event::PaymentAbandoned, 1);
            }
            return Ok(Next::Done);
        }
        // Without an id or a kept hint, `settle` still finds one a stored webhook named that was
        // never judged; with none at all it answers `NoTransactionId`.
        let past_deadline = now >= payment.review_deadline;
        let settlement = self.state.payments.settle(&payment.id, None).await?;
        let after = settlement.payment;
        match settlement.verdict {
            // A kept hint the lookup disowned (dropped now): the id is still unknown.
            StatusVerdict::UnknownTransaction
            | StatusVerdict::Mismatch(_)
            | StatusVerdict::HintRejected
                if after.gateway_transaction_id.is_none() =>
            {
                self.without_id(after, now, report).await
            }
            StatusVerdict::AlreadySettled => Ok(Next::Done),
            StatusVerdict::Confirmed {
                state: GatewayState::Approved(_) | GatewayState::Declined(_),
                moved,
            } => {
                if moved {
                    tracing::info!(payment_id = %after.id, state = ?after.state, "reconciler settled a payment");
                    report.payments_settled += 1;
                    count(Event::PaymentSettled, 1);
                }
                Ok(Next::Done)
            }
            StatusVerdict::Confirmed {
                state: GatewayState::Pending,
                ..
            }
            | StatusVerdict::UnknownTransaction => {
                if after.state == PaymentState::NeedsReview {
                    return Ok(Next::CheckAt(now.saturating_add(span(REVIEW_RECHECK))));
                }
                if past_deadline {
                    return self
                        .to_review(
                            after,
                            Some(now.saturating_add(span(REVIEW_RECHECK))),
                            report,
                        )
                        .await;
                }
                Ok(Next::CheckAt(
                    now.saturating_add(self.retry_gap())
                        .min(payment.review_deadline),
                ))
            }
            StatusVerdict::Mismatch(_) | StatusVerdict::HintRejected => {
                // The gateway's record contradicts ours: no automatic outcome can be trusted.
                if after.state == PaymentState::NeedsReview {
                    return Ok(Next::CheckAt(now.saturating_add(span(REVIEW_IDLE))));
                }
                self.to_review(after, Some(now.saturating_add(span(REVIEW_IDLE))), report)
                    .await
            }
            StatusVerdict::LookupFailed(reason) => {
                tracing::warn!(payment_id = %after.id, %reason, "reconciler: status lookup failed; retrying later");
                report.failures += 1;
                count(Event::LookupFailed, 1);
                Ok(Next::CheckAt(now.saturating_add(self.retry_gap())))
            }
            StatusVerdict::NoTransactionId => self.without_id(after, now, report).await,
        }
    }

    /// A payment whose gateway id was never learned: it cannot be looked up and is never sent
    /// again. Before its deadline, wait (a webhook or return visit may still bring the id);
    /// after it, a person must resolve it.
    async fn without_id(
        &self,
        payment: Payment,
        now: OffsetDateTime,
        report: &mut PassReport,
    ) -> Result<Next, crate::payments::PaymentError> {
        match payment.state {
            PaymentState::Pending
                if now >= payment.review_deadline
                    && payment.retry.superseded_by.is_some()
                    && self.session_is_paid(&payment.session_id).await? =>
            {
                self.abandon_at_the_bank(payment, report).await
            }
            PaymentState::Pending if now >= payment.review_deadline => {
                self.to_review(payment, None, report).await
            }
            PaymentState::Pending => Ok(Next::CheckAt(payment.review_deadline)),
            _ => Ok(Next::CheckAt(now.saturating_add(span(REVIEW_IDLE)))),
        }
    }

    /// Whether a payment of `session_id` is paid.
    async fn session_is_paid(
        &self,
        session_id: &str,
    ) -> Result<bool, crate::payments::PaymentError> {
        let payments = self.state.payments.session_payments(session_id, 20).await?;
        Ok(payments.items.iter().any(|p| p.state.is_paid()))
    }

    /// A superseded 3-D Secure payment that never heard back, whose session another payment
    /// paid: the shopper left it at the bank. Resolved as `failed` (reason
    /// `authentication_failed`: not completed) without staff; a charge proven on it later is
    /// still recorded and reversed (`Payment::is_abandoned_at_the_bank`).
    async fn abandon_at_the_bank(
        &self,
        payment: Payment,
        report: &mut PassReport,
    ) -> Result<Next, crate::payments::PaymentError> {
        let changes = PaymentChanges {
            decline_code: Some(DeclineCode::AuthenticationFailed),
            ..PaymentChanges::default()
        };
        let after = self
            .state
            .payments
            .step(payment, PaymentState::Failed, changes)
            .await?;
        if after.state == PaymentState::Failed {
            tracing::info!(payment_id = %after.id, superseded_by = ?after.retry.superseded_by, "superseded 3DS payment abandoned at the bank; its session is paid: failed, no review");
            report.payments_abandoned += 1;
            count(Event::PaymentAbandoned, 1);
        }
        Ok(Next::Done)
    }

    /// Moves a pending payment to `needs_review`, to be looked at again at `recheck` (`None`:
    /// only when a hint arrives).
    async fn to_review(
        &self,
        payment: Payment,
        recheck: Option<OffsetDateTime>,
        report: &mut PassReport,
    ) -> Result<Next, crate::payments::PaymentError> {
        let changes = PaymentChanges {
            next_check_at: recheck,
            ..PaymentChanges::default()
        };
        let after = self
            .state
            .payments
            .step(payment, PaymentState::NeedsReview, changes)
            .await?;
        if after.state == PaymentState::NeedsReview {
            tracing::warn!(
                payment_id = %after.id,
                gateway_id_known = after.gateway_transaction_id.is_some(),
                "payment outcome not learned by its deadline: needs review (it is never charged again automatically)"
            );
            report.payments_to_review += 1;
            count(Event::PaymentToReview, 1);
        }
        Ok(Next::Done)
    }

    /// The wait before looking again at a payment still in flight.
    fn retry_gap(&self) -> time::Duration {
        let timing = self.state.config.timing;
        span(timing.payment_first_check.max(timing.reconcile_interval))
    }
}

fn span(duration: Duration) -> time::Duration {
    time::Duration::try_from(duration).unwrap_or(time::Duration::DAY)
}
