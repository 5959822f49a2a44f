//! One subscription: its terms, status, schedule and billing history, and the only ways
//! they change (an operation, or billing an attempt that is due).
//!
//! The model does not charge cards itself: billing hands each due attempt to a charge
//! function (the emulator's `charge()` in production, a closure in tests) and records what it
//! returns. `C` is the context that function needs (stored card token, merchant references);
//! the model only carries it.

use serde::{Deserialize, Serialize};
use time::{Duration, OffsetDateTime};
use uuid::Uuid;

use super::error::SubscriptionError;
use super::history::{ChargeResult, CycleStatus, SubscriptionTransaction};
use super::schedule::{DueCycle, Schedule};
use super::status::{Operation, SubscriptionStatus};
use super::terms::PlanTerms;

/// What a charge function is asked to charge for one attempt.
#[derive(Debug, Clone, Copy)]
pub struct CycleBilling<'a, C> {
    /// The subscription being billed.
    pub subscription_id: Uuid,
    /// Cycle, attempt and due time.
    pub due: DueCycle,
    /// Amount for this cycle in minor units (discount applied).
    pub amount: u64,
    /// ISO 4217 code.
    pub currency: &'a str,
    /// The context given at creation.
    pub context: &'a C,
}

/// A subscription with its charge context `C`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Subscription<C> {
    id: Uuid,
    created_at: OffsetDateTime,
    terms: PlanTerms,
    status: SubscriptionStatus,
    schedule: Schedule,
    history: Vec<SubscriptionTransaction>,
    context: C,
}

impl<C> Subscription<C> {
    /// A new `ACTIVE` subscription created at `created_at`. Cycle 1 is due at once, or when
    /// the trial ends; nothing is billed yet (see [`Subscription::bill_next`]).
    pub fn new(id: Uuid, terms: PlanTerms, created_at: OffsetDateTime, context: C) -> Self {
        let trial = Duration::days(i64::from(terms.trial_days.unwrap_or(0)));
        let first_due = created_at.checked_add(trial).unwrap_or(created_at);
        let schedule = Schedule::new(terms.cadence, terms.max_cycle_count, first_due);
        Self {
            id,
            created_at,
            terms,
            status: SubscriptionStatus::Active,
            schedule,
            history: Vec::new(),
            context,
        }
    }

    /// The subscription id.
    pub fn id(&self) -> Uuid {
        self.id
    }

    /// When it was created (sandbox clock).
    pub fn created_at(&self) -> OffsetDateTime {
        self.created_at
    }

    /// Its plan terms.
    pub fn terms(&self) -> &PlanTerms {
        &self.terms
    }

    /// Its current status.
    pub fn status(&self) -> SubscriptionStatus {
        self.status
    }

    /// The charge context given at creation.
    pub fn context(&self) -> &C {
        &self.context
    }

    /// `completed_payment_cycle`.
    pub fn completed_payment_cycle(&self) -> u32 {
        self.schedule.completed_payment_cycle()
    }

    /// When the term ends (one period after the last cycle's date), once every cycle is
    /// closed; the subscription stays `ACTIVE` until then.
    pub fn end_of_term(&self) -> Option<OffsetDateTime> {
        self.schedule.end_of_term()
    }

    /// `next_payment_cycle`; `None` once every cycle is closed, cancelled or expired.
    pub fn next_payment_cycle(&self) -> Option<u32> {
        self.open_schedule()?.next_payment_cycle()
    }

    /// `next_payment_date`; `None` once every cycle is closed, cancelled or expired. For a paused subscription it is
    /// the date the next attempt is (or was) due; see [`Schedule::resume`] for what a resume
    /// does to it.
    pub fn next_payment_date(&self) -> Option<OffsetDateTime> {
        self.open_schedule()?.next_payment_date()
    }

    /// `last_payment_status`: the status of the latest attempt, `None` before any.
    pub fn last_payment_status(&self) -> Option<CycleStatus> {
        self.history.last().map(|entry| entry.status)
    }

    /// `subscription_transaction_details`: every attempt, oldest first.
    pub fn history(&self) -> &[SubscriptionTransaction] {
        &self.history
    }

    /// What must be billed at `now` (empty unless `ACTIVE`); see [`Schedule::due_cycles`].
    pub fn due_cycles(&self, now: OffsetDateTime) -> Vec<DueCycle> {
        match self.status {
            SubscriptionStatus::Active => self.schedule.due_cycles(now),
            _ => Vec::new(),
        }
    }

    /// Bills the next attempt if the subscription is `ACTIVE` and it is due at `now`: asks
    /// `charge` to charge it and records the result. Returns the recorded entry, `None` when
    /// nothing was due; in that case an `ACTIVE` subscription whose term is over at `now`
    /// (every cycle closed and the last period ended) becomes `EXPIRED`. When `charge` fails
    /// (nothing was charged), nothing is recorded and the error is returned.
    pub fn bill_next<E>(
        &mut self,
        now: OffsetDateTime,
        charge: impl FnOnce(CycleBilling<'_, C>) -> Result<ChargeResult, E>,
    ) -> Result<Option<&SubscriptionTransaction>, E> {
        if self.status != SubscriptionStatus::Active {
            return Ok(None);
        }
        let Some(due) = self.schedule.next_attempt().filter(|due| due.due_at <= now) else {
            if self.schedule.is_over(now) {
                self.status = SubscriptionStatus::Expired;
            }
            return Ok(None);
        };
        let amount = self.terms.amount_for_cycle(due.cycle);
        let result = charge(CycleBilling {
            subscription_id: self.id,
            due,
            amount,
            currency: &self.terms.currency,
            context: &self.context,
        })?;
        self.schedule.record_attempt(result.approved);
        self.history.push(SubscriptionTransaction::from_charge(
            due.cycle,
            due.attempt,
            amount,
            &self.terms.currency,
            &result,
        ));
        Ok(self.history.last())
    }

    /// Bills every attempt due at `now`, one after the other (a failure may add a retry that
    /// is itself due), then expires the subscription if its term is over. Returns how many
    /// attempts were recorded; stops at the first `charge` error, keeping what was recorded
    /// before it.
    pub fn bill_due<E>(
        &mut self,
        now: OffsetDateTime,
        mut charge: impl FnMut(CycleBilling<'_, C>) -> Result<ChargeResult, E>,
    ) -> Result<usize, E> {
        let mut attempts = 0;
        while self.bill_next(now, &mut charge)?.is_some() {
            attempts += 1;
        }
        Ok(attempts)
    }

    /// Applies `operation` at `now`. On refusal nothing changes. Resuming does not bill by
    /// itself: the caller bills what is due right after (a cycle that fell due while paused
    /// is due at the resume).
    pub fn apply(
        &mut self,
        operation: Operation,
        now: OffsetDateTime,
    ) -> Result<SubscriptionStatus, SubscriptionError> {
        let next = self.status.apply(operation)?;
        if operation == Operation::Resume {
            self.schedule.resume(now);
        }
        self.status = next;
        Ok(next)
    }

    fn open_schedule(&self) -> Option<&Schedule> {
        (!self.status.is_final()).then_some(&self.schedule)
    }
}

#[cfg(test)]
#[path = "subscription_tests.rs"]
mod tests;
