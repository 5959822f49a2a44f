//! When each cycle is due, which attempt comes next, and what is due at a given time.
//!
//! Cycle dates are computed from an anchor (cycle `anchor_cycle` is due on `anchor_date`,
//! cycle `anchor_cycle + k` is `k` periods later), so they never drift. The anchor is cycle 1
//! at creation (or at the end of the trial) and moves only when a paused subscription is
//! resumed after a cycle fell due: that cycle is billed at the resume and the following one
//! comes one period later (see [`Schedule::resume`]).
//!
//! Failed attempts (the emulator's retry policy, documented in docs/sandbox.md): a declined
//! cycle is retried one day after each failed attempt, at most [`MAX_ATTEMPTS`] attempts in
//! all, and never on or after the date the next cycle is due. When the attempts run out the
//! cycle is closed unpaid and the schedule moves on to the next cycle; the subscription stays
//! `ACTIVE` (the merchant decides whether to cancel). `completed_payment_cycle` counts closed
//! cycles, paid or not, so `next_payment_cycle` is always `completed_payment_cycle + 1`.

use serde::{Deserialize, Serialize};
use time::{Duration, OffsetDateTime};

use super::cadence::Cadence;

/// Attempts per cycle: on the due date and up to two daily retries.
pub const MAX_ATTEMPTS: u8 = 3;
/// Delay between a failed attempt and its retry.
pub const RETRY_DELAY: Duration = Duration::DAY;

/// One billing attempt that is due (or will be).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DueCycle {
    /// The 1-based cycle number.
    pub cycle: u32,
    /// 1 on the due date, 2.. for retries.
    pub attempt: u8,
    /// When the attempt falls due.
    pub due_at: OffsetDateTime,
}

/// What recording an attempt did to the schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttemptOutcome {
    /// The cycle is paid and closed.
    Paid,
    /// The cycle failed and will be retried at this time.
    RetryAt(OffsetDateTime),
    /// The cycle failed for the last time and is closed unpaid.
    GaveUp,
}

/// The billing schedule of one subscription.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Schedule {
    cadence: Cadence,
    max_cycle_count: u32,
    anchor_cycle: u32,
    anchor_date: OffsetDateTime,
    completed: u32,
    retry: Option<(u8, OffsetDateTime)>,
}

impl Schedule {
    /// A schedule whose cycle 1 is due at `first_due`.
    pub fn new(cadence: Cadence, max_cycle_count: u32, first_due: OffsetDateTime) -> Self {
        Self {
            cadence,
            max_cycle_count,
            anchor_cycle: 1,
            anchor_date: first_due,
            completed: 0,
            retry: None,
        }
    }

    /// `completed_payment_cycle`: cycles closed so far (paid, or unpaid after the last retry).
    pub fn completed_payment_cycle(&self) -> u32 {
        self.completed
    }

    /// Whether all `max_cycle_count` cycles are closed.
    pub fn is_finished(&self) -> bool {
        self.completed >= self.max_cycle_count
    }

    /// When the term ends: one period after the last cycle's date, i.e. when cycle
    /// `max_cycle_count + 1` would fall due. `None` while cycles remain, or when that date is
    /// beyond the calendar (then the term is over as soon as the last cycle is closed).
    pub fn end_of_term(&self) -> Option<OffsetDateTime> {
        if !self.is_finished() {
            return None;
        }
        self.scheduled_date(self.max_cycle_count.checked_add(1)?)
    }

    /// Whether every cycle is closed and the last billed period has ended at `now`.
    pub fn is_over(&self, now: OffsetDateTime) -> bool {
        self.is_finished() && self.end_of_term().is_none_or(|end| end <= now)
    }

    /// `next_payment_cycle`: the cycle billed next, `None` once all cycles are closed.
    pub fn next_payment_cycle(&self) -> Option<u32> {
        (!self.is_finished()).then_some(self.completed + 1)
    }

    /// The regular due date of `cycle` (not counting retries); `None` for cycles before the
    /// anchor or beyond the calendar.
    pub fn scheduled_date(&self, cycle: u32) -> Option<OffsetDateTime> {
        let periods = cycle.checked_sub(self.anchor_cycle)?;
        self.cadence.after(self.anchor_date, periods)
    }

    /// The next attempt, due or not: a pending retry, else the next cycle on its date.
    pub fn next_attempt(&self) -> Option<DueCycle> {
        let cycle = self.next_payment_cycle()?;
        let (attempt, due_at) = match self.retry {
            Some((attempt, at)) => (attempt, at),
            None => (1, self.scheduled_date(cycle)?),
        };
        Some(DueCycle {
            cycle,
            attempt,
            due_at,
        })
    }

    /// `next_payment_date`: when the next attempt falls due (a retry's time if one is pending).
    pub fn next_payment_date(&self) -> Option<OffsetDateTime> {
        self.next_attempt().map(|due| due.due_at)
    }

    /// Everything that must be billed at `now`, oldest first: the next attempt if it is due,
    /// then every later cycle whose date has passed (several when the clock jumped far). It
    /// assumes each attempt succeeds; a failure can add retries, so billing takes one
    /// [`Schedule::next_attempt`] at a time and records it before asking again.
    pub fn due_cycles(&self, now: OffsetDateTime) -> Vec<DueCycle> {
        let Some(first) = self.next_attempt().filter(|due| due.due_at <= now) else {
            return Vec::new();
        };
        let later = (first.cycle + 1..=self.max_cycle_count)
            .map_while(|cycle| {
                let due_at = self.scheduled_date(cycle).filter(|date| *date <= now)?;
                Some(DueCycle {
                    cycle,
                    attempt: 1,
                    due_at,
                })
            })
            .collect::<Vec<_>>();
        std::iter::once(first).chain(later).collect()
    }

    /// Records the outcome of the attempt [`Schedule::next_attempt`] returned.
    /// Does nothing (and says `GaveUp`) when every cycle is already closed.
    pub fn record_attempt(&mut self, approved: bool) -> AttemptOutcome {
        let Some(due) = self.next_attempt() else {
            return AttemptOutcome::GaveUp;
        };
        if approved {
            self.close_cycle();
            return AttemptOutcome::Paid;
        }
        let retry_at = due.due_at.checked_add(RETRY_DELAY);
        let before_next_cycle = |at: OffsetDateTime| {
            due.cycle >= self.max_cycle_count
                || self
                    .scheduled_date(due.cycle + 1)
                    .is_none_or(|next| at < next)
        };
        match retry_at {
            Some(at) if due.attempt < MAX_ATTEMPTS && before_next_cycle(at) => {
                self.retry = Some((due.attempt + 1, at));
                AttemptOutcome::RetryAt(at)
            }
            _ => {
                self.close_cycle();
                AttemptOutcome::GaveUp
            }
        }
    }

    /// Called when a paused subscription resumes at `now`. If the next attempt fell due
    /// during the pause, it becomes due exactly at `now` and the following cycles are
    /// re-anchored one period apart from `now`: the paused time is not billed, and nothing
    /// but that one cycle is charged at once. Otherwise the schedule is unchanged.
    pub fn resume(&mut self, now: OffsetDateTime) {
        let Some(due) = self.next_attempt().filter(|due| due.due_at <= now) else {
            return;
        };
        self.anchor_cycle = due.cycle;
        self.anchor_date = now;
        if let Some((attempt, _)) = self.retry {
            self.retry = Some((attempt, now));
        }
    }

    fn close_cycle(&mut self) {
        self.completed += 1;
        self.retry = None;
    }
}

#[cfg(test)]
#[path = "schedule_tests.rs"]
mod tests;
