//! The backend samples (examples/backend-python, examples/backend-node) fed the exact events
//! checkout-server sends: a late approval of an attempt the shopper left at the bank (a second
//! charge, reversed by the server: the order stays paid, by the session's keeper), and a real
//! staff refund of the keeper (the order is refunded). Today's main marked the paid order
//! refunded in the first case.

use serde_json::{Value, json};

use super::support::{Sample, attempt_ids, back_from_the_bank, replay, shop_events, until_state};
use crate::api::support::{Harness, TestSession, cards};
use crate::ops::support::{ops_suite, send};

const CONFIG: &[(&str, &str)] = &[];

ops_suite!(
    a_late_approval_leaves_the_order_paid,
    a_staff_refund_refunds_the_order,
);

const SAMPLES: [Sample; 2] = [Sample::Python, Sample::Node];

/// A paid by B, then A approved late and reversed: the session, A's id and B's id.
async fn late_approval(h: &Harness) -> (TestSession, String, String) {
    let session = h.session(1200, json!({})).await;
    let a = h.pay_to_redirect(&session, cards::CHALLENGE).await;
    back_from_the_bank(h, &session).await;
    let b = h.pay_to_redirect(&session, cards::CHALLENGE).await;
    h.complete_3ds(&b, "approve").await;
    h.complete_3ds(&a, "approve").await;
    let ids = attempt_ids(h, &session).await;
    until_state(h, &ids[0], "refunded").await;
    (session, ids[0].clone(), ids[1].clone())
}

/// The order each sample makes of `events`, checked against `status` and `payment_id`.
fn assert_order(session: &TestSession, events: &[Value], status: &str, payment_id: &str) {
    for sample in SAMPLES {
        let order = replay(sample, &session.id, 1200, events);
        assert_eq!(order["status"], status, "{sample:?}: {order}");
        assert_eq!(order["payment_id"], payment_id, "{sample:?}: {order}");
    }
}

async fn a_late_approval_leaves_the_order_paid(h: &Harness) {
    let (session, a_id, b_id) = late_approval(h).await;
    let events = shop_events(h, &session.id).await;
    let kinds: Vec<(&str, &str)> = events
        .iter()
        .map(|e| {
            let object = &e["data"]["object"];
            let id = object["id"].as_str().unwrap_or_default();
            let who = if id == a_id {
                "A"
            } else if id == b_id {
                "B"
            } else {
                "session"
            };
            (e["type"].as_str().unwrap_or_default(), who)
        })
        .collect();
    assert_eq!(
        kinds,
        [
            ("payment.captured", "B"),
            ("session.completed", "session"),
            ("payment.captured", "A"),
            ("payment.refunded", "A"),
        ],
        "the exact sequence"
    );
    // A's events say it is B's duplicate, being reversed.
    for event in events
        .iter()
        .filter(|e| e["data"]["object"]["id"] == a_id.as_str())
    {
        assert_eq!(
            event["data"]["object"]["surplus_of"],
            b_id.as_str(),
            "{event}"
        );
    }
    assert_eq!(
        events[3]["data"]["object"]["reversal_reason"],
        "duplicate_attempt"
    );
    assert_eq!(events[1]["data"]["object"]["paid_by"], b_id.as_str());
    assert_order(&session, &events, "paid", &b_id);
    // Events of different objects may come in any order: A's first, then B's.
    let mut reordered: Vec<Value> = events[2..].to_vec();
    reordered.extend_from_slice(&events[..2]);
    assert_order(&session, &reordered, "paid", &b_id);
}

async fn a_staff_refund_refunds_the_order(h: &Harness) {
    let (session, _, b_id) = late_approval(h).await;
    let refund = send(h.merchant(
        reqwest::Method::POST,
        &format!("/v1/payments/{b_id}/refund"),
    ))
    .await;
    assert_eq!(refund.status, 200, "{}", refund.text);
    let events = shop_events(h, &session.id).await;
    let last = events.last().expect("events");
    assert_eq!(last["type"], "payment.refunded");
    assert_eq!(last["data"]["object"]["id"], b_id.as_str());
    assert_eq!(
        last["data"]["object"]["reversal_reason"],
        "requested_by_merchant"
    );
    assert_order(&session, &events, "refunded", &b_id);
}
