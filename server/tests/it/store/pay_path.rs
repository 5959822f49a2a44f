//! The pay call's round trips: the session read with its saved card, and the claim taken with
//! the payment recorded; each atomic, each one statement (or SQLite script), and a failed one
//! leaves nothing behind; SQLite checkpoints in the background. The claims for saved cards are
//! in pay_path_saved_cards.rs, the outcome recorded with the call's log in
//! pay_path_logged_steps.rs.

use std::sync::Arc;

use checkout::card::Brand;
use checkout::contract::PaymentState;
use checkout_server::store::prelude::*;
use secrecy::SecretString;
use time::Duration;

use super::{Raw, TestDb, new_session, now, pending_payment, test_card};

store_suite!(
    a_session_is_read_with_its_customers_card_only,
    a_free_claim_records_the_payment_with_it,
    of_concurrent_claims_exactly_one_records_a_payment,
    a_failed_claim_leaves_neither_claim_nor_payment,
    sqlite_checkpoints_in_the_background,
);

pub(super) fn claim(session_id: &str) -> IdempotencyKey {
    IdempotencyKey::new("session-pay", session_id).expect("valid key")
}

/// Takes `session`'s pay claim and records a pending payment with it.
pub(super) async fn claim_for(db: &TestDb, session: &Session) -> StoreResult<Option<Payment>> {
    db.store
        .claim_and_create_pending_payment(
            &claim(&session.id),
            &claim_digest(),
            new_payment_for(session),
        )
        .await
}

/// The payment the pay call records for `session` paid with `card`.
pub(super) fn new_payment_with_card(session: &Session, card: &SavedCardRecord) -> NewPayment {
    NewPayment {
        card: Some(CardSummary::from_saved(card)),
        saved_card_id: Some(card.id.clone()),
        save_card: false,
        save_card_billing: None,
        ..new_payment_for(session)
    }
}

/// Asserts that `session`'s claim is free and it has no payment (then leaves the claim free).
pub(super) async fn assert_nothing_claimed(db: &TestDb, session: &Session) {
    assert_eq!(
        db.store
            .begin_idempotent(&claim(&session.id), &claim_digest(), now())
            .await
            .unwrap(),
        IdempotencyBegin::New,
        "the claim was not taken"
    );
    db.store
        .release_idempotent(&claim(&session.id))
        .await
        .unwrap();
    assert_eq!(payments_of(db, &session.id).await, 0);
}

pub(super) fn claim_digest() -> BodyDigest {
    BodyDigest::of(b"session-pay-claim")
}

pub(super) fn new_payment_for(session: &Session) -> NewPayment {
    NewPayment {
        session_id: session.id.clone(),
        customer_id: session.customer_id.clone(),
        kind: PaymentKind::TokenPayment,
        amount: session.amount,
        currency: session.currency.clone(),
        merchant_txn_ref: session.reference.clone(),
        card: Some(test_card()),
        saved_card_id: None,
        save_card: false,
        save_card_billing: None,
        next_check_at: now() + Duration::minutes(1),
        review_deadline: now() + Duration::minutes(30),
        risk: RiskFacts::default(),
    }
}

pub(super) async fn save_card(db: &TestDb, customer_id: &str, token: &str) -> SavedCardRecord {
    db.store
        .save_card(NewSavedCard {
            customer_id: customer_id.into(),
            gateway_token: SecretString::from(token.to_owned()),
            brand: Brand::Visa,
            last4: Last4::new("4242").unwrap(),
            expiry_month: 12,
            expiry_year: 2039,
            card_fingerprint: None,
            saved_from: None,
        })
        .await
        .unwrap()
}

async fn a_session_is_read_with_its_customers_card_only(db: &TestDb) {
    let session = new_session(db, Some("cust-a")).await;
    let own = save_card(db, "cust-a", "tok-a").await;
    let other = save_card(db, "cust-b", "tok-b").await;
    let (found, card) = db
        .store
        .get_session_with_card(&session.id, &own.id)
        .await
        .unwrap()
        .expect("session found");
    assert_eq!(found.id, session.id);
    let card = card.expect("the customer's own card");
    assert_eq!(card.id, own.id);
    assert_eq!(card.customer_id, "cust-a");
    let (_, card) = db
        .store
        .get_session_with_card(&session.id, &other.id)
        .await
        .unwrap()
        .expect("session found");
    assert!(card.is_none(), "another customer's card is not found");
    let (_, card) = db
        .store
        .get_session_with_card(&session.id, "no-such-card")
        .await
        .unwrap()
        .expect("session found");
    assert!(card.is_none());
    let anonymous = new_session(db, None).await;
    let (_, card) = db
        .store
        .get_session_with_card(&anonymous.id, &own.id)
        .await
        .unwrap()
        .expect("session found");
    assert!(card.is_none(), "a session without customer has no cards");
    assert!(
        db.store
            .get_session_with_card("no-such-session", &own.id)
            .await
            .unwrap()
            .is_none()
    );
}

