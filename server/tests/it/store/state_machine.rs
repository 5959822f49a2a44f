//! Payments only move forward: every (from, to) pair against the graph, stale and duplicate
//! steps, guards on amounts and gateway ids, and concurrent compare-and-set.

use checkout::contract::DeclineCode;
use checkout::contract::PaymentState::{self, *};
use checkout_server::store::prelude::*;
use checkout_server::store::transitions::{ALL_STATES, can_advance};

use super::{TestDb, new_payment, pending_payment, step};

store_suite!(
    every_pair_follows_the_graph,
    stale_and_repeated_steps_change_nothing,
    amounts_are_guarded,
    a_known_gateway_id_is_never_replaced,
    concurrent_steps_have_exactly_one_winner,
    concurrent_refunds_never_exceed_the_capture,
    unsettled_bookkeeping_follows_the_state,
);

/// What a step to `to` carries: refunds need an amount that fits the target state.
fn changes_for(payment: &Payment, to: PaymentState) -> PaymentChanges {
    let refund = match to {
        PartiallyRefunded => Some(100),
        Refunded => Some(payment.refundable()),
        _ => None,
    };
    PaymentChanges {
        refund,
        ..Default::default()
    }
}

/// A 1000-unit payment brought to `state` by legal steps.
async fn payment_in(db: &TestDb, state: PaymentState) -> Payment {
    let path: &[PaymentState] = match state {
        Created => &[],
        Pending => &[Pending],
        Authorized => &[Pending, Authorized],
        Captured => &[Pending, Captured],
        Declined => &[Pending, Declined],
        Failed => &[Failed],
        PartiallyRefunded => &[Pending, Captured, PartiallyRefunded],
        Refunded => &[Pending, Captured, Refunded],
        Voided => &[Pending, Authorized, Voided],
        NeedsReview => &[Pending, NeedsReview],
        Blocked => &[Pending, Blocked],
    };
    let mut payment = new_payment(db, 1000).await;
    for to in path {
        let changes = changes_for(&payment, *to);
        payment = step(db, &payment, *to, changes).await;
    }
    assert_eq!(payment.state, state);
    payment
}

async fn every_pair_follows_the_graph(db: &TestDb) {
    for from in ALL_STATES {
        for to in ALL_STATES {
            let payment = payment_in(db, from).await;
            let result = db
                .store
                .advance_payment(&payment.id, &[from], to, changes_for(&payment, to))
                .await;
            if can_advance(from, to) {
                let advance = result.expect("allowed step succeeds");
                assert!(advance.moved(), "{from:?} -> {to:?} should move");
                assert_eq!(advance.payment().state, to);
            } else {
                assert!(
                    matches!(result, Err(StoreError::IllegalTransition { .. })),
                    "{from:?} -> {to:?} must be refused, got {result:?}"
                );
                let now = db.store.get_payment(&payment.id).await.unwrap().unwrap();
                assert_eq!(now.state, from, "a refused step changed {from:?}");
            }
        }
    }
}

async fn stale_and_repeated_steps_change_nothing(db: &TestDb) {
    let captured = payment_in(db, Captured).await;
    // A late or repeated "captured" / "declined" written against the pending state.
    for to in [Captured, Declined, Failed, NeedsReview] {
        let advance = db
            .store
            .advance_payment(&captured.id, &[Pending], to, PaymentChanges::default())
            .await
            .unwrap();
        assert!(
            !advance.moved(),
            "pending -> {to:?} moved a captured payment"
        );
        assert_eq!(advance.payment().state, Captured);
    }
    let declined = payment_in(db, Declined).await;
    let late = db
        .store
        .advance_payment(
            &declined.id,
            &[Pending, NeedsReview],
            Captured,
            Default::default(),
        )
        .await
        .unwrap();
    assert!(!late.moved());
    assert_eq!(late.payment().state, Declined);
    // needs_review still settles when the outcome is learned later.
    let review = payment_in(db, NeedsReview).await;
    let settled = step(db, &review, Captured, Default::default()).await;
    assert_eq!(settled.captured_amount, 1000);
    let missing = db
        .store
        .advance_payment("no-such-payment", &[Pending], Captured, Default::default())
        .await;
    assert!(matches!(missing, Err(StoreError::NotFound("payment"))));
}

async fn amounts_are_guarded(db: &TestDb) {
    let authorized = payment_in(db, Authorized).await;
    let too_much = PaymentChanges {
        captured_amount: Some(1001),
        ..Default::default()
    };
    let advance = db
        .store
        .advance_payment(&authorized.id, &[Authorized], Captured, too_much)
        .await
        .unwrap();
    assert!(!advance.moved(), "captured more than authorized");
    let partial = PaymentChanges {
        captured_amount: Some(600),
        ..Default::default()
    };
    let captured = step(db, &authorized, Captured, partial).await;
    assert_eq!(captured.captured_amount, 600);
    assert_eq!(captured.state_after_refund(601), None);
    let over = PaymentChanges {
        refund: Some(601),
        ..Default::default()
    };
    let advance = db
        .store
        .advance_payment(&captured.id, &[Captured], PartiallyRefunded, over)
        .await
        .unwrap();
    assert!(!advance.moved(), "refunded more than captured");
    // A refund of everything must be a step to `refunded`, not `partially_refunded`.
    let all = PaymentChanges {
        refund: Some(600),
        ..Default::default()
    };
    let wrong_state = db
        .store
        .advance_payment(&captured.id, &[Captured], PartiallyRefunded, all.clone())
        .await
        .unwrap();
    assert!(!wrong_state.moved());
    let part = PaymentChanges {
        refund: Some(200),
        ..Default::default()
    };
    let partly = step(db, &captured, PartiallyRefunded, part).await;
    assert_eq!((partly.refunded_amount, partly.refundable()), (200, 400));
    assert_eq!(partly.state_after_refund(400), Some(Refunded));
    let rest = PaymentChanges {
        refund: Some(400),
        ..Default::default()
    };
    let refunded = step(db, &partly, Refunded, rest).await;
    assert_eq!(refunded.refunded_amount, 600);
}

