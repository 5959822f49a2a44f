//! Subscriptions: creation, sync guards (final status kept, cycles never go down), cycles
//! recorded idempotently, listing by customer.

use checkout::contract::{SubscriptionCharge, SubscriptionStatus};
use checkout_server::store::prelude::*;
use time::{Duration, OffsetDateTime};

use super::{TestDb, now};

store_suite!(
    each_subscription_change_writes_its_event_once,
    cycles_are_recorded_once_per_number,
    syncs_never_undo_newer_facts,
    subscriptions_list_by_customer,
);

/// An active subscription of `customer` on plan `monthly`, with no sign-up payment.
pub(super) async fn subscription(db: &TestDb, gateway_id: &str, customer: &str) -> Subscription {
    db.store
        .create_subscription(NewSubscription {
            gateway_subscription_id: gateway_id.into(),
            customer_id: Some(customer.into()),
            plan_id: "monthly".into(),
            session_id: None,
            first_payment_id: None,
            amount: 1000,
            currency: "JPY".into(),
            status: SubscriptionStatus::Active,
            completed_cycles: 1,
            next_payment_at: Some(now() + Duration::days(30)),
            last_payment_status: Some("SUCCESSFUL".into()),
            next_poll_at: now() + Duration::hours(1),
            found_in_list: None,
        })
        .await
        .expect("subscription stored")
}

/// The types of the events written for `object_id`, oldest first.
pub(super) async fn event_kinds(db: &TestDb, object_id: &str) -> Vec<String> {
    db.store
        .object_events(object_id)
        .await
        .unwrap()
        .into_iter()
        .map(|event| event.kind)
        .collect()
}

/// Cycle `n` of `sub`, charged by the gateway itself at `at`.
pub(super) fn cycle(
    sub: &Subscription,
    n: u32,
    status: CycleStatus,
    at: OffsetDateTime,
) -> NewCycle {
    NewCycle {
        subscription_id: sub.id.clone(),
        cycle: n,
        gateway_transaction_id: Some(format!("txn-cycle-{n}")),
        amount: 900,
        currency: "JPY".into(),
        status,
        charged_at: at,
        payment_id: None,
        period_start: None,
        period_end: None,
    }
}

/// The outbox (migration `0003_events`): creation, each status change, each billed cycle (and
/// a failed cycle charged again later) write their event once; a repeated report writes none.
async fn each_subscription_change_writes_its_event_once(db: &TestDb) {
    let sub = subscription(db, "gw-events", "erin").await;
    let at = now();
    let sync = |status, completed_cycles| SubscriptionSync {
        status,
        completed_cycles,
        next_payment_at: Some(at + Duration::days(30)),
        last_payment_status: Some("SUCCESSFUL".into()),
        read_version: None,
    };
    let next_poll = Some(at + Duration::hours(1));
    db.store
        .upsert_cycle(cycle(&sub, 2, CycleStatus::Failed, at))
        .await
        .unwrap();
    db.store
        .upsert_cycle(cycle(&sub, 2, CycleStatus::Succeeded, at))
        .await
        .unwrap();
    db.store
        .upsert_cycle(cycle(&sub, 2, CycleStatus::Succeeded, at))
        .await
        .unwrap();
    for (status, cycles) in [
        (SubscriptionStatus::Paused, 2),
        (SubscriptionStatus::Paused, 2),
        (SubscriptionStatus::Active, 2),
        (SubscriptionStatus::Cancelled, 2),
    ] {
        db.store
            .sync_subscription(&sub.id, sync(status, cycles), next_poll)
            .await
            .unwrap();
    }
    assert_eq!(
        event_kinds(db, &sub.id).await,
        [
            "subscription.created",
            "subscription.payment_failed",
            "subscription.renewed",
            "subscription.paused",
            "subscription.resumed",
            "subscription.cancelled",
        ]
    );
}

