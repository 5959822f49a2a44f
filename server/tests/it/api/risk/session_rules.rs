//! The rules of one checkout session: distinct cards, declines, and a subscription session;
//! during an alert a card past the halved limit but within the ordinary one asks for a proof
//! of work, and the ordinary limit still refuses.

use serde_json::json;

use super::shared_addresses::{open_alert, paid};
use super::{
    Db, assert_asked, assert_blocked, declined, risk_suite, sent, session, start, try_card, visa,
};
use crate::api::support::{Harness, Reply, TestSession, cards};

risk_suite!(
    cards_per_session_blocks_the_next_new_card_only,
    a_shopper_who_mistypes_two_different_numbers_pays_during_an_alert,
    a_checkout_that_left_numbers_at_the_bank_is_refused_past_the_halved_limit,
    declines_per_session_block_every_later_try,
    a_subscription_session_is_judged_before_its_charge,
);

async fn cards_per_session_blocks_the_next_new_card_only(db: Db) {
    let Some(h) = start(db, &[("RISK_MAX_CARDS_PER_SESSION", "2")]).await else {
        return;
    };
    // Declined tries give the session back at once, so the shopper may go on.
    let s = session(&h, json!({})).await;
    declined(&h, &s, cards::DO_NOT_HONOUR).await;
    declined(&h, &s, cards::INSUFFICIENT_FUNDS).await;
    declined(&h, &s, cards::DO_NOT_HONOUR).await; // a card already tried is no new card
    let reply = try_card(&h, &s, cards::EXPIRED).await;
    assert_blocked(&h, &s, &reply, "cards_per_session", 3).await;
    // The blocked try holds no claim: the shopper goes on with a card already tried.
    sent(&h, &s, cards::INSUFFICIENT_FUNDS).await;
    assert_eq!(h.gateway_charges(&s.reference), 4);
    h.finish().await;
}

/// At the default limit of four cards a checkout, halved to two by the alert: the shopper's
/// third card (after two different wrong numbers, both declined) is asked for a proof of work
/// and pays; a checkout's fifth card is refused as without an alert.
async fn a_shopper_who_mistypes_two_different_numbers_pays_during_an_alert(db: Db) {
    let Some(h) = start(db, &[("RISK_MAX_CARDS_PER_SESSION", "4")]).await else {
        return;
    };
    open_alert(&h).await;
    let risk = h.state.payments.risk();
    assert_eq!(
        risk.settings_in_force().max_cards_per_session,
        2,
        "tightened"
    );
    let shopper = session(&h, json!({})).await;
    declined(&h, &shopper, cards::DO_NOT_HONOUR).await;
    declined(&h, &shopper, cards::INSUFFICIENT_FUNDS).await;
    assert_asked(&h, &shopper, &visa(1), 2).await;
    paid(&h, &shopper, &visa(1)).await;
    // Past the ordinary limit the rule refuses, proof or not.
    let tester = session(&h, json!({})).await;
    for number in [
        cards::DO_NOT_HONOUR,
        cards::INSUFFICIENT_FUNDS,
        cards::EXPIRED,
        cards::LOST_OR_STOLEN,
    ] {
        declined(&h, &tester, number).await;
    }
    let reply = try_card(&h, &tester, &visa(2)).await;
    assert_blocked(&h, &tester, &reply, "cards_per_session", 4).await;
    h.finish().await;
}

/// A card tester takes the bank's 3-D Secure page as proof a number is live and moves on to
/// the next in the same checkout: past the halved limit, such a checkout is refused during an
/// alert, proof or not (a shopper's wrong numbers are declined, not left at the bank).
async fn a_checkout_that_left_numbers_at_the_bank_is_refused_past_the_halved_limit(db: Db) {
    let Some(h) = start(db, &[("RISK_MAX_CARDS_PER_SESSION", "4")]).await else {
        return;
    };
    open_alert(&h).await;
    let tester = session(&h, json!({})).await;
    for n in [40, 41] {
        sent(&h, &tester, &visa(n)).await;
        // Past the double-click guard, so the next card replaces the one at the bank.
        tokio::time::sleep(
            checkout_server::payments::supersede::DOUBLE_CLICK_GUARD
                + std::time::Duration::from_millis(100),
        )
        .await;
    }
    let reply = try_card(&h, &tester, &visa(42)).await;
    assert_blocked(&h, &tester, &reply, "cards_per_session", 2).await;
    h.finish().await;
}

async fn declines_per_session_block_every_later_try(db: Db) {
    let Some(h) = start(db, &[("RISK_MAX_DECLINES_PER_SESSION", "2")]).await else {
        return;
    };
    let s = session(&h, json!({})).await;
    declined(&h, &s, cards::DO_NOT_HONOUR).await;
    declined(&h, &s, cards::INSUFFICIENT_FUNDS).await;
    let reply = try_card(&h, &s, cards::VISA_OK).await;
    assert_blocked(&h, &s, &reply, "declines_per_session", 2).await;
    // Another session of the same shopper is not affected.
    let other = session(&h, json!({})).await;
    sent(&h, &other, cards::VISA_OK).await;
    h.finish().await;
}

async fn a_subscription_session_is_judged_before_its_charge(db: Db) {
    let Some(h) = start(db, &[("RISK_MAX_CARDS_PER_SESSION", "1")]).await else {
        return;
    };
    let s = subscription_session(&h).await;
    let first = try_card(&h, &s, cards::DO_NOT_HONOUR).await;
    assert_eq!(first.json["result"]["state"], "declined", "{}", first.text);
    let charges = h.sandbox.ledger.all().len();
    let reply = try_card(&h, &s, cards::VISA_OK).await;
    let before = h.gateway_charges(&s.reference);
    assert_blocked(&h, &s, &reply, "cards_per_session", before).await;
    assert_eq!(
        h.sandbox.ledger.all().len(),
        charges,
        "no subscription charge for the blocked try"
    );
    h.finish().await;
}

/// A session of the demo plan `demo-weekly` (amount and currency from the plan).
async fn subscription_session(h: &Harness) -> TestSession {
    let customer = format!("cust-{}", uuid::Uuid::new_v4().simple());
    let reference = format!("sub-{}", &uuid::Uuid::new_v4().simple().to_string()[..10]);
    let created = Reply::read(
        h.merchant(reqwest::Method::POST, "/v1/sessions")
            .json(
                &json!({"reference": reference, "plan_id": "demo-weekly", "customer_id": customer}),
            )
            .send()
            .await
            .expect("sent"),
    )
    .await;
    assert_eq!(created.status, 201, "{}", created.text);
    TestSession {
        id: created.json["id"].as_str().expect("id").to_owned(),
        secret: created.json["client_secret"]
            .as_str()
            .expect("secret")
            .to_owned(),
        reference,
    }
}
