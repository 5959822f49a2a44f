//! A payment link's terms as its payer meets them on the hosted page (Chromium): the price in
//! the page's language exactly as the browser's `Intl` writes it (as the card form does), in
//! every one of the 13 languages; a quantity whose total (and the pay button) follows the
//! payer's choice and is what the server charges; a link that sends the payer back to the
//! shop's page with what the shop needs to find the payment; and a link carrying a plan, which
//! signs the payer up, the subscription then in the dashboard.

use serde_json::{Value, json};

use crate::payment_link::tea_link;
use crate::support::dashboard::Dashboard;
use crate::support::form::{Card, fill_billing, pay, type_card};
use crate::support::shop::{DemoShop, query_param};
use crate::support::site::{StaticSite, dist};
use crate::support::{Page, axe, run};

const FRICTIONLESS_CARD: &str = "4000000000001000";
const LANGUAGES: [&str; 13] = [
    "en", "de", "fr", "es", "it", "nl", "pt", "pl", "sv", "ja", "zh", "ar", "he",
];

/// The text of `css` as the page has it (no white space folded, unlike WebDriver's text).
async fn raw_text(page: &Page, css: &str) -> String {
    let script = format!("return document.querySelector({css:?}).textContent;");
    page.eval(&script)
        .await
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// `decimal` of `currency` as this browser's `Intl` writes it in `lang` (js/intl.js's options).
async fn intl(page: &Page, lang: &str, currency: &str, digits: u8, decimal: &str) -> String {
    let script = format!(
        "return new Intl.NumberFormat({lang:?}, {{ style: 'currency', currency: {currency:?}, \
         minimumFractionDigits: {digits}, maximumFractionDigits: {digits} }}).format({decimal:?});"
    );
    page.eval(&script)
        .await
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// Pays the open page with a frictionless card and waits for where it goes next.
async fn pay_frictionless(page: &Page) {
    page.type_into("#hp-email", "payer@example.com").await;
    type_card(page, Card::test(FRICTIONLESS_CARD)).await;
    fill_billing(page, "DE", "10115").await;
    pay(page).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "end-to-end: needs dist/ and Chromium; run by scripts/test.sh"]
async fn the_price_is_the_browsers_in_every_language_and_the_total_follows_the_quantity() {
    run("payment-link-quantity", |page: Page| async move {
        let shop = DemoShop::start();
        let (one, _) = tea_link(&shop, json!({ "amount": 123_450 })).await;
        for lang in LANGUAGES {
            page.goto(&format!("{one}?lang={lang}")).await;
            let shown = raw_text(&page, "#hp-price").await;
            let browser = intl(&page, lang, "EUR", 2, "1234.50").await;
            assert_eq!(shown, browser, "{lang}: the page's price is the browser's");
        }

        let (url, link_id) = tea_link(&shop, json!({ "quantity_max": 5 })).await;
        page.goto(&format!("{url}?lang=de")).await;
        let unit = intl(&page, "de", "EUR", 2, "12.50").await;
        assert_eq!(
            raw_text(&page, "#hp-price").await,
            format!("{unit} pro Stück")
        );
        page.find_ready("#hp-total").await;
        assert_eq!(
            raw_text(&page, "#hp-total-amount").await,
            unit,
            "one at first"
        );
        page.clear_by_keys("#hp-quantity").await;
        page.until("no total without a quantity", || async {
            (page.attr("#hp-total", "hidden").await.is_some()).then_some(())
        })
        .await;
        page.type_into("#hp-quantity", "3").await;
        let total = intl(&page, "de", "EUR", 2, "37.50").await;
        page.until("the total of three", || async {
            (raw_text(&page, "#hp-total-amount").await == total).then_some(())
        })
        .await;
        let button = raw_text(&page, "#cc-submit").await;
        assert!(
            button.contains(&total),
            "the button names the total: {button}"
        );
        page.screenshot("three").await;
        let found = axe::violations(&page, &["body"]).await;
        assert!(
            found.is_empty(),
            "axe-core with the total shown: {found:#?}"
        );
        pay_frictionless(&page).await;
        page.find("#hp-receipt").await;
        let receipt = raw_text(&page, "#hp-receipt").await;
        assert!(
            receipt.contains(&total),
            "the receipt's amount, in German: {receipt}"
        );
        let payment_id = page.text("#hp-payment-id").await;
        let payment = shop
            .merchant
            .get(&format!("/v1/payments/{payment_id}"))
            .await;
        assert_eq!(
            payment["amount"], 3750,
            "charged what the page said: {payment}"
        );
        assert_eq!(payment["payment_link_id"], link_id.as_str(), "{payment}");

        // An amount of the payer's, times the quantity: no total until the amount is one the
        // link takes.
        let (chosen, _) = tea_link(
            &shop,
            json!({ "amount": null, "min_amount": 500, "max_amount": 5000, "quantity_max": 5 }),
        )
        .await;
        page.goto(&format!("{chosen}?lang=en")).await;
        page.find_ready("#hp-quantity").await;
        page.type_into("#hp-amount", "99").await;
        page.clear_by_keys("#hp-quantity").await;
        page.type_into("#hp-quantity", "2").await;
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        assert!(
            page.attr("#hp-total", "hidden").await.is_some(),
            "no total for an amount out of bounds"
        );
        page.clear_by_keys("#hp-amount").await;
        page.type_into("#hp-amount", "25").await;
        let total = intl(&page, "en", "EUR", 2, "50.00").await;
        page.until("the total of two at 25", || async {
            (raw_text(&page, "#hp-total-amount").await == total).then_some(())
        })
        .await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "end-to-end: needs dist/ and Chromium; run by scripts/test.sh"]
async fn a_payer_lands_on_the_shops_page_with_what_finds_the_payment() {
    run("payment-link-redirect", |page: Page| async move {
        let shop = DemoShop::start();
        let thanks = "<!doctype html><html lang=\"en\"><title>Thanks</title>\
                      <h1 id=\"thanks\">Thank you for your order</h1></html>";
        let site = StaticSite::start(&dist(), vec![("/thanks.html", thanks.to_owned())]);
        let page_url = format!("{}/thanks.html?order=7", site.base);
        let (url, link_id) = tea_link(&shop, json!({ "redirect_url": page_url })).await;
        page.goto(&url).await;
        pay_frictionless(&page).await;
        page.wait_text("#thanks", "Thank you").await;
        let landed = page.url().await;
        assert!(
            landed.starts_with(&format!("{}/thanks.html?order=7&", site.base)),
            "{landed}"
        );
        page.screenshot("shop").await;
        let param = |name: &str| {
            query_param(&landed, name).unwrap_or_else(|| panic!("no `{name}` in {landed}"))
        };
        assert_eq!(param("payment_link_id"), link_id);
        // What the shop does with them: the payment, and the session it belongs to.
        let payment: Value = shop
            .merchant
            .get(&format!("/v1/payments/{}", param("payment_id")))
            .await;
        assert_eq!(payment["state"], "captured", "{payment}");
        assert_eq!(payment["payment_link_id"], link_id.as_str(), "{payment}");
        assert_eq!(
            payment["session_id"],
            param("session_id").as_str(),
            "{payment}"
        );
        let session = shop
            .merchant
            .get(&format!("/v1/sessions/{}", param("session_id")))
            .await;
        assert_eq!(session["payment_link_id"], link_id.as_str(), "{session}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "end-to-end: needs dist/ and Chromium; run by scripts/test.sh"]
async fn a_payer_signs_up_through_a_plans_link_and_staff_see_the_subscription() {
    run("payment-link-plan", |page: Page| async move {
        let shop = DemoShop::start();
        let (url, link_id) = tea_link(
            &shop,
            json!({ "description": "Monthly box", "amount": null, "currency": null,
                    "plan_id": "demo-monthly" }),
        )
        .await;
        page.goto(&format!("{url}?lang=en")).await;
        let item = page.text("#hp-item").await;
        assert!(item.contains("Monthly box"), "{item}");
        let price = raw_text(&page, "#hp-price").await;
        assert_eq!(
            price,
            intl(&page, "en", "JPY", 0, "980").await,
            "the plan's price"
        );
        pay_frictionless(&page).await;
        page.wait_text("#hp-status", "Payment successful").await;
        let payment_id = page.text("#hp-payment-id").await;
        let payment = shop
            .merchant
            .get(&format!("/v1/payments/{payment_id}"))
            .await;
        assert_eq!(payment["payment_link_id"], link_id.as_str(), "{payment}");
        let subscription_id = payment["subscription_id"]
            .as_str()
            .unwrap_or_else(|| panic!("the payment started a subscription: {payment}"))
            .to_owned();
        page.screenshot("receipt").await;

        let dashboard = Dashboard::of(&shop.server);
        dashboard.log_in_as_admin(&page).await;
        page.goto(&format!("{}/subscriptions", dashboard.address))
            .await;
        let row = format!("main a[href='/subscriptions/{subscription_id}']");
        page.find(&row).await;
        page.screenshot("dashboard").await;
        page.click(&row).await;
        page.wait_text("main", "demo-monthly").await;
        let shown = page.text("main").await;
        assert!(shown.contains(&payment_id), "the first payment: {shown}");
    })
    .await;
}
