//! Scenario: an admin blocks a card from its payment's page in the dashboard ("Block this
//! card"), and the shopper's next try with that card in the checkout form is refused before
//! the gateway with the one neutral refusal (not a decline: the shopper is not sent to their
//! bank for nothing), never naming the block list; the merchant sees the try `blocked` with the
//! rule `blocklist_card`.

use std::time::Duration;

use crate::support::Page;
use crate::support::dashboard::Dashboard;
use crate::support::every_engine::every_engine;
use crate::support::form::{Card, fill_billing, pay, type_card};
use crate::support::shop::DemoShop;

every_engine!(
    a_card_blocked_from_its_payment_is_refused_next_time,
    "blocked-card"
);

/// The shopper's text for every refusal before the gateway (`Msg::CardRefused`).
const NEUTRAL_REFUSAL: &str =
    "This card can't be used for this payment right now. Try another card or contact the shop.";

async fn a_card_blocked_from_its_payment_is_refused_next_time(page: Page) {
    let shop = DemoShop::start();
    let first = shop.buy(&page, "teapot").await;
    type_card(&page, Card::test("4242424242424242")).await;
    fill_billing(&page, "JP", "100-0001").await;
    pay(&page).await;
    shop.wait_result(&page, "Payment successful").await;
    let paid = shop
        .merchant
        .wait_payment_state(&first, "captured", Duration::from_secs(20))
        .await;
    let payment_id = paid["id"].as_str().expect("payment id").to_owned();

    let dashboard = Dashboard::of(&shop.server);
    dashboard.log_in_as_admin(&page).await;
    page.goto(&format!("{}/payments/{payment_id}", dashboard.address))
        .await;
    page.wait_text("main", "Block this card").await;
    page.click("main form[action$='/block_card'] button").await;
    page.wait_text("main", "Added to the block list.").await;
    page.screenshot("blocked-from-payment").await;

    let second = shop.buy(&page, "tshirt").await;
    type_card(&page, Card::test("4242424242424242")).await;
    fill_billing(&page, "JP", "100-0001").await;
    pay(&page).await;
    let alert = page.wait_text("#cc-alert", NEUTRAL_REFUSAL).await;
    for word in ["declined", "bank", "block", "risk", "rule"] {
        assert!(
            !alert.to_lowercase().contains(word),
            "the neutral refusal: {alert}"
        );
    }
    page.screenshot("refused").await;
    let blocked = shop
        .merchant
        .wait_payment_state(&second, "blocked", Duration::from_secs(20))
        .await;
    assert_eq!(blocked["risk_rule"], "blocklist_card", "{blocked}");
    assert!(blocked["gateway_transaction_id"].is_null(), "{blocked}");
}
