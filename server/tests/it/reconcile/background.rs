//! The reconciler `serve` starts: with a one-second interval it settles a payment whose
//! webhook was lost without anyone calling it.

use std::time::Duration;

use checkout::contract::PaymentState;

use crate::api::support::{Harness, cards, param};
use crate::ops::support::{arm, ops_suite, wait_until};

const CONFIG: &[(&str, &str)] = &[("RECONCILE_INTERVAL_SECONDS", "1")];

ops_suite!(the_served_reconciler_settles_in_the_background);

async fn the_served_reconciler_settles_in_the_background(h: &Harness) {
    arm(h, "webhook=drop-webhook*1");
    arm(h, "transaction/status/{id}=status:503*3");
    let session = h.session(900, serde_json::json!({})).await;
    let redirect = h.pay_to_redirect(&session, cards::CHALLENGE).await;
    let landed = h.complete_3ds(&redirect, "approve").await;
    assert_eq!(param(&landed, "checkout").as_deref(), Some("processing"));
    wait_until(
        "the background reconciler",
        Duration::from_secs(10),
        || async { h.stored_payment(&session).await.state == PaymentState::Captured },
    )
    .await;
    let metrics = reqwest::get(format!("{}/metrics", h.base))
        .await
        .expect("metrics")
        .text()
        .await
        .expect("text");
    assert!(
        metrics.contains("checkout_reconciler_last_pass_timestamp_seconds"),
        "{metrics}"
    );
}
