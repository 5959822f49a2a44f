//! Tests of `subscription`: the lifecycle with a scripted charge function.

use super::super::cadence::{Cadence, CycleType};
use super::super::terms::Discount;
use super::*;
use std::convert::Infallible;
use time::macros::datetime;

const CREATED: OffsetDateTime = datetime!(2025-01-15 10:00:00 UTC);

fn terms(trial_days: Option<u32>, max_cycle_count: u32) -> PlanTerms {
    PlanTerms {
        name: "Gold".into(),
        description: "gold plan".into(),
        cadence: Cadence {
            unit: CycleType::Monthly,
            interval: 1,
        },
        amount: 1000,
        currency: "JPY".into(),
        max_cycle_count,
        trial_days,
        discount: Some(Discount {
            percentage: 10,
            duration: 2,
        }),
    }
}

/// A charge function that approves or declines and remembers what it was asked.
struct Card {
    approve: bool,
    asked: Vec<(u32, u8, u64)>,
    next_ref: u64,
}

impl Card {
    fn new(approve: bool) -> Self {
        Self {
            approve,
            asked: Vec::new(),
            next_ref: 100,
        }
    }

    fn charge(
        &mut self,
        now: OffsetDateTime,
    ) -> impl FnMut(CycleBilling<'_, &str>) -> Result<ChargeResult, Infallible> {
        move |billing| {
            assert_eq!(*billing.context, "tok_1");
            assert_eq!(billing.currency, "JPY");
            self.asked
                .push((billing.due.cycle, billing.due.attempt, billing.amount));
            self.next_ref += 1;
            Ok(ChargeResult {
                transaction_id: Uuid::new_v4(),
                reference: self.next_ref,
                approved: self.approve,
                charged_at: now,
            })
        }
    }

    /// Bills what is due at `now` with charges dated `charged_at`; returns the attempts made.
    fn bill_due(
        &mut self,
        sub: &mut Subscription<&'static str>,
        now: OffsetDateTime,
        charged_at: OffsetDateTime,
    ) -> usize {
        match sub.bill_due(now, self.charge(charged_at)) {
            Ok(attempts) => attempts,
            Err(never) => match never {},
        }
    }

    /// Bills the next attempt if due; returns the recorded entry.
    fn bill_next(
        &mut self,
        sub: &mut Subscription<&'static str>,
        now: OffsetDateTime,
        charged_at: OffsetDateTime,
    ) -> Option<SubscriptionTransaction> {
        match sub.bill_next(now, self.charge(charged_at)) {
            Ok(entry) => entry.cloned(),
            Err(never) => match never {},
        }
    }
}

fn created(trial_days: Option<u32>, max: u32) -> Subscription<&'static str> {
    Subscription::new(Uuid::new_v4(), terms(trial_days, max), CREATED, "tok_1")
}

#[test]
fn without_trial_cycle_1_is_due_at_creation_and_billed_discounted() {
    let mut sub = created(None, 3);
    assert_eq!(sub.status(), SubscriptionStatus::Active);
    assert_eq!(sub.due_cycles(CREATED).len(), 1);
    let mut card = Card::new(true);
    let entry = card.bill_next(&mut sub, CREATED, CREATED);
    let entry = entry.expect("cycle 1 billed");
    assert_eq!((entry.cycle, entry.amount), (1, 900));
    assert_eq!(entry.status, CycleStatus::Successful);
    assert_eq!(sub.completed_payment_cycle(), 1);
    assert_eq!(sub.next_payment_cycle(), Some(2));
    assert_eq!(
        sub.next_payment_date(),
        Some(datetime!(2025-02-15 10:00:00 UTC))
    );
    assert_eq!(sub.last_payment_status(), Some(CycleStatus::Successful));
    assert_eq!(card.bill_due(&mut sub, CREATED, CREATED), 0);
}

