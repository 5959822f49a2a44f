//! Sessions, saved cards, customer tokens, the gateway call log, webhook deliveries and
//! listing with cursors.

use checkout::card::Brand;
use checkout::contract::{PaymentState, SavedCard};
use checkout_server::store::prelude::*;
use secrecy::{ExposeSecret as _, SecretString};
use time::Duration;

use super::{TestDb, new_payment, new_session, now, pending_payment};

store_suite!(
    sessions_keep_only_the_secret_hash,
    saved_cards_list_and_delete_per_customer,
    customer_tokens_resolve_until_expiry_or_revocation,
    gateway_calls_are_logged_and_counted,
    repeated_webhooks_are_duplicates_even_when_simultaneous,
    payments_list_newest_first_with_cursors,
);

async fn sessions_keep_only_the_secret_hash(db: &TestDb) {
    let secret = generate_token("cs_");
    let session = db
        .store
        .create_session(NewSession {
            id: new_session_id(),
            client_secret_hash: SecretHash::of(secret.expose_secret()),
            amount: 1999,
            currency: "USD".into(),
            reference: "r".repeat(45),
            capture_mode: CaptureMode::Authorize,
            customer_id: Some("cust-9".into()),
            email: Some("nine@example.test".into()),
            plan_id: Some("monthly".into()),
            description: None,
            expires_at: now() + Duration::minutes(30),
            link: None,
        })
        .await
        .unwrap();
    let stored = db.store.get_session(&session.id).await.unwrap().unwrap();
    assert!(stored.verify_client_secret(secret.expose_secret()));
    assert!(!stored.verify_client_secret("cs_guess"));
    assert_eq!(
        (stored.amount, stored.capture_mode),
        (1999, CaptureMode::Authorize)
    );
    assert_eq!(stored.reference.len(), 45);
    assert!(!stored.is_expired_at(now()));
    assert!(stored.is_expired_at(now() + Duration::hours(1)));
    let customer = db.store.upsert_customer("cust-9", None).await.unwrap();
    assert_eq!(
        customer.email.as_deref(),
        Some("nine@example.test"),
        "session made the customer"
    );
    assert!(db.store.get_session("missing").await.unwrap().is_none());
    // The instance that wrote it answers from memory; another reads the database.
    let other = db.second_instance().await;
    let from_db = other
        .get_session(&session.id)
        .await
        .unwrap()
        .expect("in the database");
    assert!(from_db.verify_client_secret(secret.expose_secret()));
    assert_eq!(
        (
            &from_db.reference,
            &from_db.customer_id,
            &from_db.email,
            &from_db.plan_id
        ),
        (
            &stored.reference,
            &stored.customer_id,
            &stored.email,
            &stored.plan_id
        )
    );
    assert_eq!(from_db.expires_at, stored.expires_at);
    other.close().await;

    let mut too_long = NewSession {
        reference: "r".repeat(46),
        ..plain_session()
    };
    let refused = db.store.create_session(too_long.clone()).await;
    assert!(matches!(
        refused,
        Err(StoreError::Invalid {
            field: "reference",
            ..
        })
    ));
    too_long.reference = "ok".into();
    too_long.currency = "euro".into();
    let refused = db.store.create_session(too_long).await;
    assert!(matches!(
        refused,
        Err(StoreError::Invalid {
            field: "currency",
            ..
        })
    ));
}

fn plain_session() -> NewSession {
    NewSession {
        id: new_session_id(),
        client_secret_hash: SecretHash::of("x"),
        amount: 1,
        currency: "EUR".into(),
        reference: "r".into(),
        capture_mode: CaptureMode::Capture,
        customer_id: None,
        email: None,
        plan_id: None,
        description: None,
        expires_at: now(),
        link: None,
    }
}

fn card(customer: &str, token: &str, last4: &str) -> NewSavedCard {
    NewSavedCard {
        customer_id: customer.into(),
        gateway_token: SecretString::from(token.to_owned()),
        brand: Brand::Visa,
        last4: Last4::new(last4).unwrap(),
        expiry_month: 12,
        expiry_year: 2030,
        card_fingerprint: None,
        saved_from: None,
    }
}

async fn saved_cards_list_and_delete_per_customer(db: &TestDb) {
    let first = db
        .store
        .save_card(card("alice", "tok-1", "3155"))
        .await
        .unwrap();
    // Times are kept to the millisecond: make "oldest first" decidable.
    tokio::time::sleep(std::time::Duration::from_millis(2)).await;
    let second = db
        .store
        .save_card(card("alice", "tok-2", "1005"))
        .await
        .unwrap();
    let bobs = db
        .store
        .save_card(card("bob", "tok-3", "4242"))
        .await
        .unwrap();
    let again = db
        .store
        .save_card(card("alice", "tok-1", "3155"))
        .await
        .unwrap();
    assert_eq!(
        again.id, first.id,
        "saving the same token twice keeps one card"
    );

    let alice: Vec<String> = db
        .store
        .list_cards("alice")
        .await
        .unwrap()
        .into_iter()
        .map(|c| c.id)
        .collect();
    assert_eq!(alice, vec![first.id.clone(), second.id.clone()]);
    let shown = SavedCard::from(&first);
    assert_eq!(
        (shown.last4.as_str(), shown.expiry_month, shown.expiry_year),
        ("3155", 12, 2030)
    );
    let fetched = db
        .store
        .get_card("alice", &first.id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(fetched.gateway_token.expose_secret(), "tok-1");
    assert!(
        !format!("{fetched:?}").contains("tok-1"),
        "token leaks through Debug"
    );
    assert!(
        db.store.get_card("bob", &first.id).await.unwrap().is_none(),
        "card of another customer"
    );

    assert!(!db.store.delete_card("alice", &bobs.id).await.unwrap());
    assert!(db.store.delete_card("alice", &first.id).await.unwrap());
    assert!(!db.store.delete_card("alice", &first.id).await.unwrap());
    let left: Vec<String> = db
        .store
        .list_cards("alice")
        .await
        .unwrap()
        .into_iter()
        .map(|c| c.id)
        .collect();
    assert_eq!(left, vec![second.id]);
    assert_eq!(db.store.list_cards("bob").await.unwrap().len(), 1);
    assert!(db.store.list_cards("nobody").await.unwrap().is_empty());
}

async fn customer_tokens_resolve_until_expiry_or_revocation(db: &TestDb) {
    let token = generate_token("ct_");
    db.store
        .create_customer_token(NewCustomerToken {
            customer_id: "carol".into(),
            token_hash: SecretHash::of(token.expose_secret()),
            expires_at: now() + Duration::minutes(15),
        })
        .await
        .unwrap();
    let presented = token.expose_secret();
    let who = db.store.customer_for_token(presented, now()).await.unwrap();
    assert_eq!(who.as_deref(), Some("carol"));
    assert!(
        db.store
            .customer_for_token("ct_guess", now())
            .await
            .unwrap()
            .is_none()
    );
    let later = now() + Duration::minutes(16);
    assert!(
        db.store
            .customer_for_token(presented, later)
            .await
            .unwrap()
            .is_none()
    );
    assert!(db.store.revoke_customer_token(presented).await.unwrap());
    assert!(
        db.store
            .customer_for_token(presented, now())
            .await
            .unwrap()
            .is_none()
    );
    assert!(!db.store.revoke_customer_token(presented).await.unwrap());
}

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
