//! At least once, in order per object: a failed delivery is tried again after its backoff
//! (5 s, then 5 min, each ±20 %) with the same `webhook-id`, every attempt logged with its
//! status and duration; after three days of failures it is given up and the endpoint, failing
//! all that time, disabled with a reason. One object's failing event holds back that object's
//! later events and nothing else. Time moves on the worker's clock, not by sleeping.

use std::collections::HashSet;

use checkout_server::store::prelude::*;
use checkout_server::webhook_rules::secret::new_secret;
use secrecy::ExposeSecret as _;
use serde_json::json;
use time::Duration;

use super::receiver::Receiver;
use super::receiver::support::{attempts, delivery, drain, endpoint, event_ids, paid, worker};
use crate::api::support::{Harness, Reply};
use crate::ops::support::ops_suite;

/// The server's own worker stays quiet after its first pass: the tests drive theirs.
const CONFIG: &[(&str, &str)] = &[("WEBHOOK_DELIVERY_INTERVAL_MS", "86400000")];

ops_suite!(
    failures_are_retried_with_backoff,
    deliveries_give_up_after_three_days_and_the_endpoint_is_disabled,
    an_objects_events_arrive_in_order_and_others_are_not_held,
);

async fn failures_are_retried_with_backoff(h: &Harness) {
    let secret = new_secret();
    let receiver = Receiver::start(secret.expose_secret()).await;
    let endpoint_id = endpoint(
        h,
        &receiver.url(),
        &["session.completed"],
        secret.expose_secret(),
    )
    .await;
    receiver.fail_next(&[503, 500]);
    let (session, _) = paid(h, 1200).await;
    let worker = worker(h, "retry-test", true);

    let first = worker.run_once().await;
    assert_eq!((first.claimed, first.retried), (1, 1), "{first:?}");
    let event_id = event_ids(h, &session.id).await.remove(0);
    let pending = delivery(h, &event_id, &endpoint_id).await;
    assert_eq!(
        (pending.state, pending.attempts),
        (DeliveryState::Pending, 1)
    );
    let logged = attempts(h, &endpoint_id).await;
    let wait = pending.next_attempt_at - logged[0].attempted_at;
    assert!(
        (Duration::seconds(4)..=Duration::seconds(6)).contains(&wait),
        "first retry after {wait}"
    );
    assert_eq!(
        worker.run_once().await.claimed,
        0,
        "nothing before the backoff"
    );

    worker.clock().advance(Duration::seconds(6));
    let second = worker.run_once().await;
    assert_eq!((second.claimed, second.retried), (1, 1), "{second:?}");
    let pending = delivery(h, &event_id, &endpoint_id).await;
    let logged = attempts(h, &endpoint_id).await;
    let wait = pending.next_attempt_at - logged[1].attempted_at;
    assert!(
        (Duration::minutes(4)..=Duration::minutes(6)).contains(&wait),
        "second retry after {wait}"
    );
    worker.clock().advance(Duration::minutes(3));
    assert_eq!(worker.run_once().await.claimed, 0);

    worker.clock().advance(Duration::minutes(3));
    let third = worker.run_once().await;
    assert_eq!((third.claimed, third.delivered), (1, 1), "{third:?}");
    let delivered = delivery(h, &event_id, &endpoint_id).await;
    assert_eq!(
        (delivered.state, delivered.attempts),
        (DeliveryState::Delivered, 3)
    );

    let logged = attempts(h, &endpoint_id).await;
    let statuses: Vec<Option<u16>> = logged.iter().map(|a| a.status_code).collect();
    assert_eq!(statuses, [Some(503), Some(500), Some(200)]);
    for attempt in &logged {
        assert_eq!(attempt.event_id, event_id);
        assert!(attempt.duration_us > 0, "{attempt:?}");
        assert_eq!(attempt.error, None);
    }
    assert!(logged[1].attempted_at - logged[0].attempted_at >= Duration::seconds(4));
    assert!(logged[2].attempted_at - logged[1].attempted_at >= Duration::minutes(4));
    // The same event each time: the same webhook-id, so the shop can de-duplicate.
    let received = receiver.received();
    assert_eq!(received.len(), 3);
    assert!(received.iter().all(|r| r.id == event_id && r.verified));
    let endpoint = h
        .store()
        .get_endpoint(&endpoint_id)
        .await
        .expect("read")
        .expect("exists");
    assert_eq!(endpoint.failing_since, None, "a success ends the streak");
}

