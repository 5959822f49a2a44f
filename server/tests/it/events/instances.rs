//! Two delivery workers (two instances' leases) on one database, one killed while sending:
//! every event still reaches the shop, the killed worker's deliveries once their leases run
//! out, and no event is ever being delivered twice at once (the receiver counts the requests
//! in flight per `webhook-id`).

use std::time::Duration;

use checkout_server::events::run::spawn;
use checkout_server::store::prelude::*;
use checkout_server::webhook_rules::secret::new_secret;
use secrecy::ExposeSecret as _;
use tokio_util::sync::CancellationToken;

use super::receiver::Receiver;
use super::receiver::support::{endpoint, paid, settings, worker_on};
use crate::api::support::Harness;
use crate::ops::support::{ops_suite, second_instance, wait_until};

/// The server's own worker stays quiet after its first pass: the tests drive theirs.
const CONFIG: &[(&str, &str)] = &[("WEBHOOK_DELIVERY_INTERVAL_MS", "86400000")];

const PAYMENTS: u64 = 8;

ops_suite!(two_workers_one_killed_deliver_everything_never_twice_at_once);

async fn two_workers_one_killed_deliver_everything_never_twice_at_once(h: &Harness) {
    let secret = new_secret();
    let receiver = Receiver::start(secret.expose_secret()).await;
    receiver.answer_after(Duration::from_millis(40));
    let endpoint_id = endpoint(h, &receiver.url(), &[], secret.expose_secret()).await;
    for n in 0..PAYMENTS {
        paid(h, 500 + n).await;
    }
    let other = second_instance(h).await;
    let lease = Some(time::Duration::seconds(2));
    let pace = settings(Duration::from_millis(20), lease);
    let first = worker_on(h, h.store().clone(), "worker-a", true, pace);
    let second = worker_on(h, other.store.clone(), "worker-b", true, pace);
    let (stop_first, stop_second) = (CancellationToken::new(), CancellationToken::new());
    let killed = spawn(first, stop_first);
    let survivor = spawn(second, stop_second.clone());

    wait_until("a few deliveries", Duration::from_secs(20), || {
        let count = receiver.received().len();
        async move { count >= 4 }
    })
    .await;
    // As a SIGKILL: the loop and its sends end where they are, leases left held.
    killed.abort();
    let _ = killed.await;

    let store = h.store().clone();
    wait_until("every delivery made", Duration::from_secs(30), || {
        let store = store.clone();
        async move {
            store
                .oldest_pending_delivery()
                .await
                .expect("read")
                .is_none()
        }
    })
    .await;
    stop_second.cancel();
    survivor.await.expect("the survivor stops");

    let accepted: Vec<String> = receiver.accepted().into_iter().map(|r| r.id).collect();
    let mut events = Vec::new();
    let mut page = h
        .store()
        .list_events(EventQuery {
            limit: 100,
            ..EventQuery::default()
        })
        .await
        .expect("events");
    events.append(&mut page.items);
    assert!(
        events.len() as u64 >= PAYMENTS * 2,
        "{} events",
        events.len()
    );
    for event in &events {
        assert!(accepted.contains(&event.id), "{} never arrived", event.id);
        let deliveries = h.store().event_deliveries(&event.id).await.expect("read");
        let ours = deliveries
            .iter()
            .find(|d| d.endpoint_id == endpoint_id)
            .expect("a delivery");
        assert_eq!(ours.state, DeliveryState::Delivered);
    }
    assert_eq!(
        receiver.most_at_once(),
        1,
        "an event was being delivered twice at once"
    );
    assert!(receiver.received().iter().all(|r| r.verified));
    other.store.close().await;
}
