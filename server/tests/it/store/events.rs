//! The events outbox on both databases: every change a shop acts on writes its event in the
//! same statement, exactly once, and a change that fails or is rolled back writes none; the
//! snapshot reads back as the object was. Fan-out and claims are in event_fan_out.rs, which
//! shares the helpers here.

use checkout::card::Brand;
use checkout::contract::PaymentState::{self, *};
use checkout_server::store::decode_snapshot;
use checkout_server::store::prelude::*;
use secrecy::SecretString;

use super::{Raw, TestDb, pending_payment, step};

store_suite!(
    each_payment_change_writes_its_event_once,
    a_change_that_fails_or_rolls_back_writes_no_event,
    snapshots_read_back_as_the_object_was,
    cards_saved_and_removed_write_their_events,
);

fn kinds(events: &[StoredEvent]) -> Vec<&str> {
    events.iter().map(|e| e.kind.as_str()).collect()
}

pub(super) fn endpoint(id: &str, types: EventTypes) -> NewEndpoint {
    NewEndpoint {
        id: id.to_owned(),
        url: "https://shop.example/hooks".to_owned(),
        description: None,
        event_types: types,
        secret: SecretString::from("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw".to_owned()),
    }
}

pub(super) fn refund(amount: u64) -> PaymentChanges {
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
