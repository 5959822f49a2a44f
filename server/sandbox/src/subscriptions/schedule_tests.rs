//! Tests of `schedule`: dates, catch-up after a clock jump, retries, resume re-anchoring.

use super::super::cadence::CycleType;
use super::*;
use time::macros::datetime;

const START: OffsetDateTime = datetime!(2025-01-31 09:00:00 UTC);

fn every(unit: CycleType, interval: u32, max: u32) -> Schedule {
    Schedule::new(Cadence { unit, interval }, max, START)
}

fn cycles(due: &[DueCycle]) -> Vec<(u32, u8)> {
    due.iter().map(|d| (d.cycle, d.attempt)).collect()
}

#[test]
fn a_new_schedule_has_cycle_1_due_at_the_first_date() {
    let schedule = every(CycleType::Monthly, 1, 3);
    assert_eq!(schedule.completed_payment_cycle(), 0);
    assert_eq!(schedule.next_payment_cycle(), Some(1));
    assert_eq!(schedule.next_payment_date(), Some(START));
    assert_eq!(cycles(&schedule.due_cycles(START)), [(1, 1)]);
    assert!(schedule.due_cycles(START - Duration::SECOND).is_empty());
}

#[test]
fn paying_moves_to_the_next_calendar_date() {
    let mut schedule = every(CycleType::Monthly, 1, 3);
    assert_eq!(schedule.record_attempt(true), AttemptOutcome::Paid);
    assert_eq!(schedule.completed_payment_cycle(), 1);
    assert_eq!(schedule.next_payment_cycle(), Some(2));
    assert_eq!(
        schedule.next_payment_date(),
        Some(datetime!(2025-02-28 09:00:00 UTC))
    );
    schedule.record_attempt(true);
    assert_eq!(
        schedule.next_payment_date(),
        Some(datetime!(2025-03-31 09:00:00 UTC))
    );
}

#[test]
fn a_clock_jump_makes_several_cycles_due_in_order_up_to_the_maximum() {
    let mut schedule = every(CycleType::Weekly, 1, 4);
    schedule.record_attempt(true);
    let due = schedule.due_cycles(START + Duration::weeks(2));
    assert_eq!(cycles(&due), [(2, 1), (3, 1)]);
    assert_eq!(due[1].due_at, START + Duration::weeks(2));
    let far = schedule.due_cycles(START + Duration::weeks(100));
    assert_eq!(cycles(&far), [(2, 1), (3, 1), (4, 1)]);
}

#[test]
fn after_the_last_cycle_nothing_is_due_and_there_is_no_next_date() {
    let mut schedule = every(CycleType::Days, 1, 2);
    schedule.record_attempt(true);
    schedule.record_attempt(true);
    assert!(schedule.is_finished());
    assert_eq!(schedule.completed_payment_cycle(), 2);
    assert_eq!(schedule.next_payment_cycle(), None);
    assert_eq!(schedule.next_payment_date(), None);
    assert!(schedule.due_cycles(START + Duration::days(999)).is_empty());
    assert_eq!(schedule.record_attempt(true), AttemptOutcome::GaveUp);
    assert_eq!(schedule.completed_payment_cycle(), 2);
}

#[test]
fn a_declined_cycle_is_retried_daily_then_closed_unpaid() {
    let mut schedule = every(CycleType::Monthly, 1, 3);
    schedule.record_attempt(true);
    let cycle_2 = datetime!(2025-02-28 09:00:00 UTC);
    assert_eq!(
        schedule.record_attempt(false),
        AttemptOutcome::RetryAt(cycle_2 + Duration::DAY)
    );
    assert_eq!(schedule.next_payment_cycle(), Some(2));
    assert_eq!(
        schedule.next_attempt(),
        Some(DueCycle {
            cycle: 2,
            attempt: 2,
            due_at: cycle_2 + Duration::DAY
        })
    );
    assert_eq!(
        schedule.record_attempt(false),
        AttemptOutcome::RetryAt(cycle_2 + Duration::days(2))
    );
    assert_eq!(schedule.record_attempt(false), AttemptOutcome::GaveUp);
    assert_eq!(schedule.completed_payment_cycle(), 2);
    assert_eq!(schedule.next_payment_cycle(), Some(3));
    assert_eq!(
        schedule.next_payment_date(),
        Some(datetime!(2025-03-31 09:00:00 UTC)),
        "the schedule keeps its dates after a failed cycle"
    );
}

