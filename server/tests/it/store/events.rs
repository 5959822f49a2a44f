//! The events outbox on both databases: every change a shop acts on writes its event in the
//! same statement, exactly once, and a change that fails or is rolled back writes none; the
//! snapshot reads back as the object was; fan-out gives each endpoint the types it takes,
//! and claims keep each object's events in order, one holder at a time.

use checkout::card::Brand;
use checkout::contract::PaymentState::{self, *};
use checkout_server::store::decode_snapshot;
use checkout_server::store::prelude::*;
use secrecy::SecretString;
use time::Duration;

use super::{Raw, TestDb, new_payment, now, pending_payment, step};

store_suite!(
    each_payment_change_writes_its_event_once,
    a_change_that_fails_or_rolls_back_writes_no_event,
    snapshots_read_back_as_the_object_was,
    cards_saved_and_removed_write_their_events,
    endpoints_get_their_types_and_each_objects_events_in_order,
    a_delivery_is_finished_only_by_its_holder,
    fanning_out_skips_an_event_another_instance_holds,
);

fn kinds(events: &[StoredEvent]) -> Vec<&str> {
    events.iter().map(|e| e.kind.as_str()).collect()
}

fn endpoint(id: &str, types: EventTypes) -> NewEndpoint {
    NewEndpoint {
        id: id.to_owned(),
        url: "https://shop.example/hooks".to_owned(),
        description: None,
        event_types: types,
        secret: SecretString::from("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw".to_owned()),
    }
}

fn refund(amount: u64) -> PaymentChanges {
    PaymentChanges {
        refund: Some(amount),
        ..Default::default()
    }
}

async fn each_payment_change_writes_its_event_once(db: &TestDb) {
    let payment = pending_payment(db, 1000).await;
    assert!(
        db.store
            .object_events(&payment.id)
            .await
            .unwrap()
            .is_empty(),
        "pending: none"
    );
    let captured = step(db, &payment, Captured, Default::default()).await;
    // A step that does not happen (already captured) writes nothing.
    let again = db
        .store
        .advance_payment(&payment.id, &[Pending], Captured, Default::default())
        .await
        .unwrap();
    assert!(!again.moved());
    let partly = step(db, &captured, PartiallyRefunded, refund(300)).await;
    let partly_again = step(db, &partly, PartiallyRefunded, refund(200)).await;
    step(db, &partly_again, Refunded, refund(500)).await;
    let events = db.store.object_events(&payment.id).await.unwrap();
    assert_eq!(
        kinds(&events),
        [
            "payment.captured",
            "payment.refunded",
            "payment.refunded",
            "payment.refunded"
        ]
    );
    let session = db.store.object_events(&payment.session_id).await.unwrap();
    assert_eq!(kinds(&session), ["session.completed"]);
    assert!(events.windows(2).all(|pair| pair[0].seq < pair[1].seq));
    for event in events.iter().chain(&session) {
        assert!(
            event.id.starts_with("evt_") && event.id.len() == 36,
            "{}",
            event.id
        );
    }

    let declined = pending_payment(db, 700).await;
    step(db, &declined, Declined, Default::default()).await;
    let review = pending_payment(db, 700).await;
    let review = step(db, &review, NeedsReview, Default::default()).await;
    step(db, &review, Failed, Default::default()).await;
    let authorized = pending_payment(db, 700).await;
    let authorized = step(db, &authorized, Authorized, Default::default()).await;
    step(db, &authorized, Voided, Default::default()).await;
    assert_eq!(
        kinds(&db.store.object_events(&declined.id).await.unwrap()),
        ["payment.declined"]
    );
    assert_eq!(
        kinds(&db.store.object_events(&review.id).await.unwrap()),
        ["payment.needs_review", "payment.failed"]
    );
    assert_eq!(
        kinds(&db.store.object_events(&authorized.id).await.unwrap()),
        ["payment.authorized", "payment.voided"]
    );
    let completed = db
        .store
        .object_events(&authorized.session_id)
        .await
        .unwrap();
    assert_eq!(
        kinds(&completed),
        ["session.completed"],
        "voiding completes nothing"
    );
}

/// Runs `sql` on the raw pool; whether it succeeded.
async fn raw(db: &TestDb, sql: &str) -> bool {
    match &db.raw {
        Raw::Sqlite { pool, .. } => sqlx::query(sql).execute(pool).await.is_ok(),
        Raw::Postgres { pool, .. } => sqlx::query(sql).execute(pool).await.is_ok(),
    }
}