async fn cycles_are_recorded_once_per_number(db: &TestDb) {
    let sub = subscription(db, "gw-1", "dana").await;
    let at = now();
    let first = cycle(&sub, 1, CycleStatus::Succeeded, at);
    assert_eq!(
        db.store.upsert_cycle(first.clone()).await.unwrap(),
        CycleUpsert::Inserted
    );
    assert_eq!(
        db.store.upsert_cycle(first).await.unwrap(),
        CycleUpsert::Unchanged
    );
    let failed = cycle(&sub, 2, CycleStatus::Failed, at + Duration::days(30));
    assert_eq!(
        db.store.upsert_cycle(failed).await.unwrap(),
        CycleUpsert::Inserted
    );
    let retried = cycle(&sub, 2, CycleStatus::Succeeded, at + Duration::days(31));
    assert_eq!(
        db.store.upsert_cycle(retried.clone()).await.unwrap(),
        CycleUpsert::Updated
    );
    let stale = cycle(&sub, 2, CycleStatus::Failed, at + Duration::days(30));
    assert_eq!(
        db.store.upsert_cycle(stale).await.unwrap(),
        CycleUpsert::Unchanged,
        "a late failure report must not undo a recorded charge"
    );
    // Concurrent reports of the same new cycle: one insert, the rest unchanged.
    let mut tasks = Vec::new();
    for _ in 0..8 {
        let store = db.store.clone();
        let third = cycle(&sub, 3, CycleStatus::Succeeded, at + Duration::days(60));
        tasks.push(tokio::spawn(async move {
            store.upsert_cycle(third).await.expect("upsert runs")
        }));
    }
    let mut inserted = 0;
    for task in tasks {
        inserted += usize::from(task.await.expect("task finished") == CycleUpsert::Inserted);
    }
    assert_eq!(inserted, 1);

    let cycles = db.store.list_cycles(&sub.id).await.unwrap();
    let numbers: Vec<u32> = cycles.iter().map(|c| c.cycle).collect();
    assert_eq!(numbers, vec![1, 2, 3]);
    assert_eq!(cycles[1].status, CycleStatus::Succeeded);
    assert_eq!(cycles[1].charged_at, retried.charged_at);
    let charge = SubscriptionCharge::from(&cycles[0]);
    assert!(charge.succeeded && charge.amount == 900);
    let unknown = db.store.upsert_cycle(NewCycle {
        subscription_id: "no-such-subscription".into(),
        ..cycle(&sub, 1, CycleStatus::Succeeded, at)
    });
    assert!(unknown.await.is_err(), "a cycle needs its subscription");
}