#[test]
fn a_retry_that_succeeds_closes_the_cycle_as_paid() {
    let mut schedule = every(CycleType::Weekly, 1, 3);
    schedule.record_attempt(true);
    schedule.record_attempt(false);
    assert_eq!(schedule.record_attempt(true), AttemptOutcome::Paid);
    assert_eq!(schedule.next_payment_cycle(), Some(3));
    assert_eq!(
        schedule.next_payment_date(),
        Some(START + Duration::weeks(2))
    );
}

#[test]
fn retries_never_reach_the_next_cycle_date() {
    let mut daily = every(CycleType::Days, 1, 5);
    assert_eq!(daily.record_attempt(false), AttemptOutcome::GaveUp);
    assert_eq!(daily.next_payment_cycle(), Some(2));
    let mut two_days = every(CycleType::Days, 2, 5);
    assert_eq!(
        two_days.record_attempt(false),
        AttemptOutcome::RetryAt(START + Duration::DAY)
    );
    assert_eq!(two_days.record_attempt(false), AttemptOutcome::GaveUp);
}

#[test]
fn the_last_cycle_gets_all_its_retries() {
    let mut daily = every(CycleType::Days, 1, 1);
    assert!(matches!(
        daily.record_attempt(false),
        AttemptOutcome::RetryAt(_)
    ));
    assert!(matches!(
        daily.record_attempt(false),
        AttemptOutcome::RetryAt(_)
    ));
    assert_eq!(daily.record_attempt(false), AttemptOutcome::GaveUp);
    assert!(daily.is_finished());
}

#[test]
fn a_pending_retry_is_due_first_in_a_catch_up() {
    let mut schedule = every(CycleType::Weekly, 1, 4);
    schedule.record_attempt(true);
    schedule.record_attempt(false);
    let due = schedule.due_cycles(START + Duration::weeks(2));
    assert_eq!(cycles(&due), [(2, 2), (3, 1)]);
}

#[test]
fn resume_after_a_due_date_reanchors_at_the_resume() {
    let mut schedule = every(CycleType::Monthly, 1, 6);
    schedule.record_attempt(true);
    let resumed = datetime!(2025-04-10 12:00:00 UTC);
    schedule.resume(resumed);
    assert_eq!(cycles(&schedule.due_cycles(resumed)), [(2, 1)]);
    assert_eq!(schedule.next_payment_date(), Some(resumed));
    schedule.record_attempt(true);
    assert_eq!(
        schedule.next_payment_date(),
        Some(datetime!(2025-05-10 12:00:00 UTC))
    );
}

#[test]
fn resume_before_the_due_date_keeps_the_schedule() {
    let mut schedule = every(CycleType::Monthly, 1, 6);
    schedule.record_attempt(true);
    let before = schedule.clone();
    schedule.resume(datetime!(2025-02-10 00:00:00 UTC));
    assert_eq!(schedule, before);
}

#[test]
fn resume_keeps_the_attempt_count_of_a_pending_retry() {
    let mut schedule = every(CycleType::Monthly, 1, 6);
    schedule.record_attempt(true);
    schedule.record_attempt(false);
    let resumed = datetime!(2025-06-01 00:00:00 UTC);
    schedule.resume(resumed);
    assert_eq!(
        schedule.next_attempt(),
        Some(DueCycle {
            cycle: 2,
            attempt: 2,
            due_at: resumed
        })
    );
}

#[test]
fn the_term_ends_one_period_after_the_last_cycle() {
    let mut schedule = every(CycleType::Monthly, 1, 2);
    assert_eq!(schedule.end_of_term(), None);
    schedule.record_attempt(true);
    assert_eq!(schedule.end_of_term(), None);
    schedule.record_attempt(true);
    let end = datetime!(2025-03-31 09:00:00 UTC);
    assert_eq!(schedule.end_of_term(), Some(end));
    assert!(!schedule.is_over(end - Duration::SECOND));
    assert!(schedule.is_over(end));
}

#[test]
fn a_term_ending_beyond_the_calendar_is_over_once_finished() {
    let mut schedule = Schedule::new(
        Cadence {
            unit: CycleType::Monthly,
            interval: 12,
        },
        1,
        datetime!(9999-01-01 00:00:00 UTC),
    );
    assert!(!schedule.is_over(START));
    schedule.record_attempt(true);
    assert_eq!(schedule.end_of_term(), None);
    assert!(schedule.is_over(START));
}
