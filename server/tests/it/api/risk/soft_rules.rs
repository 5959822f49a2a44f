//! Rules a stranger could aim at a victim are soft on a guest's checkout (issue 47, item 4): a
//! guest's e-mail is typed unverified and a card number may be in an attacker's hands, so
//! `cards_per_email` and `declines_per_card` ask a guest's try for a proof of work, which the
//! card frame solves, instead of refusing it; with the shop's customer id they refuse.

use serde_json::json;

use super::{Db, assert_blocked, declined, risk_suite, sent, session, start, try_card, visa};
use crate::api::support::{cards, pay_body};

risk_suite!(
    five_cards_under_a_strangers_email_do_not_block_the_owners_next_card,
    a_strangers_declines_of_a_card_do_not_block_its_owner,
);

const VICTIM: &str = "victim@example.com";

async fn five_cards_under_a_strangers_email_do_not_block_the_owners_next_card(db: Db) {
    let Some(h) = start(db, &[("RISK_MAX_CARDS_PER_EMAIL", "5")]).await else {
        return;
    };
    for n in 1..=5 {
        let stranger = session(&h, json!({"email": VICTIM})).await;
        sent(&h, &stranger, &visa(n)).await;
    }
    let owner = session(&h, json!({"email": VICTIM})).await;
    let asked = h.pay(&owner, &pay_body(&visa(6), "123"), None).await;
    assert_eq!(asked.status, 428, "a puzzle, not a refusal: {}", asked.text);
    for word in ["risk", "cards_per_email", "blocked"] {
        assert!(!asked.text.contains(word), "{}", asked.text);
    }
    sent(&h, &owner, &visa(6)).await;
    // The shop's own customer with that e-mail is refused outright.
    let vouched = session(&h, json!({"email": VICTIM, "customer_id": "cust-victim"})).await;
    let reply = try_card(&h, &vouched, &visa(7)).await;
    assert_blocked(&h, &vouched, &reply, "cards_per_email", 0).await;
    h.finish().await;
}

async fn a_strangers_declines_of_a_card_do_not_block_its_owner(db: Db) {
    let Some(h) = start(db, &[("RISK_MAX_DECLINES_PER_CARD", "2")]).await else {
        return;
    };
    for _ in 0..2 {
        let stranger = session(&h, json!({})).await;
        declined(&h, &stranger, cards::DO_NOT_HONOUR).await;
    }
    let owner = session(&h, json!({})).await;
    let asked = h
        .pay(&owner, &pay_body(cards::DO_NOT_HONOUR, "123"), None)
        .await;
    assert_eq!(asked.status, 428, "a puzzle, not a refusal: {}", asked.text);
    sent(&h, &owner, cards::DO_NOT_HONOUR).await;
    h.finish().await;
}
