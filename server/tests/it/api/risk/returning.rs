//! During a card-testing alert the proof of work is for traffic that looks new (issue 47,
//! item 2): a returning customer's saved card, and a typed card that has paid from the same
//! address before, go ahead without one; a card never seen paying is asked.

use serde_json::json;

use super::shared_addresses::open_alert;
use super::{Db, risk_suite, session, start, visa};
use crate::api::customer_cards::{new_customer, pay_with_saved, save_card_by_paying};
use crate::api::support::{cards, pay_body};

risk_suite!(a_returning_saved_card_is_never_asked_for_a_proof);

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