async fn a_change_that_fails_or_rolls_back_writes_no_event(db: &TestDb) {
    let payment = pending_payment(db, 1000).await;
    let captured = step(db, &payment, Captured, Default::default()).await;
    let before = db.store.object_events(&payment.id).await.unwrap().len();
    // The state change and its event are one statement: a refund beyond the captured amount
    // breaks a CHECK, and neither is written.
    let over = format!(
        "UPDATE payments SET state = 'refunded', refunded_amount = 1001 WHERE id = '{}'",
        captured.id
    );
    assert!(!raw(db, &over).await, "the CHECK refuses it");
    assert_eq!(
        db.store.object_events(&payment.id).await.unwrap().len(),
        before
    );
    // A transaction that makes the change and rolls back leaves no event either.
    let change = format!(
        "UPDATE payments SET state = 'partially_refunded', refunded_amount = 10 WHERE id = '{}'",
        captured.id
    );
    match &db.raw {
        Raw::Sqlite { pool, .. } => {
            let mut tx = pool.begin().await.unwrap();
            sqlx::query(&change).execute(&mut *tx).await.unwrap();
            tx.rollback().await.unwrap();
        }
        Raw::Postgres { pool, .. } => {
            let mut tx = pool.begin().await.unwrap();
            sqlx::query(&change).execute(&mut *tx).await.unwrap();
            tx.rollback().await.unwrap();
        }
    }
    assert_eq!(
        db.store.object_events(&payment.id).await.unwrap().len(),
        before
    );
    let read = db.store.get_payment(&payment.id).await.unwrap().unwrap();
    assert_eq!((read.state, read.refunded_amount), (Captured, 0));
}

async fn snapshots_read_back_as_the_object_was(db: &TestDb) {
    let payment = pending_payment(db, 1000).await;
    let captured = step(db, &payment, Captured, Default::default()).await;
    step(db, &captured, PartiallyRefunded, refund(250)).await;
    let events = db.store.object_events(&payment.id).await.unwrap();
    let states: Vec<(PaymentState, u64)> = events
        .iter()
        .map(
            |event| match decode_snapshot(event).expect("snapshot reads back") {
                EventObject::Payment(payment) => (payment.state, payment.refunded_amount),
                other => panic!("a payment event carries a payment: {other:?}"),
            },
        )
        .collect();
    assert_eq!(states, [(Captured, 0), (PartiallyRefunded, 250)]);
    let session_events = db.store.object_events(&payment.session_id).await.unwrap();
    match decode_snapshot(&session_events[0]).expect("reads back") {
        EventObject::Session { session, payment } => {
            assert_eq!(session.id, captured.session_id);
            assert_eq!(payment.state, Captured);
            let card = payment.card.expect("the card as kept");
            assert_eq!(card.last4.as_str(), "3155");
        }
        other => panic!("session.completed carries the session: {other:?}"),
    }
    for event in events.iter().chain(&session_events) {
        assert!(!event.snapshot.contains(super::TEST_CARD), "no card number");
    }
}

async fn cards_saved_and_removed_write_their_events(db: &TestDb) {
    let saved = db
        .store
        .save_card(NewSavedCard {
            customer_id: "cust-events".into(),
            gateway_token: SecretString::from("tok_events_secret".to_owned()),
            brand: Brand::Visa,
            last4: Last4::new("4242").unwrap(),
            expiry_month: 12,
            expiry_year: 2030,
            card_fingerprint: None,
            saved_from: None,
        })
        .await
        .unwrap();
    assert!(
        db.store
            .delete_card("cust-events", &saved.id)
            .await
            .unwrap()
    );
    let events = db.store.object_events("cust-events").await.unwrap();
    assert_eq!(
        kinds(&events),
        ["customer.card_saved", "customer.card_removed"]
    );
    for event in &events {
        assert!(
            !event.snapshot.contains("tok_events"),
            "no token in {}",
            event.snapshot
        );
        match decode_snapshot(event).unwrap() {
            EventObject::Card(card) => assert_eq!(
                (card.id.as_str(), card.last4.as_str()),
                (saved.id.as_str(), "4242")
            ),
            other => panic!("{other:?}"),
        }
    }
}

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
