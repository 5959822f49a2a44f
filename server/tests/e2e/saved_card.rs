//! Scenario 5: the shopper saves their card on a first purchase; on the second purchase the
//! saved card is offered (brand, last four, expiry) and pays in one click, without typing a
//! card, a security code or the billing address (the card keeps the one it was saved with, and
//! the gateway is sent it). On a third, opened while the component's wasm is held back, the
//! saved card is already offered and chosen in the form the frame document carries as HTML,
//! its billing fields hidden; the shopper picks a new card instead (the card and billing
//! fields show) and starts typing it, and the component takes both over.

use std::time::Duration;

use crate::support::form::{Card, fill_billing, ids, pay, type_card};
use crate::support::shop::DemoShop;
use crate::support::{Page, run};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "end-to-end: needs dist/ and Chromium; run by scripts/test.sh"]
async fn a_saved_card_pays_the_second_purchase_in_one_click() {
    run("saved-card", |page: Page| async move {
        let shop = DemoShop::start();
        let first = shop.buy(&page, "teapot").await;
        type_card(&page, Card::test("4242424242424242")).await;
        fill_billing(&page, "JP", "100-0001").await;
        page.click(ids::SAVE_CARD).await;
        assert_eq!(
            page.prop(ids::SAVE_CARD, "checked").await.as_deref(),
            Some("true")
        );
        pay(&page).await;
        shop.wait_result(&page, "Payment successful").await;
        shop.merchant
            .wait_payment_state(&first, "captured", Duration::from_secs(20))
            .await;

        let customer = shop.customer_id(&page).await;
        let cards = page
            .until("the saved card in the merchant API", || async {
                let listed = shop
                    .merchant
                    .get(&format!("/v1/customers/{customer}/cards"))
                    .await;
                let cards = listed["data"].as_array().cloned().unwrap_or_default();
                (!cards.is_empty()).then_some(cards)
            })
            .await;
        assert_eq!(cards.len(), 1, "{cards:?}");
        assert_eq!(cards[0]["last4"], "4242");
        let card_id = cards[0]["id"].as_str().expect("card id").to_owned();

        let second = shop.buy(&page, "tshirt").await;
        let offered = page.wait_text("#cc-saved", "4242").await;
        assert!(
            offered.contains("Visa"),
            "brand and last four are shown: {offered}"
        );
        page.screenshot("saved-card-offered").await;
        page.click(&format!("#cc-saved-{card_id}")).await;
        for (what, css) in [("card", ids::NUMBER), ("billing", ids::COUNTRY)] {
            page.until(&format!("the {what} fields to step aside"), || async {
                let visible = match page.try_find(css).await {
                    Some(field) => field.is_displayed().await.unwrap_or(false),
                    None => false,
                };
                (!visible).then_some(())
            })
            .await;
        }
        // One click: no card, no security code, no billing address.
        pay(&page).await;
        shop.wait_result(&page, "Payment successful").await;
        page.screenshot("paid-with-saved-card").await;
        let paid = shop
            .merchant
            .wait_payment_state(&second, "captured", Duration::from_secs(20))
            .await;
        assert_eq!(paid["saved_card_id"], card_id.as_str(), "{paid}");
        assert_eq!(paid["card"]["last4"], "4242");
        let gateway_id = paid["gateway_transaction_id"].as_str().expect("gateway id");
        let billed = shop.emulator.billing_address(gateway_id).await;
        assert_eq!(
            (billed["country"].as_str(), billed["postal_code"].as_str()),
            (Some("JP"), Some("100-0001")),
            "the gateway gets the address the card was saved with: {billed}"
        );

        let proxy = shop.open_held(&page, "teapot").await;
        page.find("#cc-skeleton").await;
        let saved = format!("#cc-saved-{card_id}");
        assert_eq!(page.prop(&saved, "checked").await.as_deref(), Some("true"));
        assert!(page.text("#cc-saved").await.contains("Visa •••• 4242"));
        let number = page.find(ids::NUMBER).await;
        let country = page.find(ids::COUNTRY).await;
        assert!(!number.is_displayed().await.expect("displayed"));
        assert!(!country.is_displayed().await.expect("displayed"));
        page.click("#cc-saved-new").await;
        assert!(number.is_displayed().await.expect("displayed"));
        assert!(country.is_displayed().await.expect("displayed"));
        page.type_into(ids::NUMBER, "55555555").await;
        page.screenshot("new-card-typed-into-html").await;
        assert_eq!(page.count("#cc-skeleton").await, 1, "the wasm is held");

        proxy.release();
        page.until("the component to take over", || async {
            (page.count("#cc-skeleton").await == 0).then_some(())
        })
        .await;
        page.wait_attr(ids::BRAND, "data-brand", "mastercard").await;
        // The brand's mark beside the number and before the saved card (its SVG), its name
        // still the text for screen readers.
        for css in [ids::BRAND, ".cc-mark[data-brand=visa]"] {
            let image = page.css(css, "background-image").await.unwrap_or_default();
            assert!(image.contains("data:image/svg+xml"), "{css}: {image}");
        }
        assert_eq!(page.text(ids::BRAND).await, "Mastercard");
        assert_eq!(
            page.prop("#cc-saved-new", "checked").await.as_deref(),
            Some("true")
        );
        assert_eq!(page.prop(&saved, "checked").await.as_deref(), Some("false"));
        assert_eq!(
            page.prop(ids::NUMBER, "value").await.as_deref(),
            Some("5555 5555")
        );
        page.screenshot("new-card-taken-over").await;
        shop.server.assert_no_card_data(&["4242424242424242"]);
    })
    .await;
}
