//! The block lists on the pay path (issue 33, item 3): each kind blocks a matching try, before
//! the gateway, with its own rule, and lets a try that does not match through; a saved card
//! carries the fingerprint of the payment it was saved from, so a blocked card stays blocked
//! when saved, and the declines of that card count against its saved tries.

use serde_json::json;

use checkout_server::risk::blocks::{BlockKind, BlockValue};

use super::{Db, assert_blocked, risk_suite, sent, session, start, try_card, visa};
use crate::api::customer_cards::{new_customer, pay_with_saved, save_card_by_paying};
use crate::api::support::{Harness, Reply, TestSession, cards, pay_body};

risk_suite!(
    a_blocked_card_bin_email_domain_and_customer_refuse_only_their_tries,
    addresses_and_ranges_block_their_clients_only,
    a_saved_card_keeps_its_fingerprint_and_its_block,
    a_saved_card_meets_the_bin_block_list,
    a_saved_card_try_meets_the_declines_of_its_card,
);

/// Adds `value` of `kind` to the block list straight through the store.
pub(super) async fn block(h: &Harness, kind: BlockKind, value: &str) {
    let new = BlockValue::parse(kind, value)
        .and_then(|value| value.entry(None, "test"))
        .expect("valid value");
    h.store()
        .add_block(new, time::OffsetDateTime::now_utc())
        .await
        .expect("added");
}

/// Blocks the card of the payment the session `s` made last.
async fn block_card_of(h: &Harness, s: &TestSession) {
    let fingerprint = h
        .stored_payment(s)
        .await
        .card_fingerprint
        .expect("a fingerprint");
    let new = BlockValue::card(&fingerprint)
        .and_then(|value| value.entry(Some("stolen"), "test"))
        .expect("valid");
    h.store()
        .add_block(new, time::OffsetDateTime::now_utc())
        .await
        .expect("added");
}

async fn a_blocked_card_bin_email_domain_and_customer_refuse_only_their_tries(db: Db) {
    let Some(h) = start(db, &[]).await else {
        return;
    };
    // A card, by the fingerprint of one of its payments.
    let first = session(&h, json!({})).await;
    sent(&h, &first, &visa(1)).await;
    block_card_of(&h, &first).await;
    let s = session(&h, json!({})).await;
    let reply = try_card(&h, &s, &visa(1)).await;
    assert_blocked(&h, &s, &reply, "blocklist_card", 0).await;
    sent(&h, &s, &visa(2)).await;

    // A BIN.
    block(&h, BlockKind::Bin, "555555").await;
    let s = session(&h, json!({})).await;
    let reply = try_card(&h, &s, "5555555555554444").await;
    assert_blocked(&h, &s, &reply, "blocklist_bin", 0).await;
    sent(&h, &s, &visa(3)).await;

    // An e-mail, and a domain whatever the case.
    block(&h, BlockKind::Email, "Bot@Shop.example").await;
    let s = session(&h, json!({"email": "bot@shop.EXAMPLE"})).await;
    let reply = try_card(&h, &s, &visa(4)).await;
    assert_blocked(&h, &s, &reply, "blocklist_email", 0).await;
    block(&h, BlockKind::EmailDomain, "Fraud.Example").await;
    let s = session(&h, json!({"email": "Anyone@FRAUD.example"})).await;
    let reply = try_card(&h, &s, &visa(5)).await;
    assert_blocked(&h, &s, &reply, "blocklist_email_domain", 0).await;
    let s = session(&h, json!({"email": "anyone@notfraud.example"})).await;
    sent(&h, &s, &visa(5)).await;

    // A customer.
    block(&h, BlockKind::Customer, "cust-bad").await;
    let s = session(&h, json!({"customer_id": "cust-bad"})).await;
    let reply = try_card(&h, &s, &visa(6)).await;
    assert_blocked(&h, &s, &reply, "blocklist_customer", 0).await;
    let s = session(&h, json!({"customer_id": "cust-good"})).await;
    sent(&h, &s, &visa(6)).await;
    h.finish().await;
}

/// A pay call on `s` from `client` (behind the trusted proxy).
async fn try_from(h: &Harness, s: &TestSession, client: &str, number: &str) -> Reply {
    Reply::read(
        h.checkout(reqwest::Method::POST, s, "/pay")
            .header("X-Forwarded-For", client)
            .json(&pay_body(number, "123"))
            .send()
            .await
            .expect("sent"),
    )
    .await
}

