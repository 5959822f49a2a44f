//! During a card-testing alert the proof of work is for traffic that looks new (issue 47,
//! item 2): a returning customer's saved card or new card, a checkout that already passed,
//! and a typed card that has paid from the same address before, go ahead without one; a new
//! checkout with a card never seen paying is asked.

use serde_json::json;

use super::shared_addresses::{open_alert, paid};
use super::{Db, declined, risk_suite, session, start, visa};
use crate::api::customer_cards::{new_customer, pay_with_saved, save_card_by_paying};
use crate::api::support::{cards, pay_body};

risk_suite!(
    a_returning_saved_card_is_never_asked_for_a_proof,
    a_returning_customer_and_a_passed_checkout_are_not_asked_again,
);

async fn a_returning_saved_card_is_never_asked_for_a_proof(db: Db) {
    let Some(h) = start(db, &[]).await else {
        return;
    };
    let customer = new_customer();
    let card = save_card_by_paying(&h, &customer).await;
    open_alert(&h).await;

    let returning = session(&h, json!({"customer_id": customer})).await;
    let reply = h.pay(&returning, &pay_with_saved(&card["id"]), None).await;
    assert_eq!(reply.status, 200, "no proof asked: {}", reply.text);
    assert_eq!(h.stored_payments(&returning).await.len(), 1, "recorded");

    // The card it was saved from, typed again from the address it paid from.
    let typed_again = session(&h, json!({})).await;
    let reply = h
        .pay(&typed_again, &pay_body(cards::VISA_OK, "123"), None)
        .await;
    assert_eq!(reply.json["next_action"], "redirect", "{}", reply.text);

    // A card never seen paying is asked.
    let new_card = session(&h, json!({})).await;
    let reply = h.pay(&new_card, &pay_body(&visa(9), "123"), None).await;
    assert_eq!(reply.status, 428, "{}", reply.text);
    assert!(h.stored_payments(&new_card).await.is_empty());
    h.finish().await;
}

/// A returning customer (the checkout's customer id paid before) with a new card, and a
/// checkout that already passed (its first card's try was recorded: it solved a proof) with
/// its second card, are not asked during the alert; a new guest checkout is.
async fn a_returning_customer_and_a_passed_checkout_are_not_asked_again(db: Db) {
    let Some(h) = start(db, &[]).await else {
        return;
    };
    let customer = new_customer();
    let before = session(&h, json!({"customer_id": customer})).await;
    paid(&h, &before, &visa(20)).await;
    open_alert(&h).await;

    let returning = session(&h, json!({"customer_id": customer})).await;
    let reply = h.pay(&returning, &pay_body(&visa(21), "123"), None).await;
    assert_eq!(reply.json["next_action"], "redirect", "{}", reply.text);

    let guest = session(&h, json!({})).await;
    let asked = h
        .pay(&guest, &pay_body(cards::DO_NOT_HONOUR, "123"), None)
        .await;
    assert_eq!(asked.status, 428, "a new checkout is asked: {}", asked.text);
    declined(&h, &guest, cards::DO_NOT_HONOUR).await;
    let reply = h.pay(&guest, &pay_body(&visa(23), "123"), None).await;
    assert_eq!(reply.json["next_action"], "redirect", "{}", reply.text);
    h.finish().await;
}
