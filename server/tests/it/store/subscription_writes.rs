//! What a subscription's writes tell the shop (issue 46): `subscription.renewed` is every period
//! the gateway charged by itself (cycle 1 after a trial, retries, later cycles), never the
//! one the sign-up's own payment charged; and a report read before another write of the row
//! (a poll that asked the gateway before a pause) changes nothing and sends nothing.

use checkout::contract::SubscriptionStatus;
use checkout_server::store::prelude::*;
use time::Duration;

use super::subscriptions::{cycle, event_kinds, subscription};
use super::{TestDb, new_payment, now};

store_suite!(
    renewed_means_a_period_the_gateway_charged,
    a_sync_read_before_another_write_applies_nothing,
);

/// Event types and cycle numbers written for `sub`, oldest first.
async fn kinds(db: &TestDb, sub: &Subscription) -> Vec<(String, Option<u64>)> {
    db.store
        .object_events(&sub.id)
        .await
        .unwrap()
        .into_iter()
        .map(|event| {
            let snapshot: serde_json::Value = serde_json::from_str(&event.snapshot).unwrap();
            (event.kind, snapshot["cycle"]["cycle"].as_u64())
        })
        .collect()
}

fn kind(name: &str, cycle: Option<u64>) -> (String, Option<u64>) {
    (name.to_owned(), cycle)
}

/// The sign-up's own cycle (charged by its payment) is `subscription.created` and the payment's
/// own event, never `renewed`; every cycle the gateway charged by itself is `renewed` once
/// paid, at once or after a failed charge, cycle 1 after a trial included.
async fn renewed_means_a_period_the_gateway_charged(db: &TestDb) {
    let at = now();
    let sign_up = new_payment(db, 1000).await;
    let monthly = subscription(db, "gw-renewed", "fay").await;
    let mut first = cycle(&monthly, 1, CycleStatus::Succeeded, at);
    first.payment_id = Some(sign_up.id.clone());
    first.period_start = Some(at);
    first.period_end = Some(at + Duration::days(30));
    db.store.upsert_cycle(first).await.unwrap();
    for (n, status) in [
        (2, CycleStatus::Succeeded),
        (3, CycleStatus::Failed),
        (3, CycleStatus::Succeeded),
    ] {
        let mut later = cycle(&monthly, n, status, at);
        later.period_start = Some(at + Duration::days(30 * i64::from(n - 1)));
        later.period_end = Some(at + Duration::days(30 * i64::from(n)));
        db.store.upsert_cycle(later).await.unwrap();
    }
    assert_eq!(
        kinds(db, &monthly).await,
        [
            kind("subscription.created", None),
            kind("subscription.renewed", Some(2)),
            kind("subscription.payment_failed", Some(3)),
            kind("subscription.renewed", Some(3)),
        ]
    );
    let events = db.store.object_events(&monthly.id).await.unwrap();
    let renewed: serde_json::Value = serde_json::from_str(&events[1].snapshot).unwrap();
    assert_eq!(renewed["cycle"]["payment_id"], serde_json::Value::Null);
    assert!(
        renewed["cycle"]["period_start"].as_i64().is_some(),
        "{renewed}"
    );
    assert!(
        renewed["cycle"]["period_end"].as_i64().is_some(),
        "{renewed}"
    );

    // A trial: the sign-up charged nothing, so cycle 1 is the gateway's, paid on a retry.
    let trial = subscription(db, "gw-trial-retried", "gus").await;
    for status in [CycleStatus::Failed, CycleStatus::Succeeded] {
        db.store
            .upsert_cycle(cycle(&trial, 1, status, at))
            .await
            .unwrap();
    }
    assert_eq!(
        kinds(db, &trial).await,
        [
            kind("subscription.created", None),
            kind("subscription.payment_failed", Some(1)),
            kind("subscription.renewed", Some(1)),
        ]
    );
    let cycles = db.store.list_cycles(&monthly.id).await.unwrap();
    assert_eq!(cycles[0].payment_id.as_deref(), Some(sign_up.id.as_str()));
    assert_eq!(cycles[0].period_end, Some(at + Duration::days(30)));
}

/// A report read against an older version (a poll that asked the gateway before a pause was
/// written) changes nothing and makes the subscription due at once; one read against the
/// current version applies and counts a new version.
async fn a_sync_read_before_another_write_applies_nothing(db: &TestDb) {
    let sub = subscription(db, "gw-versions", "gina").await;
    assert_eq!(sub.version, 0);
    let report = |status, read_version| SubscriptionSync {
        status,
        completed_cycles: 1,
        next_payment_at: sub.next_payment_at,
        last_payment_status: Some("SUCCESSFUL".into()),
        read_version,
    };
    let later = now() + Duration::hours(1);
    let paused = db
        .store
        .sync_subscription(
            &sub.id,
            report(SubscriptionStatus::Paused, Some(0)),
            Some(later),
        )
        .await
        .unwrap();
    assert!(paused.changed && !paused.stale);
    assert_eq!(paused.subscription.version, 1);
    assert_eq!(paused.subscription.next_poll_at, Some(later));

    let before = now();
    let stale = db
        .store
        .sync_subscription(
            &sub.id,
            report(SubscriptionStatus::Active, Some(0)),
            Some(later),
        )
        .await
        .unwrap();
    assert!(!stale.changed && stale.stale);
    assert_eq!(stale.subscription.status, SubscriptionStatus::Paused);
    assert_eq!(stale.subscription.version, 1);
    let due = stale.subscription.next_poll_at.expect("still polled");
    assert!(
        due >= before - Duration::seconds(1) && due <= now(),
        "{due}"
    );

    let resumed = db
        .store
        .sync_subscription(
            &sub.id,
            report(SubscriptionStatus::Active, Some(1)),
            Some(later),
        )
        .await
        .unwrap();
    assert!(resumed.changed && !resumed.stale);
    assert_eq!(resumed.subscription.version, 2);
    assert_eq!(
        event_kinds(db, &sub.id).await,
        [
            "subscription.created",
            "subscription.paused",
            "subscription.resumed"
        ],
        "the stale report sent nothing"
    );
}
