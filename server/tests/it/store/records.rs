//! Sessions, saved cards and customer tokens on both databases: a session keeps only its
//! secret's hash, saved cards list and delete per customer, customer tokens resolve until
//! expiry or revocation.

use checkout::card::Brand;
use checkout::contract::SavedCard;
use checkout_server::store::prelude::*;
use secrecy::{ExposeSecret as _, SecretString};
use time::Duration;

use super::{TestDb, now};

store_suite!(
    sessions_keep_only_the_secret_hash,
    saved_cards_list_and_delete_per_customer,
    customer_tokens_resolve_until_expiry_or_revocation,
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