async fn syncs_never_undo_newer_facts(db: &TestDb) {
    let sub = subscription(db, "gw-2", "erin").await;
    let duplicate = db.store.create_subscription(NewSubscription {
        gateway_subscription_id: "gw-2".into(),
        customer_id: None,
        plan_id: "monthly".into(),
        session_id: None,
        first_payment_id: None,
        amount: 1000,
        currency: "JPY".into(),
        status: SubscriptionStatus::Active,
        completed_cycles: 1,
        next_payment_at: None,
        last_payment_status: None,
        next_poll_at: now(),
        found_in_list: None,
    });
    assert!(matches!(duplicate.await, Err(StoreError::Conflict(_))));

    let next_poll = now() + Duration::hours(2);
    let sync = |status, cycles| SubscriptionSync {
        status,
        completed_cycles: cycles,
        next_payment_at: Some(now() + Duration::days(60)),
        last_payment_status: Some("SUCCESSFUL".into()),
        read_version: None,
    };
    let synced = db.store.sync_subscription(
        &sub.id,
        sync(SubscriptionStatus::Active, 3),
        Some(next_poll),
    );
    let synced = synced.await.unwrap();
    assert!(synced.changed);
    assert_eq!(synced.subscription.completed_cycles, 3);
    assert_eq!(synced.subscription.next_poll_at, Some(next_poll));

    let stale = db.store.sync_subscription(
        &sub.id,
        sync(SubscriptionStatus::Active, 2),
        Some(next_poll),
    );
    let stale = stale.await.unwrap();
    assert!(!stale.changed);
    assert_eq!(
        stale.subscription.completed_cycles, 3,
        "cycle count went down"
    );
    assert_eq!(
        stale.subscription.next_payment_at,
        synced.subscription.next_payment_at
    );
    let stale_cancel = sync(SubscriptionStatus::Cancelled, 1);
    let stale_cancel = db
        .store
        .sync_subscription(&sub.id, stale_cancel, Some(next_poll));
    assert_eq!(
        stale_cancel.await.unwrap().subscription.status,
        SubscriptionStatus::Active
    );

    let same = synced.subscription.clone();
    let repeat = SubscriptionSync {
        status: same.status,
        completed_cycles: same.completed_cycles,
        next_payment_at: same.next_payment_at,
        last_payment_status: same.last_payment_status.clone(),
        read_version: None,
    };
    let later_poll = next_poll + Duration::hours(1);
    let unchanged = db
        .store
        .sync_subscription(&sub.id, repeat, Some(later_poll))
        .await
        .unwrap();
    assert!(!unchanged.changed);
    assert_eq!(
        unchanged.subscription.next_poll_at,
        Some(later_poll),
        "poll rescheduled anyway"
    );

    let cancelled = db.store.sync_subscription(
        &sub.id,
        sync(SubscriptionStatus::Cancelled, 3),
        Some(next_poll),
    );
    let cancelled = cancelled.await.unwrap();
    assert_eq!(cancelled.subscription.status, SubscriptionStatus::Cancelled);
    assert_eq!(
        cancelled.subscription.next_poll_at, None,
        "a final subscription is not polled"
    );
    let revived = db.store.sync_subscription(
        &sub.id,
        sync(SubscriptionStatus::Active, 3),
        Some(next_poll),
    );
    let revived = revived.await.unwrap();
    assert!(!revived.changed);
    assert_eq!(revived.subscription.status, SubscriptionStatus::Cancelled);
    assert_eq!(revived.subscription.next_poll_at, None);

    let missing = db
        .store
        .sync_subscription("nope", sync(SubscriptionStatus::Active, 1), None)
        .await;
    assert!(matches!(missing, Err(StoreError::NotFound("subscription"))));
    let by_gateway = db
        .store
        .find_subscription_by_gateway_id("gw-2")
        .await
        .unwrap();
    assert_eq!(by_gateway.map(|s| s.id), Some(sub.id));
}

async fn subscriptions_list_by_customer(db: &TestDb) {
    let mut franks = Vec::new();
    for i in 0..5 {
        franks.push(subscription(db, &format!("gw-f{i}"), "frank").await.id);
        tokio::time::sleep(std::time::Duration::from_millis(2)).await;
    }
    subscription(db, "gw-g", "gina").await;
    franks.reverse();
    let first = db
        .store
        .list_subscriptions(SubscriptionQuery {
            customer_id: Some("frank".into()),
            limit: 3,
            ..Default::default()
        })
        .await
        .unwrap();
    let second = db
        .store
        .list_subscriptions(SubscriptionQuery {
            customer_id: Some("frank".into()),
            limit: 3,
            after: first.next.clone(),
            ..Default::default()
        })
        .await
        .unwrap();
    assert!(second.next.is_none());
    let listed: Vec<String> = first
        .items
        .into_iter()
        .chain(second.items)
        .map(|s| s.id)
        .collect();
    assert_eq!(listed, franks);
    let active = SubscriptionQuery {
        status: Some(SubscriptionStatus::Active),
        ..Default::default()
    };
    assert_eq!(
        db.store
            .list_subscriptions(active)
            .await
            .unwrap()
            .items
            .len(),
        6
    );
}
