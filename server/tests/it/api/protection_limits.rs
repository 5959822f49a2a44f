//! The card-testing defence: pay calls are rate limited per checkout session and per client
//! IP (429 with `Retry-After`, the API's error shape), before anything reaches the gateway.

use reqwest::header::RETRY_AFTER;
use serde_json::json;

use crate::api::support::{Harness, Reply, cards, pay_body};
use crate::ops::support::ops_suite;

const CONFIG: &[(&str, &str)] = &[
    ("PAY_RATE_LIMIT_PER_SESSION", "2"),
    ("PAY_RATE_LIMIT_PER_IP", "4"),
];

ops_suite!(pay_is_limited_per_session, pay_is_limited_per_client_ip);

fn assert_limited(reply: &Reply) -> u64 {
    reply.assert_error(429, "rate_limited", None);
    let wait: u64 = reply.headers[RETRY_AFTER]
        .to_str()
        .expect("ascii")
        .parse()
        .expect("whole seconds");
    assert!((1..=60).contains(&wait), "Retry-After {wait}");
    wait
}

async fn pay_is_limited_per_session(h: &Harness) {
    let session = h.session(1000, json!({})).await;
    let bad_card = pay_body("4242424242424241", "123");
    for _ in 0..2 {
        let reply = h.pay(&session, &bad_card, None).await;
        assert_eq!(reply.status, 400, "{}", reply.text);
    }
    let wait = assert_limited(
        &h.pay(&session, &pay_body(cards::VISA_OK, "123"), None)
            .await,
    );
    assert_eq!(wait, 30, "two calls a minute: one comes back every 30 s");
    assert_eq!(
        h.gateway_charges(&session.reference),
        0,
        "the refused call never reached the gateway"
    );

    // Another session is not affected; the other pages of this one neither.
    let other = h.session(1000, json!({})).await;
    assert_eq!(h.pay(&other, &bad_card, None).await.status, 400);
    let view = crate::ops::support::send(h.checkout(reqwest::Method::GET, &session, "")).await;
    assert_eq!(view.status, 200, "{}", view.text);
}

async fn pay_is_limited_per_client_ip(h: &Harness) {
    let bad_card = pay_body("4242424242424241", "123");
    for n in 0..4 {
        let session = h.session(1000, json!({})).await;
        // A forged X-Forwarded-For changes nothing: no proxy is trusted.
        let reply = Reply::read(
            h.checkout(reqwest::Method::POST, &session, "/pay")
                .header("X-Forwarded-For", format!("198.51.100.{n}"))
                .json(&bad_card)
                .send()
                .await
                .expect("sent"),
        )
        .await;
        assert_eq!(reply.status, 400, "{}", reply.text);
    }
    let fifth = h.session(1000, json!({})).await;
    assert_limited(&h.pay(&fifth, &pay_body(cards::VISA_OK, "123"), None).await);
    assert_eq!(h.gateway_charges(&fifth.reference), 0);
}
