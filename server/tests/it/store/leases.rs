//! Leases: two instances claiming due payments and subscriptions never hold the same row at
//! the same time; expired leases are taken over; release reschedules.

use std::collections::HashMap;
use std::sync::Arc;

use checkout::contract::PaymentState::*;
use checkout::contract::SubscriptionStatus;
use checkout_server::store::prelude::*;
use time::{Duration, OffsetDateTime};
use tokio::sync::Mutex;

use super::{TestDb, new_payment, new_payment_due, now, step};

store_suite!(
    two_instances_never_claim_the_same_payment,
    expired_leases_are_taken_over_and_release_reschedules,
    only_unsettled_due_payments_are_claimed,
    two_instances_never_claim_the_same_subscription,
);

const LEASE: Duration = Duration::seconds(60);

async fn two_instances_never_claim_the_same_payment(db: &TestDb) {
    let at = now();
    for _ in 0..30 {
        new_payment_due(db, 500, at - Duration::minutes(1)).await;
    }
    let later = new_payment_due(db, 500, at + Duration::hours(1)).await;
    let other_instance = db.second_instance().await;
    let claims: Arc<Mutex<HashMap<String, Vec<String>>>> = Arc::default();
    let mut workers = Vec::new();
    for worker in 0..4 {
        let store = if worker % 2 == 0 {
            db.store.clone()
        } else {
            other_instance.clone()
        };
        let claims = claims.clone();
        workers.push(tokio::spawn(async move {
            let owner = format!("instance-{}/worker-{worker}", worker % 2);
            loop {
                let batch = store
                    .claim_due_payments(at, &owner, LEASE, 4)
                    .await
                    .expect("claim runs");
                if batch.is_empty() {
                    break;
                }
                let mut claims = claims.lock().await;
                for payment in batch {
                    assert_eq!(payment.lease_owner.as_deref(), Some(owner.as_str()));
                    assert_eq!(payment.lease_until, Some(at + LEASE));
                    claims.entry(payment.id).or_default().push(owner.clone());
                }
            }
        }));
    }
    for worker in workers {
        worker.await.expect("worker finished");
    }
    let claims = claims.lock().await;
    assert_eq!(claims.len(), 30, "every due payment claimed");
    for (id, owners) in claims.iter() {
        assert_eq!(owners.len(), 1, "{id} claimed by {owners:?}");
    }
    assert!(
        !claims.contains_key(&later.id),
        "claimed a payment not yet due"
    );
    other_instance.close().await;
}

async fn expired_leases_are_taken_over_and_release_reschedules(db: &TestDb) {
    let t = now();
    let payment = new_payment_due(db, 500, t - Duration::seconds(1)).await;
    let a = db
        .store
        .claim_due_payments(t, "a", Duration::seconds(30), 10)
        .await
        .unwrap();
    assert_eq!(a.len(), 1);
    assert!(
        db.store
            .claim_due_payments(t, "b", LEASE, 10)
            .await
            .unwrap()
            .is_empty()
    );
    assert!(
        !db.store
            .lease_payment(&payment.id, "b", t, LEASE)
            .await
            .unwrap()
    );
    assert!(
        db.store
            .lease_payment(&payment.id, "a", t, Duration::seconds(30))
            .await
            .unwrap()
    );

    let after_expiry = t + Duration::seconds(31);
    let b = db
        .store
        .claim_due_payments(after_expiry, "b", LEASE, 10)
        .await
        .unwrap();
    assert_eq!(
        b.iter().map(|p| &p.id).collect::<Vec<_>>(),
        vec![&payment.id]
    );
    assert!(
        !db.store
            .release_payment(&payment.id, "a", None)
            .await
            .unwrap(),
        "a lost it"
    );
    let next = t + Duration::hours(1);
    assert!(
        db.store
            .release_payment(&payment.id, "b", Some(next))
            .await
            .unwrap()
    );
    let released = db.store.get_payment(&payment.id).await.unwrap().unwrap();
    assert_eq!(
        (released.lease_owner, released.next_check_at),
        (None, Some(next))
    );
    assert!(
        db.store
            .claim_due_payments(after_expiry, "c", LEASE, 10)
            .await
            .unwrap()
            .is_empty()
    );
    let due_again = db
        .store
        .claim_due_payments(next, "c", LEASE, 10)
        .await
        .unwrap();
    assert_eq!(due_again.len(), 1);
    let bad = db
        .store
        .claim_due_payments(t, "d", Duration::ZERO, 10)
        .await;
    assert!(matches!(
        bad,
        Err(StoreError::Invalid { field: "lease", .. })
    ));
}

