//! The pay call's outcome recorded with its log in one round trip: a logged step moves the
//! payment, counts the attempt and logs it together; one that does not move still counts and
//! logs; one of an unknown payment logs nothing.

use checkout::contract::PaymentState;
use checkout_server::store::prelude::*;
use time::Duration;

use super::{TestDb, now, pending_payment};

store_suite!(
    a_logged_step_moves_counts_and_logs_together,
    a_logged_step_that_does_not_move_still_counts_and_logs,
    a_logged_step_of_an_unknown_payment_logs_nothing,
);

fn attempt(payment_id: &str) -> NewAttempt {
    let started = now();
    NewAttempt {
        payment_id: Some(payment_id.to_owned()),
        subscription_id: None,
        endpoint: "payment".into(),
        started_at: started,
        finished_at: started + Duration::milliseconds(3),
        outcome: AttemptOutcome::Succeeded,
        http_status: None,
    }
}

/// Steps `id` from pending to captured with an approval, logging an attempt of `attempt_of`.
async fn capture_logged(db: &TestDb, id: &str, attempt_of: &str) -> StoreResult<Advance> {
    db.store
        .advance_payment_logged(
            id,
            &[PaymentState::Pending],
            PaymentState::Captured,
            approval(),
            attempt(attempt_of),
        )
        .await
}

fn approval() -> PaymentChanges {
    PaymentChanges {
        gateway_transaction_id: Some("gw-1".into()),
        ..PaymentChanges::default()
    }
}

async fn a_logged_step_moves_counts_and_logs_together(db: &TestDb) {
    let payment = pending_payment(db, 1000).await;
    let advance = capture_logged(db, &payment.id, &payment.id).await.unwrap();
    assert!(advance.moved());
    let moved = advance.into_payment();
    assert_eq!(moved.state, PaymentState::Captured);
    assert_eq!(moved.gateway_transaction_id.as_deref(), Some("gw-1"));
    assert_eq!(moved.captured_amount, 1000);
    assert_eq!(moved.attempts, 1);
    let log = db.store.list_attempts(&payment.id).await.unwrap();
    assert_eq!(log.len(), 1);
    assert_eq!(log[0].endpoint, "payment");
    assert_eq!(log[0].latency_us, 3_000);
}

async fn a_logged_step_that_does_not_move_still_counts_and_logs(db: &TestDb) {
    let payment = pending_payment(db, 1000).await;
    db.store
        .advance_payment(
            &payment.id,
            &[PaymentState::Pending],
            PaymentState::Declined,
            PaymentChanges::default(),
        )
        .await
        .unwrap();
    let advance = capture_logged(db, &payment.id, &payment.id).await.unwrap();
    assert!(!advance.moved());
    let unchanged = advance.into_payment();
    assert_eq!(unchanged.state, PaymentState::Declined);
    assert_eq!(unchanged.gateway_transaction_id, None);
    assert_eq!(unchanged.attempts, 1);
    assert_eq!(db.store.list_attempts(&payment.id).await.unwrap().len(), 1);
}

async fn a_logged_step_of_an_unknown_payment_logs_nothing(db: &TestDb) {
    let missing = capture_logged(db, "no-such-payment", "no-such-payment").await;
    assert!(
        matches!(missing, Err(StoreError::NotFound("payment"))),
        "{missing:?}"
    );
    assert!(
        db.store
            .list_attempts("no-such-payment")
            .await
            .unwrap()
            .is_empty()
    );
    // The attempt must be the stepped payment's own.
    let payment = pending_payment(db, 1000).await;
    let mismatched = capture_logged(db, &payment.id, "another-payment").await;
    assert!(matches!(mismatched, Err(StoreError::Invalid { .. })));
}
