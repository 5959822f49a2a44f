//! A poll that asked the gateway before a customer's or staff's action never writes its older
//! answer after it (issue 46): the reconciler's poll is held between its gateway read and its
//! write (`failpoint::hold`), the subscription is paused meanwhile, and the poll then lets go.

use std::time::Duration;

use checkout_server::failpoint::hold::{SUBSCRIPTION_POLL_BEFORE_WRITE, hold};
use reqwest::Method;

use crate::api::support::{Harness, cards};
use crate::ops::support::{
    after_the_startup_pass, event_kinds, gateway_subscription_status, in_seconds,
    merchant_subscription, ops_suite, reconciler, send, subscribe, unique,
};

const CONFIG: &[(&str, &str)] = &[];

ops_suite!(a_poll_that_read_before_a_pause_cannot_undo_it);

async fn a_poll_that_read_before_a_pause_cannot_undo_it(h: &Harness) {
    after_the_startup_pass(h).await;
    let (_, id) = subscribe(h, &unique("cust"), "demo-monthly", cards::VISA_OK).await;
    let gateway_id = merchant_subscription(h, &id).await["gateway_subscription_id"]
        .as_str()
        .expect("gateway id")
        .to_owned();

    // The reconciler polls it (due at once after the sign-up) and is held with the gateway's
    // answer, ACTIVE, before writing it.
    let mut held = hold(SUBSCRIPTION_POLL_BEFORE_WRITE, &id);
    let polling = reconciler(h);
    let pass = tokio::spawn(async move { polling.run_once_at(in_seconds(60)).await });
    tokio::time::timeout(Duration::from_secs(20), held.reached())
        .await
        .expect("the poll reaches its write");

    // Meanwhile the shop pauses it.
    let paused = send(h.merchant(Method::POST, &format!("/v1/subscriptions/{id}/pause"))).await;
    assert_eq!(paused.status, 200, "{}", paused.text);
    assert_eq!(paused.json["status"], "paused");

    held.release();
    let report = pass.await.expect("the pass ends");
    assert_eq!(report.subscriptions_polled, 1, "{report:?}");

    let after = merchant_subscription(h, &id).await;
    assert_eq!(
        after["status"], "paused",
        "the stale poll undid the pause: {after}"
    );
    assert_eq!(gateway_subscription_status(h, &gateway_id).await, "PAUSED");
    let kinds = event_kinds(h, &id).await;
    assert_eq!(
        kinds,
        ["subscription.created", "subscription.paused"],
        "no event for a change the poll did not see"
    );
    let stored = h
        .store()
        .get_subscription(&id)
        .await
        .expect("read")
        .expect("stored");
    assert!(
        stored.next_poll_at.is_some_and(|at| at <= in_seconds(1)),
        "a stale poll is repeated at the next pass: {:?}",
        stored.next_poll_at
    );

    // The next pass asks again and agrees with the pause: nothing changes, nothing is sent.
    let again = reconciler(h).run_once_at(in_seconds(60)).await;
    assert_eq!(again.subscriptions_polled, 1, "{again:?}");
    assert_eq!(merchant_subscription(h, &id).await["status"], "paused");
    assert_eq!(event_kinds(h, &id).await.len(), 2);
}
