//! Scenarios 1 and 2: a purchase in the demo shop with a 3-D Secure challenge card. The
//! shopper types the card (the brand appears as they type), pays, meets the issuer's page
//! (the emulator's ACS), approves in the dialog on the shop's page or rejects in the whole
//! window (`three-d-secure="redirect"`, landing back on the shop), and sees the confirmed
//! outcome. The merchant API must agree, and hold the gateway's webhook.

use std::time::Duration;

use crate::support::Page;
use crate::support::engine::Engine;
use crate::support::every_engine::every_engine;
use crate::support::form::{Card, fill_billing, ids, pay, type_card};
use crate::support::shop::DemoShop;
use crate::support::tools::save_readme_screenshot;

const CHALLENGE_CARD: &str = "4000002500003155";

every_engine!(
    challenge_approved_pays_and_the_merchant_sees_it_captured,
    "3ds-approved"
);

async fn challenge_approved_pays_and_the_merchant_sees_it_captured(page: Page) {
    let shop = DemoShop::start();
    let banner = shop.server.log_text();
    let origins = banner
        .lines()
        .find(|line| line.contains("shop origins:"))
        .unwrap_or_else(|| panic!("the banner names the allowed origins: {banner}"));
    assert!(
        origins.contains(shop.home().trim_end_matches('/'))
            && origins.contains("restart after changing it"),
        "{origins}"
    );
    let session = shop.buy(&page, "tshirt").await;
    page.screenshot("1-form").await;

    let card = Card::test(CHALLENGE_CARD);
    page.type_into(ids::NAME, card.name).await;
    page.type_into(ids::NUMBER, "4000").await;
    page.wait_attr(ids::BRAND, "data-brand", "visa").await;
    page.type_into(ids::NUMBER, &card.number[4..]).await;
    let shown = page.prop(ids::NUMBER, "value").await.unwrap_or_default();
    assert_eq!(
        shown, "4000 0025 0000 3155",
        "the number is grouped 4-4-4-4 as typed"
    );
    assert!(
        page.prop(ids::BRAND, "textContent")
            .await
            .is_some_and(|name| name.contains("Visa")),
        "the brand is named (for screen readers: the text is painted transparent)"
    );
    page.type_into(ids::EXPIRY, card.expiry).await;
    assert_eq!(
        page.prop(ids::EXPIRY, "value").await.as_deref(),
        Some("12 / 34")
    );
    page.type_into(ids::CVC, card.cvc).await;
    fill_billing(&page, "DE", "10115").await;
    let filled = page.screenshot("2-filled").await;
    if page.engine() == Engine::Chromium {
        save_readme_screenshot(&filled);
    }

    pay(&page).await;
    page.find_ready("#acs-approve").await;
    let acs = [
        page.text("#acs-card").await,
        page.text("#acs-merchant").await,
    ];
    assert!(
        acs[0].contains("3155"),
        "the issuer's page names the card's last four: {acs:?}"
    );
    assert!(
        acs[1].contains("Demo Shop"),
        "the issuer's page names the shop the form names (MERCHANT_NAME): {acs:?}"
    );
    page.screenshot("3-acs").await;
    page.click_in_dialog("#acs-approve").await;

    let result = shop.wait_result(&page, "Payment successful").await;
    assert!(
        result.contains("25.00"),
        "the amount paid is shown: {result}"
    );
    page.screenshot("4-paid").await;

    let payment = shop
        .merchant
        .wait_payment_state(&session, "captured", Duration::from_secs(20))
        .await;
    assert_eq!(payment["amount"], 2500);
    assert_eq!(payment["currency"], "EUR");
    assert_eq!(payment["card"]["last4"], "3155", "{payment}");
    let id = payment["id"].as_str().expect("payment id").to_owned();
    let with_webhooks = page
        .until("the merchant API to list the gateway's webhook", || async {
            let view = shop.merchant.get(&format!("/v1/payments/{id}")).await;
            let confirmed = view["webhooks"]
                .as_array()
                .is_some_and(|hooks| hooks.iter().any(|h| h["verdict"] == "confirmed"));
            confirmed.then_some(view)
        })
        .await;
    assert_eq!(with_webhooks["state"], "captured");
    shop.server.assert_no_card_data(&[CHALLENGE_CARD]);
}

every_engine!(challenge_rejected_shows_a_human_decline, "3ds-rejected");

/// In the whole window (`three-d-secure="redirect"`): the issuer's page, then the shop's landing
/// page with the result.
async fn challenge_rejected_shows_a_human_decline(page: Page) {
    let shop = DemoShop::start();
    let session = shop
        .buy_with(&page, "teapot", "three_d_secure=redirect")
        .await;
    type_card(&page, Card::test(CHALLENGE_CARD)).await;
    fill_billing(&page, "JP", "100-0001").await;
    pay(&page).await;
    page.click("#acs-reject").await;

    let result = shop.wait_result(&page, "Payment declined").await;
    assert!(
        result.contains("could not be verified"),
        "a human reason, not a code: {result}"
    );
    assert!(
        !result.contains("ERR") && !result.contains("response_code"),
        "{result}"
    );
    page.screenshot("declined").await;
    let payment = shop
        .merchant
        .wait_payment_state(&session, "declined", Duration::from_secs(20))
        .await;
    assert_eq!(
        payment["decline_code"], "authentication_failed",
        "{payment}"
    );
}