async fn addresses_and_ranges_block_their_clients_only(db: Db) {
    let Some(h) = start(db, &[("TRUSTED_PROXIES", "127.0.0.1")]).await else {
        return;
    };
    block(&h, BlockKind::Address, "198.51.100.7").await;
    block(&h, BlockKind::Address, "203.0.113.0/24").await;
    block(&h, BlockKind::Address, "2001:db8:aa:bb::/64").await;
    for (n, client) in [
        (1, "198.51.100.7"),
        (2, "203.0.113.200"),
        (3, "2001:db8:aa:bb:1234::9"),
    ] {
        let s = session(&h, json!({})).await;
        let reply = try_from(&h, &s, client, &visa(n)).await;
        assert_blocked(&h, &s, &reply, "blocklist_address", 0).await;
    }
    for (n, client) in [
        (4, "198.51.100.8"),
        (5, "203.0.114.1"),
        (6, "2001:db8:aa:bc::9"),
    ] {
        let s = session(&h, json!({})).await;
        let reply = try_from(&h, &s, client, &visa(n)).await;
        assert_eq!(
            reply.json["next_action"], "redirect",
            "{client}: {}",
            reply.text
        );
    }
    h.finish().await;
}

async fn a_saved_card_keeps_its_fingerprint_and_its_block(db: Db) {
    let Some(h) = start(db, &[]).await else {
        return;
    };
    let customer = new_customer();
    let card = save_card_by_paying(&h, &customer).await;
    let saved = h
        .store()
        .list_cards(&customer)
        .await
        .expect("cards")
        .pop()
        .expect("one card");
    let fingerprint = saved.card_fingerprint.clone().expect("kept with the card");

    // Its tries record the fingerprint, and a block of the card stops them.
    let s = session(&h, json!({"customer_id": customer})).await;
    let new = BlockValue::card(&fingerprint)
        .and_then(|value| value.entry(None, "test"))
        .expect("valid");
    h.store()
        .add_block(new, time::OffsetDateTime::now_utc())
        .await
        .expect("added");
    let reply = h.pay(&s, &pay_with_saved(&card["id"]), None).await;
    assert_blocked(&h, &s, &reply, "blocklist_card", 0).await;
    let stored = h.stored_payment(&s).await;
    assert_eq!(
        stored.card_fingerprint.as_deref(),
        Some(fingerprint.as_str())
    );
    assert!(stored.saved_card_id.is_some());
    h.finish().await;
}

/// A saved card keeps the first six of the payment it was saved from: its payments record them
/// and a block of its BIN stops them, as it stops the typed card.
async fn a_saved_card_meets_the_bin_block_list(db: Db) {
    let Some(h) = start(db, &[]).await else {
        return;
    };
    let customer = new_customer();
    let card = save_card_by_paying(&h, &customer).await;
    let bin = &cards::VISA_OK[..6];
    let saved = h.store().list_cards(&customer).await.expect("cards");
    assert_eq!(saved[0].bin.as_ref().map(|bin| bin.as_str()), Some(bin));

    let before = session(&h, json!({"customer_id": customer})).await;
    let reply = h.pay(&before, &pay_with_saved(&card["id"]), None).await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    let paid = h.stored_payment(&before).await;
    assert_eq!(
        paid.card
            .and_then(|card| card.bin)
            .map(|bin| bin.as_str().to_owned())
            .as_deref(),
        Some(bin)
    );

    block(&h, BlockKind::Bin, bin).await;
    let s = session(&h, json!({"customer_id": customer})).await;
    let reply = h.pay(&s, &pay_with_saved(&card["id"]), None).await;
    assert_blocked(&h, &s, &reply, "blocklist_bin", 0).await;
    h.finish().await;
}

async fn a_saved_card_try_meets_the_declines_of_its_card(db: Db) {
    let Some(h) = start(db, &[("RISK_MAX_DECLINES_PER_CARD", "1")]).await else {
        return;
    };
    let customer = new_customer();
    let card = save_card_by_paying(&h, &customer).await;
    // The emulator declines no saved card: the card's own typed payment is made a decline in
    // the database, as an issuer's later decline of it would be recorded.
    let sql = format!(
        "UPDATE payments SET state = 'declined' WHERE customer_id = '{customer}' \
         AND saved_card_id IS NULL"
    );
    h.execute(&sql).await;
    let s = session(&h, json!({"customer_id": customer})).await;
    let reply = h.pay(&s, &pay_with_saved(&card["id"]), None).await;
    assert_blocked(&h, &s, &reply, "declines_per_card", 0).await;
    h.finish().await;
}
