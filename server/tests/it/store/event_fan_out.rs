//! The events outbox fanned out on both databases: each endpoint gets the types it takes and
//! each object's events in order, a delivery is finished only by its holder, and fanning out
//! skips an event another instance holds.

use checkout::contract::PaymentState::*;
use checkout_server::store::prelude::*;
use time::Duration;

use super::events::{endpoint, refund};
use super::{Raw, TestDb, new_payment, now, pending_payment, step};

store_suite!(
    endpoints_get_their_types_and_each_objects_events_in_order,
    a_delivery_is_finished_only_by_its_holder,
    fanning_out_skips_an_event_another_instance_holds,
);

async fn endpoints_get_their_types_and_each_objects_events_in_order(db: &TestDb) {
    let store = &db.store;
    let everything = store
        .create_endpoint(endpoint("we_all", EventTypes::All))
        .await
        .unwrap();
    let refunds = store
        .create_endpoint(endpoint(
            "we_refunds",
            EventTypes::Only(vec!["payment.refunded".into()]),
        ))
        .await
        .unwrap();
    let first = pending_payment(db, 1000).await;
    let first = step(db, &first, Captured, Default::default()).await;
    step(db, &first, Refunded, refund(1000)).await;
    let other = pending_payment(db, 500).await;
    step(db, &other, Declined, Default::default()).await;
    let at = now();
    assert_eq!(store.fan_out_events(at, 100).await.unwrap(), 4);
    assert_eq!(
        store.fan_out_events(at, 100).await.unwrap(),
        0,
        "each event once"
    );

    // Each object's first pending delivery only: the first payment's captured event, its
    // session's completion, the other payment's decline, and the refund for `we_refunds`.
    let lease = Duration::seconds(30);
    let claimed = store.claim_deliveries("one", at, lease, 100).await.unwrap();
    let mut got: Vec<(String, String)> = claimed
        .iter()
        .map(|d| (d.endpoint_id.clone(), d.event.kind.clone()))
        .collect();
    got.sort();
    assert_eq!(
        got,
        [
            ("we_all".into(), "payment.captured".into()),
            ("we_all".into(), "payment.declined".into()),
            ("we_all".into(), "session.completed".into()),
            ("we_refunds".into(), "payment.refunded".into()),
        ]
    );
    assert!(
        store
            .claim_deliveries("two", at, lease, 100)
            .await
            .unwrap()
            .is_empty(),
        "leased, and the refund for `we_all` waits behind its capture"
    );
    let captured = claimed
        .iter()
        .find(|d| d.endpoint_id == everything.id && d.event.kind == "payment.captured")
        .unwrap();
    assert_eq!(captured.url, "https://shop.example/hooks");
    let attempt = NewDeliveryAttempt {
        attempted_at: at,
        duration_us: 1200,
        status_code: Some(200),
        error: None,
    };
    assert!(
        store
            .finish_delivery(
                "one",
                &everything.id,
                captured.event.seq,
                attempt,
                DeliveryOutcome::Delivered
            )
            .await
            .unwrap()
    );
    let next = store.claim_deliveries("two", at, lease, 100).await.unwrap();
    assert_eq!(
        next.iter()
            .map(|d| d.event.kind.as_str())
            .collect::<Vec<_>>(),
        ["payment.refunded"],
        "the capture delivered, the refund follows"
    );
    assert_eq!(next[0].endpoint_id, everything.id);
    // A lease that ran out lets another holder take the delivery over.
    let later = at + lease + Duration::seconds(1);
    let taken_over = store
        .claim_deliveries("three", later, lease, 100)
        .await
        .unwrap();
    assert_eq!(
        taken_over.len(),
        4,
        "every unfinished delivery, once its lease ended"
    );
    let attempts = store
        .list_delivery_attempts(&everything.id, 10, None)
        .await
        .unwrap();
    assert_eq!(attempts.len(), 1);
    assert_eq!(attempts[0].event_id, captured.event.id);
    assert_eq!(attempts[0].status_code, Some(200));
    assert_eq!(
        refunds.event_types,
        EventTypes::Only(vec!["payment.refunded".into()])
    );
}

