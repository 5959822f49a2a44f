//! A burst of tries sent at once (issue 47): the pay call reads the card-testing counts in the
//! statement that records its payment, and of tries sharing an address or a customer at the
//! same moment the later one to count must see the earlier, or a burst slips past a threshold
//! (`store::sql::counted_claim`). Each try is a new card in a checkout of its own, all from
//! one address, every pay call in flight together: exactly the rule's limit reach the gateway,
//! the others are asked for a proof of work (the address, a soft rule) or refused (the
//! customer, a hard one). On PostgreSQL the pays' statements run side by side; counts read on
//! each statement's own snapshot let the whole burst through.

use futures_util::future::join_all;
use serde_json::{Value, json};

use super::{Db, risk_suite, session, start, visa};
use crate::api::support::{Harness, Reply, pay_body};

risk_suite!(
    a_burst_of_new_cards_from_one_address_passes_only_the_limit,
    a_burst_of_new_cards_of_one_customer_passes_only_the_limit,
);

/// Tries in a burst.
const TRIES: u16 = 12;
/// The limit of the rule under test.
const LIMIT: usize = 3;

async fn a_burst_of_new_cards_from_one_address_passes_only_the_limit(db: Db) {
    let Some(h) = start(db, &[("RISK_MAX_CARDS_PER_ADDRESS", "3")]).await else {
        return;
    };
    let replies = burst(&h, json!({}), 100).await;
    let asked = replies.iter().filter(|reply| reply.status == 428).count();
    assert_eq!(
        asked,
        usize::from(TRIES) - LIMIT,
        "past the limit, asked for a proof of work: {:?}",
        outcomes(&replies)
    );
    h.finish().await;
}

async fn a_burst_of_new_cards_of_one_customer_passes_only_the_limit(db: Db) {
    let Some(h) = start(db, &[("RISK_MAX_CARDS_PER_CUSTOMER", "3")]).await else {
        return;
    };
    let customer = format!("cust-burst-{}", uuid::Uuid::new_v4().simple());
    let replies = burst(&h, json!({"customer_id": customer}), 200).await;
    let refused = replies
        .iter()
        .filter(|reply| reply.status == 200 && reply.json["result"]["state"] == "blocked")
        .count();
    assert_eq!(
        refused,
        usize::from(TRIES) - LIMIT,
        "past the limit, refused: {:?}",
        outcomes(&replies)
    );
    h.finish().await;
}

/// Opens [`TRIES`] checkouts with `extra`, then pays each with a new card (`visa(first + n)`)
/// all at once; asserts [`LIMIT`] of them reached the gateway, and returns every answer.
async fn burst(h: &Harness, extra: Value, first: u16) -> Vec<Reply> {
    let mut sessions = Vec::new();
    for _ in 0..TRIES {
        sessions.push(session(h, extra.clone()).await);
    }
    let bodies: Vec<Value> = (0..TRIES)
        .map(|n| pay_body(&visa(first + n), "123"))
        .collect();
    let replies = join_all(
        sessions
            .iter()
            .zip(&bodies)
            .map(|(session, body)| h.pay(session, body, None)),
    )
    .await;
    let sent = replies
        .iter()
        .filter(|reply| reply.status == 200 && reply.json["next_action"] == "redirect")
        .count();
    let charges: usize = sessions
        .iter()
        .map(|session| h.gateway_charges(&session.reference))
        .sum();
    assert_eq!(
        (sent, charges),
        (LIMIT, LIMIT),
        "the burst's tries sent, and charges at the gateway: {:?}",
        outcomes(&replies)
    );
    replies
}

/// Each reply's status and what it answered, for a failure's message.
fn outcomes(replies: &[Reply]) -> Vec<String> {
    replies
        .iter()
        .map(|reply| {
            let what = match reply.status {
                200 => reply.json["next_action"]
                    .as_str()
                    .filter(|action| *action == "redirect")
                    .or_else(|| reply.json["result"]["state"].as_str())
                    .unwrap_or("?"),
                _ => reply.json["error"]["code"].as_str().unwrap_or("?"),
            };
            format!("{} {what}", reply.status)
        })
        .collect()
}