#[test]
fn with_trial_nothing_is_due_until_the_trial_ends() {
    let mut sub = created(Some(14), 3);
    assert!(sub.due_cycles(CREATED).is_empty());
    assert_eq!(sub.completed_payment_cycle(), 0);
    assert_eq!(sub.next_payment_cycle(), Some(1));
    let trial_end = datetime!(2025-01-29 10:00:00 UTC);
    assert_eq!(sub.next_payment_date(), Some(trial_end));
    assert_eq!(sub.last_payment_status(), None);
    let mut card = Card::new(true);
    assert_eq!(
        card.bill_due(&mut sub, trial_end - Duration::SECOND, CREATED),
        0
    );
    assert_eq!(card.bill_due(&mut sub, trial_end, trial_end), 1);
    assert_eq!(card.asked, [(1, 1, 900)]);
    assert_eq!(
        sub.next_payment_date(),
        Some(datetime!(2025-02-28 10:00:00 UTC))
    );
}

#[test]
fn full_run_discount_then_full_price_then_expired() {
    let mut sub = created(None, 4);
    let mut card = Card::new(true);
    let far = CREATED + Duration::days(400);
    assert_eq!(card.bill_due(&mut sub, far, far), 4);
    assert_eq!(
        card.asked,
        [(1, 1, 900), (2, 1, 900), (3, 1, 1000), (4, 1, 1000)]
    );
    assert_eq!(sub.status(), SubscriptionStatus::Expired);
    assert_eq!(sub.completed_payment_cycle(), 4);
    assert_eq!(sub.next_payment_cycle(), None);
    assert_eq!(sub.next_payment_date(), None);
    assert_eq!(sub.history().len(), 4);
    assert!(sub.due_cycles(far + Duration::days(400)).is_empty());
    assert!(matches!(
        sub.apply(Operation::Cancel, far),
        Err(SubscriptionError::TransitionRefused {
            from: SubscriptionStatus::Expired,
            ..
        })
    ));
}

#[test]
fn paused_is_not_billed_and_the_missed_cycle_is_billed_once_on_resume() {
    let mut sub = created(None, 6);
    let mut card = Card::new(true);
    card.bill_next(&mut sub, CREATED, CREATED);
    let paused_at = datetime!(2025-02-01 00:00:00 UTC);
    assert_eq!(
        sub.apply(Operation::Pause, paused_at),
        Ok(SubscriptionStatus::Paused)
    );
    let later = datetime!(2025-05-20 08:00:00 UTC);
    assert!(sub.due_cycles(later).is_empty());
    assert_eq!(card.bill_due(&mut sub, later, later), 0);
    assert_eq!(
        sub.apply(Operation::Resume, later),
        Ok(SubscriptionStatus::Active)
    );
    assert_eq!(
        card.bill_due(&mut sub, later, later),
        1,
        "one cycle, not four"
    );
    assert_eq!(sub.completed_payment_cycle(), 2);
    assert_eq!(
        sub.next_payment_date(),
        Some(datetime!(2025-06-20 08:00:00 UTC))
    );
}

#[test]
fn refused_operations_leave_everything_unchanged() {
    let mut sub = created(None, 6);
    let mut card = Card::new(true);
    card.bill_next(&mut sub, CREATED, CREATED);
    let before = format!("{sub:?}");
    assert!(sub.apply(Operation::Resume, CREATED).is_err());
    assert_eq!(format!("{sub:?}"), before);
    sub.apply(Operation::Pause, CREATED).expect("pause");
    let paused = format!("{sub:?}");
    assert!(sub.apply(Operation::Pause, CREATED).is_err());
    assert_eq!(format!("{sub:?}"), paused);
    sub.apply(Operation::Cancel, CREATED)
        .expect("cancel from paused");
    let cancelled = format!("{sub:?}");
    for operation in [Operation::Pause, Operation::Resume, Operation::Cancel] {
        assert_eq!(
            sub.apply(operation, CREATED + Duration::days(90)),
            Err(SubscriptionError::TransitionRefused {
                operation,
                from: SubscriptionStatus::Cancelled
            })
        );
    }
    assert_eq!(format!("{sub:?}"), cancelled);
    assert_eq!(sub.next_payment_date(), None);
    let far = CREATED + Duration::days(900);
    assert_eq!(card.bill_due(&mut sub, far, far), 0);
}

