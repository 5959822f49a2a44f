//! The card-testing defence: pay calls are rate limited per checkout session and per client
//! IP (429 with `Retry-After`, the API's error shape), before anything reaches the gateway.
//! Another spelling of a session id (percent-escapes) is the same session, and the addresses
//! of one IPv6 /64 are one client.

use reqwest::header::RETRY_AFTER;
use serde_json::json;

use crate::api::support::{Harness, Reply, TestSession, cards, pay_body};
use crate::ops::support::ops_suite;

const CONFIG: &[(&str, &str)] = &[
    ("PAY_RATE_LIMIT_PER_SESSION", "2"),
    ("PAY_RATE_LIMIT_PER_IP", "4"),
];

ops_suite!(
    pay_is_limited_per_session,
    pay_is_limited_per_client_ip,
    encoded_spellings_share_the_session_limit
);

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

/// `session` addressed by another spelling of its id.
fn spelled(session: &TestSession, id: String) -> TestSession {
    TestSession {
        id,
        secret: session.secret.clone(),
        reference: session.reference.clone(),
    }
}

async fn encoded_spellings_share_the_session_limit(h: &Harness) {
    let session = h.session(1000, json!({})).await;
    let bad_card = pay_body("4242424242424241", "123");
    let (first, rest) = session.id.split_at(1);
    let lower = spelled(&session, format!("%{:02x}{rest}", first.as_bytes()[0]));
    let upper: String = session.id.bytes().map(|b| format!("%{b:02X}")).collect();
    let upper = spelled(&session, upper);
    assert_eq!(h.pay(&session, &bad_card, None).await.status, 400);
    let reply = h.pay(&lower, &bad_card, None).await;
    assert_eq!(
        reply.status, 400,
        "the handler takes {} for the same session: {}",
        lower.id, reply.text
    );
    assert_limited(&h.pay(&upper, &pay_body(cards::VISA_OK, "123"), None).await);
    assert_eq!(h.gateway_charges(&session.reference), 0);
}

/// Behind a trusted proxy, clients are told apart by `X-Forwarded-For`.
mod behind_a_proxy {
    use serde_json::json;

    use super::assert_limited;
    use crate::api::support::{Harness, Reply, cards, pay_body};
    use crate::ops::support::ops_suite;

    const CONFIG: &[(&str, &str)] = &[
        ("PAY_RATE_LIMIT_PER_SESSION", "2"),
        ("PAY_RATE_LIMIT_PER_IP", "4"),
        ("TRUSTED_PROXIES", "127.0.0.1"),
    ];

    ops_suite!(an_ipv6_64_is_one_client);

    /// A pay call on a fresh session from `client`.
    async fn pay_from(h: &Harness, client: &str, card: &str) -> Reply {
        let session = h.session(1000, json!({})).await;
        Reply::read(
            h.checkout(reqwest::Method::POST, &session, "/pay")
                .header("X-Forwarded-For", client)
                .json(&pay_body(card, "123"))
                .send()
                .await
                .expect("sent"),
        )
        .await
    }

    async fn an_ipv6_64_is_one_client(h: &Harness) {
        let bad_card = "4242424242424241";
        for client in [
            "2001:db8:1:2::a",
            "2001:db8:1:2::b",
            "2001:db8:1:2:ffff:ffff:ffff:ffff",
            "2001:db8:1:2:1234::1",
        ] {
            let reply = pay_from(h, client, bad_card).await;
            assert_eq!(reply.status, 400, "{client}: {}", reply.text);
        }
        assert_limited(&pay_from(h, "2001:db8:1:2::c", cards::VISA_OK).await);
        let reply = pay_from(h, "2001:db8:1:3::a", bad_card).await;
        assert_eq!(reply.status, 400, "another /64: {}", reply.text);
        let reply = pay_from(h, "198.51.100.7", bad_card).await;
        assert_eq!(reply.status, 400, "an IPv4 client: {}", reply.text);
    }
}

/// `TRUSTED_PROXIES` takes ranges: a balancer's nodes anywhere in `10.0.0.0/8` are believed,
/// so the client behind any of them is the one the limit counts.
mod behind_a_proxy_range {
    use serde_json::json;

    use super::assert_limited;
    use crate::api::support::{Harness, Reply, cards, pay_body};
    use crate::ops::support::ops_suite;

    const CONFIG: &[(&str, &str)] = &[
        ("PAY_RATE_LIMIT_PER_SESSION", "2"),
        ("PAY_RATE_LIMIT_PER_IP", "4"),
        ("TRUSTED_PROXIES", "127.0.0.0/8, 10.0.0.0/8"),
    ];

    ops_suite!(every_node_of_a_trusted_range_forwards_the_same_client);

    async fn pay_through(h: &Harness, forwarded: &str, card: &str) -> Reply {
        let session = h.session(1000, json!({})).await;
        Reply::read(
            h.checkout(reqwest::Method::POST, &session, "/pay")
                .header("X-Forwarded-For", forwarded)
                .json(&pay_body(card, "123"))
                .send()
                .await
                .expect("sent"),
        )
        .await
    }

    async fn every_node_of_a_trusted_range_forwards_the_same_client(h: &Harness) {
        let bad_card = "4242424242424241";
        for node in ["10.0.0.7", "10.20.0.1", "10.255.1.2", "10.3.3.3"] {
            let reply = pay_through(h, &format!("198.51.100.9, {node}"), bad_card).await;
            assert_eq!(reply.status, 400, "{node}: {}", reply.text);
        }
        assert_limited(&pay_through(h, "198.51.100.9, 10.9.9.9", cards::VISA_OK).await);
        let other = pay_through(h, "198.51.100.10, 10.0.0.7", bad_card).await;
        assert_eq!(other.status, 400, "another client: {}", other.text);
    }
}