async fn a_free_claim_records_the_payment_with_it(db: &TestDb) {
    let session = new_session(db, Some("cust-1")).await;
    let payment = claim_for(db, &session)
        .await
        .unwrap()
        .expect("the claim was free");
    assert_eq!(payment.state, PaymentState::Pending);
    assert_eq!(payment.session_id, session.id);
    assert_eq!(payment.kind, PaymentKind::TokenPayment);
    assert!(payment.pending_since.is_some());
    let stored = db.store.get_payment(&payment.id).await.unwrap().unwrap();
    assert_eq!(stored.id, payment.id);
    // The claim is held, as `begin_idempotent` shows it.
    assert!(matches!(
        db.store
            .begin_idempotent(&claim(&session.id), &claim_digest(), now())
            .await
            .unwrap(),
        IdempotencyBegin::InProgress { .. }
    ));
    // A second claim of the same session writes nothing.
    let again = claim_for(db, &session).await.unwrap();
    assert!(again.is_none());
    assert_eq!(payments_of(db, &session.id).await, 1);
}

async fn of_concurrent_claims_exactly_one_records_a_payment(db: &TestDb) {
    let session = new_session(db, Some("cust-1")).await;
    let other_instance = db.second_instance().await;
    let mut tasks = Vec::new();
    for i in 0..12 {
        let store: Arc<dyn Store> = if i % 2 == 0 {
            db.store.clone()
        } else {
            other_instance.clone()
        };
        let new = new_payment_for(&session);
        let key = claim(&session.id);
        tasks.push(tokio::spawn(async move {
            store
                .claim_and_create_pending_payment(&key, &claim_digest(), new)
                .await
                .expect("claim runs")
        }));
    }
    let mut recorded = 0;
    for task in tasks {
        if task.await.expect("task finished").is_some() {
            recorded += 1;
        }
    }
    assert_eq!(recorded, 1);
    assert_eq!(payments_of(db, &session.id).await, 1);
    other_instance.close().await;
}

async fn a_failed_claim_leaves_neither_claim_nor_payment(db: &TestDb) {
    let session = new_session(db, Some("cust-1")).await;
    let mut broken = new_payment_for(&session);
    // The schema refuses it (a currency code of four letters) after the claim was inserted.
    broken.currency = "EURO".into();
    let failed = db
        .store
        .claim_and_create_pending_payment(&claim(&session.id), &claim_digest(), broken)
        .await;
    assert!(failed.is_err(), "{failed:?}");
    // The claim was rolled back with the payment.
    assert_nothing_claimed(db, &session).await;
    // The connection the failure happened on is usable again (or was replaced).
    for _ in 0..3 {
        let payment = claim_for(db, &session).await.unwrap().expect("free again");
        db.store
            .advance_payment(
                &payment.id,
                &[PaymentState::Pending],
                PaymentState::Failed,
                PaymentChanges::default(),
            )
            .await
            .unwrap();
        db.store
            .release_idempotent(&claim(&session.id))
            .await
            .unwrap();
    }
    assert_eq!(payments_of(db, &session.id).await, 3);
}

/// Commits do not checkpoint the WAL themselves (until it is large); a background task does,
/// after which writers start the WAL over instead of growing it.
async fn sqlite_checkpoints_in_the_background(db: &TestDb) {
    let Raw::Sqlite { pool, path } = &db.raw else {
        return;
    };
    let pages: i64 = sqlx::query_scalar("PRAGMA wal_autocheckpoint")
        .fetch_one(pool)
        .await
        .unwrap();
    assert!(pages >= 4096, "commits checkpoint at {pages} pages");
    let wal = path.with_extension("db-wal");
    let wal_size = || std::fs::metadata(&wal).map(|m| m.len()).unwrap_or(0);
    for _ in 0..30 {
        pending_payment(db, 1000).await;
    }
    let first = wal_size();
    assert!(first > 0, "the WAL holds the writes");
    tokio::time::sleep(std::time::Duration::from_millis(800)).await;
    for _ in 0..30 {
        pending_payment(db, 1000).await;
    }
    let second = wal_size();
    assert!(
        second < first + first / 2,
        "the WAL grew from {first} to {second} bytes: no checkpoint in between"
    );
}

pub(super) async fn payments_of(db: &TestDb, session_id: &str) -> usize {
    db.store
        .list_payments(PaymentQuery {
            session_id: Some(session_id.to_owned()),
            limit: 50,
            ..PaymentQuery::default()
        })
        .await
        .unwrap()
        .items
        .len()
}
