//! The checkout form as a shopper fills it: the stable ids of the component's inputs
//! (`src/ui/field_kind.rs`) and the steps every scenario repeats.

use super::page::Page;

/// Input ids, as the component renders them.
pub mod ids {
    /// Cardholder name.
    pub const NAME: &str = "#cc-name";
    /// Card number.
    pub const NUMBER: &str = "#cc-number";
    /// `MM / YY`.
    pub const EXPIRY: &str = "#cc-exp";
    /// Security code.
    pub const CVC: &str = "#cc-csc";
    /// Billing country (a select).
    pub const COUNTRY: &str = "#billing-country";
    /// Billing postal code.
    pub const POSTAL_CODE: &str = "#billing-postal-code";
    /// The pay button.
    pub const SUBMIT: &str = "#cc-submit";
    /// The detected brand.
    pub const BRAND: &str = "#cc-brand";
    /// The result view.
    pub const RESULT: &str = "#cc-result";
    /// "Save this card".
    pub const SAVE_CARD: &str = "#cc-save";
}

/// A card as the shopper types it.
#[derive(Debug, Clone, Copy)]
pub struct Card<'a> {
    /// Name on the card.
    pub name: &'a str,
    /// Digits only; the form groups them.
    pub number: &'a str,
    /// `MMYY`; the form inserts the slash.
    pub expiry: &'a str,
    /// Security code.
    pub cvc: &'a str,
}

impl<'a> Card<'a> {
    /// A card with the suite's usual name, a far expiry and a three-digit CVC.
    pub const fn test(number: &'a str) -> Self {
        Self {
            name: "Ada Lovelace",
            number,
            expiry: "1234",
            cvc: "123",
        }
    }
}

/// Waits for the form, then types every card field.
pub async fn type_card(page: &Page, card: Card<'_>) {
    page.find_ready(ids::NUMBER).await;
    page.type_into(ids::NAME, card.name).await;
    page.type_into(ids::NUMBER, card.number).await;
    page.type_into(ids::EXPIRY, card.expiry).await;
    page.type_into(ids::CVC, card.cvc).await;
}

/// Picks the billing country (by its code) and types the postal code, when the form asks.
pub async fn fill_billing(page: &Page, country: &str, postal_code: &str) {
    if let Some(select) = page.try_find(ids::COUNTRY).await {
        select
            .select_by_value(country)
            .await
            .unwrap_or_else(|e| panic!("pick country {country}: {e}"));
    }
    if page.try_find(ids::POSTAL_CODE).await.is_some() {
        page.type_into(ids::POSTAL_CODE, postal_code).await;
    }
}

/// Types a card that pays at once (`4242…`) over the number the form holds, and the rest of a
/// test card where the form holds nothing (after a decline or Back from the bank's page the
/// browser may have kept what was typed), with `country` and `postal_code` when the billing
/// fields are empty.
pub async fn retype_card(page: &Page, country: &str, postal_code: &str) {
    page.find_ready(ids::NUMBER).await;
    page.clear_by_keys(ids::NUMBER).await;
    page.type_into(ids::NUMBER, "4242424242424242").await;
    let card = Card::test("4242424242424242");
    for (field, value) in [
        (ids::NAME, card.name),
        (ids::EXPIRY, card.expiry),
        (ids::CVC, card.cvc),
    ] {
        if is_empty(page, field).await {
            page.type_into(field, value).await;
        }
    }
    if is_empty(page, ids::POSTAL_CODE).await {
        fill_billing(page, country, postal_code).await;
    }
}

async fn is_empty(page: &Page, css: &str) -> bool {
    page.prop(css, "value").await.unwrap_or_default().is_empty()
}

/// Clicks Pay.
pub async fn pay(page: &Page) {
    page.click(ids::SUBMIT).await;
}
