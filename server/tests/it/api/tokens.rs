//! Saved cards: a payment with the save-card opt-in stores the gateway's token for the
//! customer (it arrives with the confirmed webhook); a later session of the same customer pays
//! with it through the token form of `/payment`, answered at once, no 3DS.

use std::time::Duration;

use checkout_sandbox::ledger::RecordKind;
use checkout_server::store::prelude::*;
use serde_json::json;

use crate::api::support::{Harness, api_suite, browser_info, cards, eventually, param, pay_body};

api_suite!(
    token_payment_after_save_card,
    saved_cards_need_a_customer_and_stay_private,
);

async fn token_payment_after_save_card(h: &Harness) {
    let customer = format!("cust-{}", uuid::Uuid::new_v4().simple());
    let first = h
        .session(
            1000,
            json!({"customer_id": customer, "email": "jane@example.test"}),
        )
        .await;
    let view = h.view(&first).await;
    assert_eq!(view["can_save_card"], true);
    assert_eq!(view["saved_cards"], json!([]));
    assert_eq!(view["kind"]["type"], "payment");
    assert_eq!(view["currency_exponent"], 0);

    let mut body = pay_body(cards::VISA_OK, "123");
    body["save_card"] = json!(true);
    let reply = h.pay(&first, &body, None).await;
    assert_eq!(reply.json["next_action"], "redirect", "{}", reply.text);
    let landed = h
        .complete_3ds(reply.json["redirect_url"].as_str().expect("url"), "approve")
        .await;
    assert_eq!(param(&landed, "checkout").as_deref(), Some("paid"));

    // The token comes with the webhook; the card then shows in the customer's next session.
    let second = h.session(2500, json!({"customer_id": customer})).await;
    let saved = eventually("the saved card", Duration::from_secs(5), || async {
        let view = h.view(&second).await;
        let cards = view["saved_cards"].as_array().cloned().unwrap_or_default();
        (!cards.is_empty()).then_some(cards)
    })
    .await;
    assert_eq!(saved.len(), 1);
    assert_eq!(saved[0]["brand"], "visa");
    assert_eq!(saved[0]["last4"], "4242");
    assert_eq!(saved[0]["expiry_month"], 12);
    assert_eq!(saved[0]["expiry_year"], 2030);
    let shown = saved[0].to_string();
    assert!(
        !shown.contains("tok") && !shown.contains("424242424242"),
        "{shown}"
    );

    let body = json!({
        "saved_card_id": saved[0]["id"],
        "billing_address": {"country": "JP", "postal_code": "100-0001"},
        "browser_info": browser_info(),
    });
    let reply = h.pay(&second, &body, None).await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_eq!(reply.json["next_action"], "none", "{}", reply.text);
    assert_eq!(reply.json["result"]["state"], "captured");
    assert_eq!(reply.json["result"]["amount"], 2500);
    let payment = h
        .payment(reply.json["result"]["payment_id"].as_str().expect("id"))
        .await;
    assert_eq!(payment["kind"], "token_payment");
    assert_eq!(payment["saved_card_id"], saved[0]["id"]);
    assert_eq!(payment["card"]["last4"], "4242");
    assert_eq!(
        h.gateway_records(&second.reference, RecordKind::Purchase),
        1
    );
    let stored = h.store().list_cards(&customer).await.expect("cards");
    assert_eq!(stored.len(), 1);
}

async fn saved_cards_need_a_customer_and_stay_private(h: &Harness) {
    let anonymous = h.session(500, json!({})).await;
    assert_eq!(h.view(&anonymous).await["can_save_card"], false);
    let mut body = pay_body(cards::VISA_OK, "123");
    body["save_card"] = json!(true);
    h.pay(&anonymous, &body, None)
        .await
        .assert_error(400, "invalid_field", Some("save_card"));

    // Another customer's card id is unknown to this session.
    let owner = format!("cust-{}", uuid::Uuid::new_v4().simple());
    let card = h
        .store()
        .save_card(NewSavedCard {
            customer_id: owner,
            gateway_token: secrecy::SecretString::from("token-of-someone-else".to_owned()),
            brand: checkout::card::Brand::Visa,
            last4: Last4::new("4242").expect("last4"),
            expiry_month: 12,
            expiry_year: 2030,
            card_fingerprint: None,
            saved_from: None,
        })
        .await
        .expect("saved");
    let other = h
        .session(500, json!({"customer_id": "somebody-else"}))
        .await;
    let body = json!({
        "saved_card_id": card.id,
        "billing_address": {"country": "JP", "postal_code": "1"},
        "browser_info": browser_info(),
    });
    h.pay(&other, &body, None)
        .await
        .assert_error(400, "unknown_saved_card", Some("saved_card_id"));
    assert_eq!(h.gateway_charges(&other.reference), 0);
}
