//! During a card-testing alert the proof of work is for traffic that looks new (issue 47,
//! item 2): a returning customer's saved card or new card, a checkout that already passed,
//! and a typed card that has paid from the same address before, go ahead without one; a new
//! checkout with a card never seen paying is asked, and so is a checkout whose only try was
//! left at the bank's 3-D Secure page (a card tester's, opened before the alert).

use serde_json::json;

use super::shared_addresses::{open_alert, paid};
use super::{Db, assert_asked, declined, risk_suite, sent, session, start, visa};
use crate::api::customer_cards::{new_customer, pay_with_saved, save_card_by_paying};
use crate::api::support::{cards, pay_body};

risk_suite!(
    a_returning_saved_card_is_never_asked_for_a_proof,
    a_returning_customer_and_a_passed_checkout_are_not_asked_again,
    a_checkout_left_at_the_banks_page_is_asked_on_its_next_card,
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

/// A checkout opened before the alert whose try was left at the bank's 3-D Secure page (a
/// card tester notes the number live there and moves on) has passed nothing: its next card is
/// asked during the alert, as a new checkout's is; one whose try was declined is not.
async fn a_checkout_left_at_the_banks_page_is_asked_on_its_next_card(db: Db) {
    let Some(h) = start(db, &[]).await else {
        return;
    };
    let left = session(&h, json!({})).await;
    sent(&h, &left, &visa(30)).await;
    let answered = session(&h, json!({})).await;
    declined(&h, &answered, cards::DO_NOT_HONOUR).await;
    open_alert(&h).await;

    assert_asked(&h, &left, &visa(31), 1).await;
    // Past the double-click guard, so the new card replaces the one at the bank.
    tokio::time::sleep(
        checkout_server::payments::supersede::DOUBLE_CLICK_GUARD
            + std::time::Duration::from_millis(100),
    )
    .await;
    sent(&h, &left, &visa(31)).await;
    // Replaced while it waited at the bank, the first try is still no answer.
    assert_asked(&h, &left, &visa(32), 2).await;

    let reply = h.pay(&answered, &pay_body(&visa(33), "123"), None).await;
    assert_eq!(reply.json["next_action"], "redirect", "{}", reply.text);
    h.finish().await;
}