#[test]
fn a_card_declining_later_cycles_records_failed_attempts_and_moves_on() {
    let mut sub = created(None, 3);
    let mut good = Card::new(true);
    good.bill_next(&mut sub, CREATED, CREATED);
    let mut declining = Card::new(false);
    let cycle_2 = datetime!(2025-02-15 10:00:00 UTC);
    assert_eq!(declining.bill_due(&mut sub, cycle_2, cycle_2), 1);
    assert_eq!(sub.last_payment_status(), Some(CycleStatus::Failed));
    assert_eq!(sub.next_payment_cycle(), Some(2));
    assert_eq!(sub.next_payment_date(), Some(cycle_2 + Duration::DAY));
    let later = cycle_2 + Duration::days(3);
    assert_eq!(declining.bill_due(&mut sub, later, later), 2);
    assert_eq!(declining.asked, [(2, 1, 900), (2, 2, 900), (2, 3, 900)]);
    assert_eq!(sub.completed_payment_cycle(), 2);
    assert_eq!(sub.next_payment_cycle(), Some(3));
    assert_eq!(sub.status(), SubscriptionStatus::Active);
    let failed = &sub.history()[1..];
    assert!(failed.iter().all(|entry| entry.cycle == 2
        && entry.status == CycleStatus::Failed
        && entry.event.as_str() == "DECLINED"));
}

#[test]
fn the_last_cycle_failing_for_good_expires_the_subscription_at_the_end_of_its_term() {
    let mut sub = created(None, 1);
    let mut declining = Card::new(false);
    let soon = CREATED + Duration::days(10);
    assert_eq!(declining.bill_due(&mut sub, soon, soon), 3);
    assert_eq!(sub.status(), SubscriptionStatus::Active);
    assert_eq!(sub.next_payment_cycle(), None);
    let far = CREATED + Duration::days(40);
    assert_eq!(declining.bill_due(&mut sub, far, far), 0);
    assert_eq!(sub.status(), SubscriptionStatus::Expired);
    assert_eq!(sub.last_payment_status(), Some(CycleStatus::Failed));
}

#[test]
fn a_charge_error_records_nothing_and_stops_billing() {
    let mut sub = created(None, 3);
    let far = CREATED + Duration::days(100);
    let result = sub.bill_due(far, |_| Err::<ChargeResult, _>("token vanished"));
    assert_eq!(result, Err("token vanished"));
    assert!(sub.history().is_empty());
    assert_eq!(sub.completed_payment_cycle(), 0);
    assert_eq!(sub.due_cycles(far).len(), 3);
}

#[test]
fn the_last_paid_period_is_served_before_expiry() {
    let mut sub = created(None, 2);
    let mut card = Card::new(true);
    card.bill_next(&mut sub, CREATED, CREATED);
    let cycle_2 = datetime!(2025-02-15 10:00:00 UTC);
    assert_eq!(card.bill_due(&mut sub, cycle_2, cycle_2), 1);
    assert_eq!(sub.status(), SubscriptionStatus::Active);
    assert_eq!(sub.completed_payment_cycle(), 2);
    assert_eq!(sub.next_payment_cycle(), None);
    assert_eq!(sub.next_payment_date(), None);
    let end = datetime!(2025-03-15 10:00:00 UTC);
    assert_eq!(sub.end_of_term(), Some(end));
    assert_eq!(card.bill_due(&mut sub, end - Duration::SECOND, end), 0);
    assert_eq!(sub.status(), SubscriptionStatus::Active);
    assert_eq!(card.bill_due(&mut sub, end, end), 0);
    assert_eq!(sub.status(), SubscriptionStatus::Expired);
    assert_eq!(card.asked.len(), 2);
}

#[test]
fn a_paused_subscription_expires_only_once_resumed_past_its_term() {
    let mut sub = created(None, 1);
    let mut card = Card::new(true);
    card.bill_next(&mut sub, CREATED, CREATED);
    sub.apply(Operation::Pause, CREATED).expect("pause");
    let far = CREATED + Duration::days(90);
    assert_eq!(card.bill_due(&mut sub, far, far), 0);
    assert_eq!(sub.status(), SubscriptionStatus::Paused);
    sub.apply(Operation::Resume, far).expect("resume");
    assert_eq!(card.bill_due(&mut sub, far, far), 0);
    assert_eq!(sub.status(), SubscriptionStatus::Expired);
}
