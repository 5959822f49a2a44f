//! Saved cards: paying with one in one click, one that keeps its address asking for none, and
//! a new card saved.

use checkout::card::Brand;
use checkout::contract::{BillingField, PayRequest, SavedCard};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::Element;

use super::paid;
use crate::common::*;

fn saved(id: &str, brand: Brand, last4: &str, month: u8, year: u16) -> SavedCard {
    SavedCard {
        id: id.into(),
        brand,
        last4: last4.into(),
        expiry_month: month,
        expiry_year: year,
        billing_on_file: false,
    }
}

#[wasm_bindgen_test]
async fn pays_with_a_saved_card_in_one_click() {
    let cards = vec![
        saved("card_old", Brand::Visa, "1111", 1, 2020),
        saved("card_mc", Brand::Mastercard, "1005", 3, 2031),
    ];
    let (host, _handle) = mount_form(&session_view(vec![], cards)).await;
    let root: Element = host.clone().unchecked_into();
    assert_eq!(
        text(&root, "label[for=cc-saved-card_mc]"),
        "Mastercard •••• 1005 · expires 03/31"
    );
    assert!(get(&root, "#cc-saved-card_old").has_attribute("disabled"));
    let chosen: web_sys::HtmlInputElement = get(&root, "#cc-saved-card_mc").unchecked_into();
    assert!(chosen.checked());
    assert!(
        find(&root, "#cc-number").is_none(),
        "card fields hidden for a saved card"
    );
    route("POST", &pay_path(), 200, &paid());
    click(&root, "#cc-submit");
    until("paid", || find(&root, "#cc-result").is_some()).await;
    let sent = requests_to("POST", &pay_path());
    let body: PayRequest =
        serde_json::from_str(sent[0].body.as_deref().expect("body")).expect("body");
    assert_eq!(body.saved_card_id.as_deref(), Some("card_mc"));
    assert!(body.card.is_none() && !body.save_card);
    assert!(
        events(&host)
            .iter()
            .any(|e| e.kind == "submit" && e.detail["saved_card"] == true)
    );
}

#[wasm_bindgen_test]
async fn a_saved_card_that_keeps_its_address_asks_for_none() {
    let billing = vec![BillingField::Country, BillingField::PostalCode];
    let cards = vec![
        SavedCard {
            billing_on_file: true,
            ..saved("card_kept", Brand::Visa, "4242", 3, 2031)
        },
        saved("card_bare", Brand::Mastercard, "1005", 3, 2031),
    ];
    let (host, _handle) = mount_form(&session_view(billing, cards)).await;
    let root: Element = host.unchecked_into();
    // checkout.css hides the billing fields while a radio marked so is checked.
    let marked = |id: &str| get(&root, id).has_attribute("data-billing-on-file");
    assert!(marked("#cc-saved-card_kept"));
    assert!(!marked("#cc-saved-card_bare") && !marked("#cc-saved-new"));
    // Chosen and then left: a new card asks for the address (not sent: the form is empty).
    click(&root, "#cc-saved-new");
    until("card fields", || find(&root, "#cc-number").is_some()).await;
    click(&root, "#cc-submit");
    until("the address asked", || {
        get(&root, "#billing-country")
            .get_attribute("aria-invalid")
            .as_deref()
            == Some("true")
    })
    .await;
    click(&root, "#cc-saved-card_kept");
    route("POST", &pay_path(), 200, &paid());
    click(&root, "#cc-submit");
    until("paid", || find(&root, "#cc-result").is_some()).await;
    let sent = requests_to("POST", &pay_path());
    let body: PayRequest =
        serde_json::from_str(sent[0].body.as_deref().expect("body")).expect("body");
    assert_eq!(body.saved_card_id.as_deref(), Some("card_kept"));
    assert_eq!(
        body.billing_address,
        Default::default(),
        "the server's copy is used"
    );
}

#[wasm_bindgen_test]
async fn a_new_card_can_be_saved() {
    let cards = vec![saved("card_mc", Brand::Mastercard, "1005", 3, 2031)];
    let (host, _handle) = mount_form(&session_view(vec![], cards)).await;
    let root: Element = host.unchecked_into();
    click(&root, "#cc-saved-new");
    until("card fields", || find(&root, "#cc-number").is_some()).await;
    assert_eq!(
        text(&root, "label[for=cc-save]"),
        "Save this card for future payments"
    );
    fill_card(&root);
    click(&root, "#cc-save");
    route("POST", &pay_path(), 200, &paid());
    click(&root, "#cc-submit");
    until("paid", || find(&root, "#cc-result").is_some()).await;
    let sent = requests_to("POST", &pay_path());
    let body: PayRequest =
        serde_json::from_str(sent[0].body.as_deref().expect("body")).expect("body");
    assert!(body.save_card && body.card.is_some() && body.saved_card_id.is_none());
}