async fn deliveries_give_up_after_three_days_and_the_endpoint_is_disabled(h: &Harness) {
    let secret = new_secret();
    let receiver = Receiver::start(secret.expose_secret()).await;
    let endpoint_id = endpoint(
        h,
        &receiver.url(),
        &["session.completed"],
        secret.expose_secret(),
    )
    .await;
    receiver.fail_all();
    let (session, _) = paid(h, 900).await;
    let worker = worker(h, "give-up-test", true);
    let mut passes = 0;
    let mut disabled = 0;
    loop {
        let pass = worker.run_once().await;
        disabled += pass.disabled;
        if pass.failed == 1 {
            break;
        }
        passes += 1;
        assert!(passes < 30, "never given up");
        worker.clock().advance(Duration::hours(11));
    }
    assert_eq!(disabled, 1, "the endpoint is disabled once");
    let event_id = event_ids(h, &session.id).await.remove(0);
    let failed = delivery(h, &event_id, &endpoint_id).await;
    assert_eq!(failed.state, DeliveryState::Failed);
    let logged = attempts(h, &endpoint_id).await;
    assert_eq!(logged.len() as u32, failed.attempts);
    assert!(
        (7..=16).contains(&logged.len()),
        "{} attempts in three days",
        logged.len()
    );
    let span = logged[logged.len() - 1].attempted_at - logged[0].attempted_at;
    assert!(span >= Duration::days(3), "gave up after {span}");
    assert!(logged.iter().all(|a| a.status_code == Some(500)));
    assert_eq!(receiver.received().len(), logged.len());

    let endpoint = h
        .store()
        .get_endpoint(&endpoint_id)
        .await
        .expect("read")
        .expect("exists");
    assert_eq!(endpoint.status, EndpointStatus::Disabled);
    let reason = endpoint.disabled_reason.expect("a reason");
    assert!(reason.contains("failed"), "{reason}");
    assert!(endpoint.failing_since.is_some());

    // A disabled endpoint gets nothing more.
    receiver.heal();
    paid(h, 800).await;
    let after = worker.run_once().await;
    assert_eq!(after.claimed, 0, "{after:?}");
    assert_eq!(receiver.received().len(), logged.len());
}

async fn refund(h: &Harness, payment_id: &str, amount: Option<u64>) {
    let mut request = h.merchant(
        reqwest::Method::POST,
        &format!("/v1/payments/{payment_id}/refund"),
    );
    if let Some(amount) = amount {
        request = request.json(&json!({"amount": amount}));
    }
    let reply = Reply::read(request.send().await.expect("sent")).await;
    assert_eq!(reply.status, 200, "{}", reply.text);
}

async fn an_objects_events_arrive_in_order_and_others_are_not_held(h: &Harness) {
    let secret = new_secret();
    let receiver = Receiver::start(secret.expose_secret()).await;
    endpoint(h, &receiver.url(), &[], secret.expose_secret()).await;
    let (session_a, a) = paid(h, 1000).await;
    refund(h, &a.id, Some(300)).await;
    refund(h, &a.id, None).await;
    let (session_b, b) = paid(h, 2000).await;
    refund(h, &b.id, Some(500)).await;
    let a_events = event_ids(h, &a.id).await;
    assert!(
        a_events.len() >= 3,
        "captured and two refunds: {a_events:?}"
    );

    receiver.fail_object(&a.id);
    let worker = worker(h, "order-test", true);
    drain(&worker).await;
    let accepted: HashSet<String> = receiver.accepted().into_iter().map(|r| r.id).collect();
    for object in [&b.id, &session_a.id, &session_b.id] {
        for id in event_ids(h, object).await {
            assert!(accepted.contains(&id), "{object}'s {id} held back");
        }
    }
    // Only A's first event was tried; its later ones wait for it.
    let tried_for_a: HashSet<String> = receiver
        .received()
        .into_iter()
        .filter(|r| r.object_id == a.id)
        .map(|r| r.id)
        .collect();
    assert_eq!(tried_for_a, HashSet::from([a_events[0].clone()]));

    receiver.heal();
    for _ in 0..10 {
        worker.clock().advance(Duration::minutes(40));
        drain(&worker).await;
    }
    let arrived_for_a: Vec<String> = receiver
        .accepted()
        .into_iter()
        .filter(|r| r.object_id == a.id)
        .map(|r| r.id)
        .collect();
    assert_eq!(
        arrived_for_a, a_events,
        "A's events in the order they happened"
    );
    let arrived_for_b: Vec<String> = receiver
        .accepted()
        .into_iter()
        .filter(|r| r.object_id == b.id)
        .map(|r| r.id)
        .collect();
    assert_eq!(arrived_for_b, event_ids(h, &b.id).await);
}
