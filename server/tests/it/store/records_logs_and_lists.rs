//! The gateway call log, webhook deliveries and listing on both databases: gateway calls are
//! logged and counted, repeated webhooks are duplicates even when simultaneous, and payments
//! list newest first with cursors.

use checkout::contract::PaymentState;
use checkout_server::store::prelude::*;
use time::Duration;

use super::{TestDb, new_payment, new_session, now, pending_payment};

store_suite!(
    gateway_calls_are_logged_and_counted,
    repeated_webhooks_are_duplicates_even_when_simultaneous,
    payments_list_newest_first_with_cursors,
);

async fn gateway_calls_are_logged_and_counted(db: &TestDb) {
    let payment = pending_payment(db, 1000).await;
    let started = now();
    for (endpoint, outcome, status) in [
        ("paymentv2", AttemptOutcome::OutcomeUnknown, Some(504)),
        ("transaction/status", AttemptOutcome::Succeeded, Some(200)),
    ] {
        db.store
            .record_attempt(NewAttempt {
                payment_id: Some(payment.id.clone()),
                subscription_id: None,
                endpoint: endpoint.into(),
                started_at: started,
                finished_at: started + Duration::milliseconds(42),
                outcome,
                http_status: status,
            })
            .await
            .unwrap();
    }
    let attempts = db.store.list_attempts(&payment.id).await.unwrap();
    assert_eq!(attempts.len(), 2);
    assert_eq!(attempts[0].endpoint, "paymentv2");
    assert_eq!(attempts[0].latency_us, 42_000);
    assert_eq!(attempts[0].outcome, AttemptOutcome::OutcomeUnknown);
    assert_eq!(attempts[1].http_status, Some(200));
    let stored = db.store.get_payment(&payment.id).await.unwrap().unwrap();
    assert_eq!(stored.attempts, 2);
    let backwards = db
        .store
        .record_attempt(NewAttempt {
            payment_id: None,
            subscription_id: Some("sub".into()),
            endpoint: "subscription".into(),
            started_at: started,
            finished_at: started - Duration::seconds(1),
            outcome: AttemptOutcome::Transport,
            http_status: None,
        })
        .await;
    assert!(matches!(
        backwards,
        Err(StoreError::Invalid {
            field: "finished_at",
            ..
        })
    ));
}

async fn repeated_webhooks_are_duplicates_even_when_simultaneous(db: &TestDb) {
    let payment = pending_payment(db, 1000).await;
    let event = |body: &[u8]| NewWebhookEvent {
        payment_id: payment.id.clone(),
        received_at: now(),
        body_digest: BodyDigest::of(body),
        gateway_transaction_id: Some("txn-w".into()),
        claimed_state: Some(PaymentState::Captured),
        claimed_amount: Some(1000),
        claimed_currency: Some("EUR".into()),
    };
    let mut tasks = Vec::new();
    for _ in 0..8 {
        let store = db.store.clone();
        let delivery = event(b"{\"success\":true}");
        tasks.push(tokio::spawn(async move {
            store.record_webhook(delivery).await.expect("recorded")
        }));
    }
    let mut first = None;
    let mut duplicates = 0;
    for task in tasks {
        match task.await.expect("task finished") {
            WebhookReceipt::First(e) => {
                assert!(first.replace(e.id).is_none(), "two first deliveries");
            }
            WebhookReceipt::Duplicate { event, original } => {
                assert_eq!(event.verdict, WebhookVerdict::Duplicate);
                assert_eq!(event.duplicate_of, Some(original.id));
                duplicates += 1;
            }
        }
    }
    let first = first.expect("one first delivery");
    assert_eq!(duplicates, 7);
    db.store
        .set_webhook_verdict(first, WebhookVerdict::Confirmed)
        .await
        .unwrap();
    let other = db
        .store
        .record_webhook(event(b"{\"success\":false}"))
        .await
        .unwrap();
    let WebhookReceipt::First(other) = other else {
        panic!("a new body is a first delivery")
    };
    db.store
        .set_webhook_verdict(other.id, WebhookVerdict::Forged)
        .await
        .unwrap();
    let events = db.store.list_webhooks(&payment.id).await.unwrap();
    assert_eq!(events.len(), 9);
    let verdicts: Vec<WebhookVerdict> = events.iter().map(|e| e.verdict).collect();
    assert_eq!(
        verdicts
            .iter()
            .filter(|v| **v == WebhookVerdict::Duplicate)
            .count(),
        7
    );
    assert!(
        verdicts.contains(&WebhookVerdict::Confirmed) && verdicts.contains(&WebhookVerdict::Forged)
    );
    assert_eq!(events[0].claimed_amount, Some(1000));
    let missing = db
        .store
        .set_webhook_verdict(i64::MAX, WebhookVerdict::Confirmed)
        .await;
    assert!(matches!(missing, Err(StoreError::NotFound(_))));
}

async fn payments_list_newest_first_with_cursors(db: &TestDb) {
    let mut made = Vec::new();
    for _ in 0..7 {
        made.push(new_payment(db, 100).await.id);
        tokio::time::sleep(std::time::Duration::from_millis(2)).await;
    }
    let elsewhere = new_session(db, Some("someone-else")).await;
    made.reverse();
    let mut seen = Vec::new();
    let mut after = None;
    loop {
        let page = db
            .store
            .list_payments(PaymentQuery {
                customer_id: Some("cust-1".into()),
                limit: 3,
                after: after.take(),
                ..Default::default()
            })
            .await
            .unwrap();
        assert!(page.items.len() <= 3);
        seen.extend(page.items.into_iter().map(|p| p.id));
        match page.next {
            Some(cursor) => {
                let reparsed: PageCursor = cursor.to_string().parse().unwrap();
                after = Some(reparsed);
            }
            None => break,
        }
    }
    assert_eq!(seen, made, "every payment once, newest first");
    let none = PaymentQuery {
        customer_id: Some(elsewhere.customer_id.unwrap()),
        ..Default::default()
    };
    assert!(db.store.list_payments(none).await.unwrap().items.is_empty());
    let created = PaymentQuery {
        state: Some(PaymentState::Created),
        ..Default::default()
    };
    assert_eq!(
        db.store.list_payments(created).await.unwrap().items.len(),
        7
    );
    let counts = db.store.count_payments_by_state().await.unwrap();
    assert_eq!(counts, vec![(PaymentState::Created, 7)]);
}