async fn a_delivery_is_finished_only_by_its_holder(db: &TestDb) {
    let store = &db.store;
    let endpoint = store
        .create_endpoint(endpoint("we_hold", EventTypes::All))
        .await
        .unwrap();
    let payment = new_payment(db, 900).await;
    let pending = step(db, &payment, Pending, Default::default()).await;
    step(db, &pending, Declined, Default::default()).await;
    let at = now();
    store.fan_out_events(at, 100).await.unwrap();
    let claimed = store
        .claim_deliveries("holder", at, Duration::seconds(30), 10)
        .await
        .unwrap();
    let seq = claimed[0].event.seq;
    let attempt = NewDeliveryAttempt {
        attempted_at: at,
        duration_us: 900,
        status_code: Some(503),
        error: None,
    };
    let retry = DeliveryOutcome::RetryAt(at + Duration::minutes(5));
    assert!(
        !store
            .finish_delivery("intruder", &endpoint.id, seq, attempt.clone(), retry)
            .await
            .unwrap(),
        "not the holder: nothing written"
    );
    assert!(
        store
            .finish_delivery("holder", &endpoint.id, seq, attempt, retry)
            .await
            .unwrap()
    );
    let failing = store.get_endpoint(&endpoint.id).await.unwrap().unwrap();
    assert_eq!(
        failing.failing_since.map(|t| t.unix_timestamp()),
        Some(at.unix_timestamp())
    );
    let deliveries = store.event_deliveries(&claimed[0].event.id).await.unwrap();
    assert_eq!(deliveries[0].state, DeliveryState::Pending);
    assert_eq!(deliveries[0].attempts, 1);
    assert!(
        store
            .claim_deliveries("holder", at, Duration::seconds(30), 10)
            .await
            .unwrap()
            .is_empty(),
        "not due before its retry time"
    );
    assert_eq!(
        store
            .redeliver(&claimed[0].event.id, None, at)
            .await
            .unwrap(),
        1
    );
    let again = store
        .claim_deliveries("holder", at, Duration::seconds(30), 10)
        .await
        .unwrap();
    assert_eq!(again.len(), 1, "redelivered: due now");
}

/// Two instances fan out at once on PostgreSQL: each locks the events it picks and skips
/// those the other holds. An instance must then mark and deliver exactly what it picked; it
/// marked the range from its first to its last pick, waiting for the other's locks while the
/// other waited for its own (PostgreSQL found the deadlock, with two `serve` processes).
async fn fanning_out_skips_an_event_another_instance_holds(db: &TestDb) {
    let store = &db.store;
    store
        .create_endpoint(endpoint("we_all", EventTypes::All))
        .await
        .unwrap();
    for amount in [100, 200, 300] {
        let payment = pending_payment(db, amount).await;
        step(db, &payment, Declined, Default::default()).await;
    }
    let at = now();
    let Raw::Postgres { pool, .. } = &db.raw else {
        // One writer at a time: no event is ever held while another instance picks.
        assert_eq!(store.fan_out_events(at, 100).await.unwrap(), 3);
        return;
    };
    let seqs: Vec<(i64,)> = sqlx::query_as("SELECT seq FROM events ORDER BY seq")
        .fetch_all(pool)
        .await
        .unwrap();
    assert_eq!(seqs.len(), 3, "one event a decline");
    let mut other = pool.begin().await.unwrap();
    sqlx::query("SELECT seq FROM events WHERE seq = $1 FOR UPDATE")
        .bind(seqs[1].0)
        .execute(&mut *other)
        .await
        .unwrap();
    let first = tokio::time::timeout(
        std::time::Duration::from_secs(10),
        store.fan_out_events(at, 100),
    )
    .await
    .expect("the fan-out does not wait for the event another instance holds")
    .unwrap();
    assert_eq!(first, 2, "the two events nobody else holds");
    other.rollback().await.unwrap();
    assert_eq!(
        store.fan_out_events(at, 100).await.unwrap(),
        1,
        "then the third"
    );
    let (deliveries,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM event_deliveries")
        .fetch_one(pool)
        .await
        .unwrap();
    assert_eq!(deliveries, 3, "each event delivered once");
}