async fn a_known_gateway_id_is_never_replaced(db: &TestDb) {
    let payment = pending_payment(db, 1000).await;
    assert!(
        db.store
            .note_gateway_transaction(&payment.id, "txn-a")
            .await
            .unwrap()
    );
    assert!(
        !db.store
            .note_gateway_transaction(&payment.id, "txn-b")
            .await
            .unwrap()
    );
    let found = db.store.find_payment_by_gateway_id("txn-a").await.unwrap();
    assert_eq!(found.map(|p| p.id), Some(payment.id.clone()));

    let other = pending_payment(db, 1000).await;
    let taken = db.store.note_gateway_transaction(&other.id, "txn-a").await;
    assert!(matches!(taken, Err(StoreError::Conflict(_))), "{taken:?}");

    let wrong = PaymentChanges {
        gateway_transaction_id: Some("txn-b".into()),
        ..Default::default()
    };
    let advance = db
        .store
        .advance_payment(&payment.id, &[Pending], Captured, wrong)
        .await
        .unwrap();
    assert!(
        !advance.moved(),
        "a hint naming another transaction re-pointed the payment"
    );
    let right = PaymentChanges {
        gateway_transaction_id: Some("txn-a".into()),
        gateway_ref: Some(77),
        response_code: Some(0),
        ..Default::default()
    };
    let captured = step(db, &payment, Captured, right).await;
    assert_eq!(captured.gateway_transaction_id.as_deref(), Some("txn-a"));
    assert_eq!(
        (captured.gateway_ref, captured.response_code),
        (Some(77), Some(0))
    );
}

async fn concurrent_steps_have_exactly_one_winner(db: &TestDb) {
    let other_instance = db.second_instance().await;
    for round in 0..3 {
        let payment = pending_payment(db, 1000).await;
        let mut tasks = Vec::new();
        for i in 0..16 {
            let store = if i % 2 == 0 {
                db.store.clone()
            } else {
                other_instance.clone()
            };
            let id = payment.id.clone();
            let to = if i % 3 == 0 { Declined } else { Captured };
            tasks.push(tokio::spawn(async move {
                let decline = (to == Declined).then_some(DeclineCode::InsufficientFunds);
                let changes = PaymentChanges {
                    decline_code: decline,
                    ..Default::default()
                };
                let advance = store
                    .advance_payment(&id, &[Pending], to, changes)
                    .await
                    .expect("step runs");
                (to, advance.moved())
            }));
        }
        let mut winners = Vec::new();
        for task in tasks {
            let (to, moved) = task.await.expect("task finished");
            if moved {
                winners.push(to);
            }
        }
        assert_eq!(winners.len(), 1, "round {round}: winners {winners:?}");
        let stored = db.store.get_payment(&payment.id).await.unwrap().unwrap();
        assert_eq!(stored.state, winners[0]);
        assert_eq!(stored.decline_code.is_some(), winners[0] == Declined);
    }
    other_instance.close().await;
}

async fn concurrent_refunds_never_exceed_the_capture(db: &TestDb) {
    let pending = pending_payment(db, 100).await;
    let captured = step(db, &pending, Captured, Default::default()).await;
    let mut tasks = Vec::new();
    for _ in 0..10 {
        let store = db.store.clone();
        let id = captured.id.clone();
        tasks.push(tokio::spawn(async move {
            let changes = PaymentChanges {
                refund: Some(30),
                ..Default::default()
            };
            store
                .advance_payment(
                    &id,
                    &[Captured, PartiallyRefunded],
                    PartiallyRefunded,
                    changes,
                )
                .await
                .expect("step runs")
                .moved()
        }));
    }
    let mut moved = 0;
    for task in tasks {
        moved += usize::from(task.await.expect("task finished"));
    }
    assert_eq!(moved, 3, "30 + 30 + 30 fits in 100, a fourth does not");
    let stored = db.store.get_payment(&captured.id).await.unwrap().unwrap();
    assert_eq!(
        (stored.state, stored.refunded_amount),
        (PartiallyRefunded, 90)
    );
}

async fn unsettled_bookkeeping_follows_the_state(db: &TestDb) {
    let created = new_payment(db, 1000).await;
    assert_eq!(created.state, Created);
    assert!(created.pending_since.is_none());
    assert!(created.next_check_at.is_some());
    assert_eq!(created.attempts, 0);
    let pending = step(db, &created, Pending, Default::default()).await;
    let since = pending.pending_since.expect("pending_since set");
    assert!(
        pending.next_check_at.is_some(),
        "pending keeps its check time"
    );
    let review = step(db, &pending, NeedsReview, Default::default()).await;
    assert_eq!(review.pending_since, Some(since));
    assert_eq!(review.next_check_at, None, "settled: nothing left to check");
    let token = created
        .webhook_token
        .as_ref()
        .map(secrecy::ExposeSecret::expose_secret)
        .expect("a payment just recorded carries its webhook path secret");
    assert!(review.webhook_token.is_none(), "read back: only the hash");
    assert!(review.verify_webhook_token(token));
    assert!(!review.verify_webhook_token("guess"));
}