async fn only_unsettled_due_payments_are_claimed(db: &TestDb) {
    let t = now();
    let far = t + Duration::days(1);
    let created = new_payment_due(db, 500, t - Duration::seconds(1)).await;
    let captured = new_payment_due(db, 500, t - Duration::seconds(1)).await;
    let captured = step(db, &captured, Pending, Default::default()).await;
    step(db, &captured, Captured, Default::default()).await;
    let review = new_payment(db, 500).await;
    let review = step(db, &review, Pending, Default::default()).await;
    step(db, &review, NeedsReview, Default::default()).await;

    let claimed = claim_ids(db, far).await;
    assert_eq!(
        claimed,
        vec![created.id.clone()],
        "only the created payment is due"
    );
    // A needs_review payment whose gateway id turns up becomes due at once.
    assert!(
        db.store
            .note_gateway_transaction(&review.id, "txn-late")
            .await
            .unwrap()
    );
    let claimed = claim_ids(db, far + Duration::hours(1)).await;
    assert!(claimed.contains(&review.id), "{claimed:?}");
    assert!(!claimed.contains(&captured.id));
}

async fn claim_ids(db: &TestDb, at: OffsetDateTime) -> Vec<String> {
    let claimed = db
        .store
        .claim_due_payments(at, "scan", Duration::seconds(1), 100)
        .await;
    claimed.unwrap().into_iter().map(|p| p.id).collect()
}

async fn two_instances_never_claim_the_same_subscription(db: &TestDb) {
    let t = now();
    let mut live = Vec::new();
    for (i, status) in [
        SubscriptionStatus::Active,
        SubscriptionStatus::Paused,
        SubscriptionStatus::Active,
        SubscriptionStatus::Cancelled,
        SubscriptionStatus::Expired,
    ]
    .into_iter()
    .enumerate()
    {
        let sub = db
            .store
            .create_subscription(NewSubscription {
                gateway_subscription_id: format!("gw-sub-{i}"),
                customer_id: Some("cust-1".into()),
                plan_id: "monthly".into(),
                session_id: None,
                first_payment_id: None,
                amount: 1000,
                currency: "JPY".into(),
                status,
                completed_cycles: 1,
                next_payment_at: Some(t + Duration::days(30)),
                last_payment_status: Some("SUCCESSFUL".into()),
                next_poll_at: t - Duration::seconds(1),
                found_in_list: None,
            })
            .await
            .unwrap();
        if !matches!(
            status,
            SubscriptionStatus::Cancelled | SubscriptionStatus::Expired
        ) {
            live.push(sub.id);
        }
    }
    let other_instance = db.second_instance().await;
    let (a, b) = tokio::join!(
        db.store.claim_due_subscriptions(t, "a", LEASE, 10),
        other_instance.claim_due_subscriptions(t, "b", LEASE, 10),
    );
    let mut claimed: Vec<String> = a
        .unwrap()
        .into_iter()
        .chain(b.unwrap())
        .map(|s| s.id)
        .collect();
    claimed.sort();
    live.sort();
    assert_eq!(claimed, live, "each live subscription claimed exactly once");
    let first = &live[0];
    assert!(
        !db.store
            .release_subscription(first, "nobody", None)
            .await
            .unwrap()
    );
    let holder = db
        .store
        .get_subscription(first)
        .await
        .unwrap()
        .unwrap()
        .lease_owner
        .unwrap();
    let next = t + Duration::hours(6);
    assert!(
        db.store
            .release_subscription(first, &holder, Some(next))
            .await
            .unwrap()
    );
    let stored = db.store.get_subscription(first).await.unwrap().unwrap();
    assert_eq!(
        (stored.lease_owner, stored.next_poll_at),
        (None, Some(next))
    );
    other_instance.close().await;
}
