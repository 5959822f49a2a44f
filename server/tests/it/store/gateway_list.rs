//! The whole-list check's bookkeeping (issue 46, migration 0033): one instance at a time holds
//! the check, until it finishes or its lease ends; what a run saw is kept; the store says which
//! gateway ids it holds, in batches; a found subscription leaves the review queue once
//! acknowledged.

use checkout::contract::SubscriptionStatus;
use checkout_server::store::prelude::*;
use time::Duration;

use super::subscriptions::{event_kinds, subscription};
use super::{TestDb, now};

store_suite!(
    one_instance_holds_the_check_at_a_time,
    known_ids_and_the_review_queue,
);

async fn one_instance_holds_the_check_at_a_time(db: &TestDb) {
    let other = db.second_instance().await;
    let lease = Duration::minutes(5);
    let at = now();
    assert!(
        db.store.claim_list_check(at, "a", lease).await.unwrap(),
        "due from the start"
    );
    assert!(
        !other.claim_list_check(at, "b", lease).await.unwrap(),
        "held by a"
    );
    let run = ListCheckRun {
        ran_at: Some(at),
        listed: 12,
        found: 1,
        error: None,
    };
    let next = at + Duration::hours(1);
    assert!(
        !other.finish_list_check("b", &run, next).await.unwrap(),
        "not b's"
    );
    assert!(db.store.finish_list_check("a", &run, next).await.unwrap());
    let (last, due) = other.list_check_status().await.unwrap();
    assert_eq!((last, due), (run, next));
    assert!(
        !other
            .claim_list_check(at + Duration::minutes(59), "b", lease)
            .await
            .unwrap(),
        "not due"
    );
    assert!(other.claim_list_check(next, "b", lease).await.unwrap());
    // b dies holding it: a takes it over once the lease has ended.
    assert!(
        !db.store
            .claim_list_check(next + Duration::minutes(4), "a", lease)
            .await
            .unwrap()
    );
    assert!(
        db.store
            .claim_list_check(next + Duration::minutes(6), "a", lease)
            .await
            .unwrap()
    );
    other.close().await;
}

async fn known_ids_and_the_review_queue(db: &TestDb) {
    let ours = subscription(db, "gw-known", "kim").await;
    let asked: Vec<String> = ["gw-known", "gw-unknown", "it's \"quoted\""]
        .into_iter()
        .map(str::to_owned)
        .collect();
    let known = db.store.known_gateway_ids(&asked).await.unwrap();
    assert_eq!(
        known,
        [KnownSubscription {
            gateway_subscription_id: "gw-known".into(),
            id: ours.id.clone(),
            first_payment_id: None,
        }]
    );
    assert!(db.store.known_gateway_ids(&[]).await.unwrap().is_empty());
    let too_many: Vec<String> = (0..501).map(|i| format!("gw-{i}")).collect();
    assert!(db.store.known_gateway_ids(&too_many).await.is_err());

    let found = db
        .store
        .create_subscription(NewSubscription {
            gateway_subscription_id: "gw-found".into(),
            customer_id: None,
            plan_id: "gateway-gold-plan".into(),
            session_id: None,
            first_payment_id: None,
            amount: 1000,
            currency: "JPY".into(),
            status: SubscriptionStatus::Active,
            completed_cycles: 1,
            next_payment_at: None,
            last_payment_status: None,
            next_poll_at: now(),
            found_in_list: Some("found in the gateway's list".into()),
        })
        .await
        .unwrap();
    assert_eq!(found.origin, SubscriptionOrigin::GatewayList);
    assert_eq!(ours.origin, SubscriptionOrigin::Checkout);
    assert_eq!(
        event_kinds(db, &found.id).await,
        ["subscription.needs_review"]
    );
    let queue = db.store.subscriptions_to_review(10).await.unwrap();
    assert_eq!(
        queue.iter().map(|s| s.id.as_str()).collect::<Vec<_>>(),
        [found.id.as_str()]
    );
    assert!(db.store.acknowledge_subscription(&found.id).await.unwrap());
    assert!(
        !db.store.acknowledge_subscription(&found.id).await.unwrap(),
        "once"
    );
    assert!(
        !db.store.acknowledge_subscription(&ours.id).await.unwrap(),
        "never in it"
    );
    assert!(
        db.store
            .subscriptions_to_review(10)
            .await
            .unwrap()
            .is_empty()
    );
    let kept = db
        .store
        .get_subscription(&found.id)
        .await
        .unwrap()
        .expect("kept");
    assert_eq!(
        (kept.origin, kept.review_note),
        (SubscriptionOrigin::GatewayList, None)
    );
}
