//! The surplus rule: one session is never charged twice.
//!
//! A superseded 3-D Secure payment can still be approved by the bank (the shopper finished
//! on a page left open; a late webhook), after or before the payment that superseded it. Of
//! the session's payments ever authorized or captured, the first paid (`paid_at`, then id)
//! keeps the charge; every other one is surplus and reversed here through [`super::adjust`]
//! (void when only authorized, refund of all that is left when captured), so the store's
//! triggers write `payment.voided` / `payment.refunded` as for any reversal, and the audit log
//! (the payment's timeline in the dashboard) says why, with the system as the actor.
//!
//! Durability: a step to a paid state in a session with another payment makes the rule due
//! in the same statement (`surplus_due_at`); the check that marks the surplus
//! ([`RetryStore::mark_surplus`]) keeps it due until the reversal is recorded. Whoever stepped
//! the payment runs the rule at once; a process killed in between leaves it due, and the
//! reconciler ([`crate::reconcile`]) runs it later. A reversal the gateway refuses or leaves
//! unknown is tried again with back-off; after [`FAILURES_BEFORE_ALARM`] of them it is logged
//! as an error and written to the audit log (the payment's timeline), and tried on, hourly.

use std::time::Duration;

use checkout::contract::PaymentState;

use super::adjust::Adjustment;
use super::{PaymentError, PaymentService, now};
use crate::store::model::Payment;
use crate::store::prelude::*;

/// Reversals refused or left unknown before the failure is raised to staff.
pub const FAILURES_BEFORE_ALARM: u32 = 5;
/// The first wait after a failed reversal; doubled each time up to [`LONGEST_WAIT`].
const FIRST_WAIT: Duration = Duration::from_secs(60);
/// The longest wait between two tries of a reversal.
const LONGEST_WAIT: Duration = Duration::from_secs(3600);
/// Looks again this many times, [`BUSY_WAIT`] apart, at a payment another operation holds.
const BUSY_TRIES: u32 = 5;
/// Pause between two looks at a held payment.
const BUSY_WAIT: Duration = Duration::from_millis(200);
/// Who the audit log names as acting for the surplus rule.
pub const SYSTEM_ACTOR: &str = "system";

/// What one look at a payment's surplus work did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SurplusOutcome {
    /// The session's check ran; the surplus it found (if any) was handled too.
    Checked,
    /// The surplus charge was voided or refunded now.
    Reversed,
    /// It was reversed already (by staff, or another instance): nothing to do.
    AlreadyReversed,
    /// Another operation holds the payment: it stays due.
    Busy,
    /// The gateway refused the reversal or its outcome is unknown: tried again later.
    Failed,
}

impl PaymentService {
    /// Runs the surplus rule on `session_id`: marks every charge but the first as surplus and
    /// reverses what it marked. Errors are logged; the work stays due for the reconciler.
    pub async fn apply_surplus_rule(&self, session_id: &str) -> Vec<SurplusOutcome> {
        let marked = match self.store().mark_surplus(session_id, now()).await {
            Ok(marked) => marked,
            Err(error) => {
                tracing::error!(session_id, %error, "surplus rule: could not check the session");
                return Vec::new();
            }
        };
        let mut outcomes = Vec::new();
        for payment in marked {
            if payment.retry.surplus_of.is_some() {
                tracing::warn!(payment_id = %payment.id, session_id, keeper = ?payment.retry.surplus_of, "surplus charge: the session was already paid; reversing it");
                outcomes.push(self.reverse_surplus(payment).await);
            }
        }
        outcomes
    }

    /// Handles one payment whose surplus work is due (the reconciler's call): the session's
    /// check when it was never run, else the reversal.
    pub async fn surplus_work(&self, payment: Payment) -> SurplusOutcome {
        if payment.retry.surplus_of.is_none() {
            let outcomes = self.apply_surplus_rule(&payment.session_id).await;
            // The most telling outcome: a failure, else a reversal, else the check alone.
            for telling in [SurplusOutcome::Failed, SurplusOutcome::Reversed] {
                if outcomes.contains(&telling) {
                    return telling;
                }
            }
            return SurplusOutcome::Checked;
        }
        self.reverse_surplus(payment).await
    }

