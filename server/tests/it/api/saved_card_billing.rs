//! A saved card pays in one click (issue 37 item 7): it keeps the billing address of the
//! payment it was saved from, the checkout view says so (`billing_on_file`), and a pay with it
//! that sends no address is charged with the kept one; a field the shopper did send wins. A
//! card saved without an address (before migration 0021) still needs one, named in the error.

use checkout_sandbox::ledger::RecordKind;
use checkout_server::store::prelude::*;
use secrecy::SecretString;
use serde_json::json;

use crate::api::customer_cards::{new_customer, save_card_by_paying};
use crate::api::support::{Harness, TestSession, api_suite, browser_info, of_session};

api_suite!(
    a_saved_card_pays_with_the_address_it_was_saved_with,
    a_card_saved_without_an_address_asks_for_one,
);

/// The billing address the gateway was sent for `session`'s token payment.
fn billed(h: &Harness, session: &TestSession) -> (Option<String>, Option<String>) {
    let records = h.sandbox.ledger.all();
    let record = records
        .iter()
        .find(|r| {
            of_session(&r.merchant.merchant_txn_ref, &session.reference)
                && r.kind == RecordKind::Purchase
        })
        .expect("the gateway charged the session");
    let address = &record.merchant.billing_address;
    (address.country.clone(), address.postal_code.clone())
}

async fn a_saved_card_pays_with_the_address_it_was_saved_with(h: &Harness) {
    let customer = new_customer();
    // Saved from a payment made with JP, 100-0001.
    let card = save_card_by_paying(h, &customer).await;

    let second = h.session(2100, json!({"customer_id": customer})).await;
    let shown = h.view(&second).await;
    assert_eq!(shown["saved_cards"][0]["id"], card["id"], "{shown}");
    assert_eq!(shown["saved_cards"][0]["billing_on_file"], true, "{shown}");
    let one_click = json!({"saved_card_id": card["id"], "browser_info": browser_info()});
    let paid = h.pay(&second, &one_click, None).await;
    assert_eq!(paid.json["result"]["state"], "captured", "{}", paid.text);
    assert_eq!(
        billed(h, &second),
        (Some("JP".into()), Some("100-0001".into()))
    );

    let third = h.session(900, json!({"customer_id": customer})).await;
    let mut moved = one_click.clone();
    moved["billing_address"] = json!({"postal_code": "150-0001"});
    let paid = h.pay(&third, &moved, None).await;
    assert_eq!(paid.json["result"]["state"], "captured", "{}", paid.text);
    assert_eq!(
        billed(h, &third),
        (Some("JP".into()), Some("150-0001".into())),
        "what the shopper sent wins, the rest is kept"
    );
    // The merchant API lists the card as before: no address there.
    let cards = h.store().list_cards(&customer).await.expect("cards");
    assert_eq!(cards.len(), 1);
}

async fn a_card_saved_without_an_address_asks_for_one(h: &Harness) {
    let customer = new_customer();
    let card = h
        .store()
        .save_card(NewSavedCard {
            customer_id: customer.clone(),
            gateway_token: SecretString::from("tok_without_address".to_owned()),
            brand: checkout::card::Brand::Visa,
            last4: Last4::new("4242").expect("last4"),
            expiry_month: 12,
            expiry_year: 2030,
            card_fingerprint: None,
            saved_from: None,
        })
        .await
        .expect("saved");
    let session = h.session(2100, json!({"customer_id": customer})).await;
    let shown = h.view(&session).await;
    assert_eq!(shown["saved_cards"][0]["id"], card.id.as_str(), "{shown}");
    assert!(
        shown["saved_cards"][0].get("billing_on_file").is_none(),
        "{shown}"
    );
    let no_address = json!({"saved_card_id": card.id, "browser_info": browser_info()});
    h.pay(&session, &no_address, None).await.assert_error(
        400,
        "required",
        Some("billing_address.country"),
    );
    assert_eq!(h.gateway_charges(&session.reference), 0);
}
