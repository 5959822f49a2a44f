//! One due payment: settle it through the status endpoint when its gateway id is known,
//! otherwise wait for a hint until its deadline and then hand it to a person (`needs_review`,
//! with the reason: [`ReviewReason`]). A payment that may have been charged is never closed as
//! `failed` without evidence, not even a superseded 3-D Secure attempt whose session another
//! payment paid: the gateway names no transaction for a 3-D Secure start, so nothing can look
//! it up, and only a late webhook or return visit, or staff, can say whether the bank charged
//! it (issue 45). Nothing here ever calls a money-moving endpoint.

use std::time::Duration;

use checkout::contract::PaymentState;
use time::OffsetDateTime;

use super::{PassReport, Reconciler, count};
use crate::metrics::reconcile::Event;
use crate::payments::StatusVerdict;
use crate::payments::settle::GatewayState;
use crate::store::model::{Payment, PaymentChanges, ReviewReason};

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
                    let recheck = Some(now.saturating_add(span(REVIEW_RECHECK)));
                    let reason = ReviewReason::StillPendingAtTheGateway;
                    return self.to_review(after, reason, recheck, report).await;
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
                let recheck = Some(now.saturating_add(span(REVIEW_IDLE)));
                self.to_review(after, ReviewReason::GatewayDisagrees, recheck, report)
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
    /// after it, a person must resolve it: the bank or the gateway may have charged it.
    async fn without_id(
        &self,
        payment: Payment,
        now: OffsetDateTime,
        report: &mut PassReport,
    ) -> Result<Next, crate::payments::PaymentError> {
        match payment.state {
            PaymentState::Pending if now >= payment.review_deadline => {
                let reason = if payment.retry.redirected_at.is_some() {
                    ReviewReason::UnverifiedAtTheBank
                } else {
                    ReviewReason::OutcomeUnknown
                };
                self.to_review(payment, reason, None, report).await
            }
            PaymentState::Pending => Ok(Next::CheckAt(payment.review_deadline)),
            _ => Ok(Next::CheckAt(now.saturating_add(span(REVIEW_IDLE)))),
        }
    }

    /// Moves a pending payment to `needs_review` for `reason`, to be looked at again at
    /// `recheck` (`None`: only when a hint arrives).
    async fn to_review(
        &self,
        payment: Payment,
        reason: ReviewReason,
        recheck: Option<OffsetDateTime>,
        report: &mut PassReport,
    ) -> Result<Next, crate::payments::PaymentError> {
        let changes = PaymentChanges {
            next_check_at: recheck,
            review_reason: Some(reason),
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
                reason = reason.as_str(),
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
