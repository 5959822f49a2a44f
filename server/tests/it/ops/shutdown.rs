//! Graceful shutdown finishes the work requests left behind: a token payment whose shopper
//! gave up waiting (the client disconnected while the gateway was slow to answer) is recorded
//! captured by the time the server has stopped, never cut off half-way and left pending.

use std::time::Duration;

use checkout::contract::PaymentState;
use checkout_server::store::prelude::*;
use serde_json::json;

use crate::api::customer_cards::{new_customer, pay_with_saved, save_card_by_paying};
use crate::api::support::{Backend, Harness};
use crate::ops::support::arm;

/// How long the emulator takes over the charge; the shopper waits far less.
const SLOW_GATEWAY: &str = "payment=latency:1500*1";
const SHOPPER_PATIENCE: Duration = Duration::from_millis(300);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_shutdown_finishes_a_pay_whose_shopper_left() {
    shutdown_finishes_a_pay_whose_shopper_left(Harness::start(Backend::Sqlite).await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_shutdown_finishes_a_pay_whose_shopper_left() {
    let Some(harness) = Harness::start_postgres().await else {
        return;
    };
    shutdown_finishes_a_pay_whose_shopper_left(harness).await;
}

async fn shutdown_finishes_a_pay_whose_shopper_left(mut h: Harness) {
    let customer = new_customer();
    let card = save_card_by_paying(&h, &customer).await;
    let session = h.session(1200, json!({"customer_id": customer})).await;
    arm(&h, SLOW_GATEWAY);
    let gave_up = h
        .checkout(reqwest::Method::POST, &session, "/pay")
        .json(&pay_with_saved(&card["id"]))
        .timeout(SHOPPER_PATIENCE)
        .send()
        .await;
    assert!(
        gave_up.as_ref().is_err_and(reqwest::Error::is_timeout),
        "{gave_up:?}"
    );
    // Read afterwards through a store of its own: the server closes its store when it stops.
    let keys = h
        .state
        .config
        .secrets_key
        .key_ring(&h.database_url)
        .expect("the server's key");
    let reader = checkout_server::store::connect(&h.database_url, keys)
        .await
        .expect("a second store opens");

    h.stop().await;
    let payments = reader
        .list_payments(PaymentQuery {
            session_id: Some(session.id.clone()),
            limit: 5,
            ..PaymentQuery::default()
        })
        .await
        .expect("payments");
    assert_eq!(payments.items.len(), 1, "{:?}", payments.items);
    assert_eq!(payments.items[0].state, PaymentState::Captured);
    assert_eq!(payments.items[0].attempts, 1);
    assert_eq!(h.gateway_charges(&session.reference), 1);
    reader.close().await;
    h.finish().await;
}