    /// Voids or refunds `payment`, marked surplus, and records why.
    async fn reverse_surplus(&self, payment: Payment) -> SurplusOutcome {
        let adjustment = match payment.state {
            PaymentState::Authorized => Adjustment::Void,
            PaymentState::Captured | PaymentState::PartiallyRefunded => Adjustment::Refund(None),
            _ => {
                return self
                    .end_surplus(&payment.id, SurplusOutcome::AlreadyReversed)
                    .await;
            }
        };
        let mut adjusted = self.adjust(&payment.id, adjustment).await;
        for _ in 0..BUSY_TRIES {
            if !is_busy(&adjusted) {
                break;
            }
            // Another operation holds it for a moment (a staff refund, a settle): try again
            // shortly before leaving it to the reconciler.
            tokio::time::sleep(BUSY_WAIT).await;
            adjusted = self.adjust(&payment.id, adjustment).await;
        }
        match adjusted {
            Ok(after) => {
                self.audit_surplus(&after, adjustment, "ok").await;
                tracing::info!(payment_id = %after.id, state = ?after.state, "surplus charge reversed");
                self.end_surplus(&after.id, SurplusOutcome::Reversed).await
            }
            Err(PaymentError::Conflict {
                code: "payment_busy",
                ..
            }) => SurplusOutcome::Busy,
            Err(error) => self.surplus_failed(&payment, adjustment, &error).await,
        }
    }

    /// A reversal failed: unless the payment turns out reversed meanwhile, counts the failure
    /// and sets the next try; the [`FAILURES_BEFORE_ALARM`]th is raised to staff.
    async fn surplus_failed(
        &self,
        payment: &Payment,
        adjustment: Adjustment,
        error: &PaymentError,
    ) -> SurplusOutcome {
        if let Ok(Some(now_stored)) = self.store().get_payment(&payment.id).await
            && matches!(
                now_stored.state,
                PaymentState::Voided | PaymentState::Refunded
            )
        {
            return self
                .end_surplus(&payment.id, SurplusOutcome::AlreadyReversed)
                .await;
        }
        let failures = payment.retry.surplus_failures.saturating_add(1);
        let wait = FIRST_WAIT
            .saturating_mul(1 << failures.min(6))
            .min(LONGEST_WAIT);
        let next =
            now().saturating_add(time::Duration::try_from(wait).unwrap_or(time::Duration::HOUR));
        if let Err(store_error) = self
            .store()
            .set_surplus_due(&payment.id, Some(next), true)
            .await
        {
            tracing::error!(payment_id = %payment.id, %store_error, "surplus rule: could not schedule the next try");
        }
        if failures == FAILURES_BEFORE_ALARM {
            tracing::error!(payment_id = %payment.id, failures, %error, "surplus charge could not be reversed; staff must check it (retried hourly)");
            self.audit_surplus(payment, adjustment, "reversal_failing")
                .await;
        } else {
            tracing::warn!(payment_id = %payment.id, failures, %error, "surplus charge reversal failed; retrying later");
        }
        SurplusOutcome::Failed
    }

    /// Ends the surplus work of `payment_id`, answering `outcome`.
    async fn end_surplus(&self, payment_id: &str, outcome: SurplusOutcome) -> SurplusOutcome {
        if let Err(error) = self.store().set_surplus_due(payment_id, None, false).await {
            tracing::error!(payment_id, %error, "surplus rule: could not end the work (it runs again, harmlessly)");
        }
        outcome
    }

    /// One audit line for the surplus rule's action on `payment`.
    async fn audit_surplus(&self, payment: &Payment, adjustment: Adjustment, outcome: &str) {
        let keeper = payment.retry.surplus_of.as_deref().unwrap_or("unknown");
        let (action, amount) = match adjustment {
            Adjustment::Void => ("surplus_void", payment.amount),
            _ => ("surplus_refund", payment.captured_amount),
        };
        let entry = NewAuditEntry {
            staff_id: None,
            staff_email: SYSTEM_ACTOR.to_owned(),
            action: action.to_owned(),
            payment_id: Some(payment.id.clone()),
            object_type: None,
            object_id: None,
            amount: Some(amount),
            currency: Some(payment.currency.clone()),
            address: None,
            outcome: outcome.to_owned(),
            detail: Some(surplus_reason(keeper)),
        };
        if let Err(error) = self.store().append_audit(entry, now()).await {
            tracing::error!(payment_id = %payment.id, %error, "surplus rule: could not write the audit line");
        }
    }
}

/// Whether `adjusted` failed only because another operation holds the payment.
fn is_busy(adjusted: &Result<Payment, PaymentError>) -> bool {
    matches!(
        adjusted,
        Err(PaymentError::Conflict {
            code: "payment_busy",
            ..
        })
    )
}

/// Why a surplus charge is reversed, as the audit log and the timeline say it.
pub fn surplus_reason(keeper: &str) -> String {
    format!("surplus charge: session already paid by payment {keeper}")
}
