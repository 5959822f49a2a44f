//! Scenario: an admin's round of the dashboard pages that have no other browser test. The
//! shop has a webhook endpoint (added through the merchant API) and a subscriber (a plan
//! bought in the demo shop). The admin sets up two-factor sign-in on the account page (the
//! code computed from the key the page shows, as an authenticator app would), signs out and in
//! again with the password and a code, opens the subscriptions list and the subscription,
//! pauses it through the confirmation step with the keyboard alone, and opens the webhooks
//! page and the endpoint. Every field of every page visited has a label.

use std::time::Duration;

use fantoccini::key::Key;
use serde_json::json;
use totp_rs::{Builder, Secret};

use crate::support::dashboard::{Dashboard, every_field_is_labelled};
use crate::support::form::{Card, fill_billing, pay, type_card};
use crate::support::shop::DemoShop;
use crate::support::{Page, run};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "end-to-end: needs dist/ and Chromium; run by scripts/test.sh"]
async fn an_admin_sets_up_two_factor_then_pauses_a_subscription_and_reads_webhooks() {
    run("dashboard-admin", |page: Page| async move {
        let shop = DemoShop::start();
        let endpoint_url = format!("{}webhooks", shop.home());
        let endpoint = shop
            .merchant
            .post("/v1/webhook_endpoints", json!({"url": endpoint_url}))
            .await;
        let endpoint_id = endpoint["id"].as_str().expect("endpoint id").to_owned();
        let subscription_id = subscribe(&shop, &page).await;

        let dashboard = Dashboard::of(&shop.server);
        dashboard.log_in_as_admin(&page).await;
        let key = set_up_two_factor(&page, &dashboard).await;

        // Sign out, then in again: the password, then a code of the next time step (the
        // one just used to turn it on is never accepted twice).
        page.click("header form button").await;
        page.wait_text("main", "Log in").await;
        page.goto(&format!("{}/login", dashboard.address)).await;
        page.click("#email").await;
        page.type_focused(&dashboard.admin_email).await;
        page.press(Key::Tab).await;
        page.type_focused(&dashboard.admin_password).await;
        page.press(Key::Enter).await;
        page.wait_text("main", "Code from your authenticator app")
            .await;
        every_field_is_labelled(&page, "login code").await;
        page.click("#code").await;
        page.type_focused(&code_at(&key, unix_now() + 30)).await;
        page.press(Key::Enter).await;
        page.wait_text("h1", "Overview").await;

        // Subscriptions: the list, the subscription, pause it with the keyboard.
        page.click("nav a[href='/subscriptions']").await;
        page.wait_text("main", "Apply filters").await;
        every_field_is_labelled(&page, "subscriptions").await;
        page.click(&format!("main a[href='/subscriptions/{subscription_id}']"))
            .await;
        page.wait_text("main", "Billing history").await;
        every_field_is_labelled(&page, "subscription").await;
        focus(&page, "main form[action$='/pause'] button").await;
        page.press(Key::Enter).await;
        page.wait_text("main", "Yes, pause").await;
        every_field_is_labelled(&page, "pause confirmation").await;
        focus(&page, "main form button.danger").await;
        page.press(Key::Enter).await;
        page.wait_text("main", "Paused.").await;
        let paused = shop
            .merchant
            .get(&format!("/v1/subscriptions/{subscription_id}"))
            .await;
        assert_eq!(paused["status"], "paused", "{paused}");
        let timeline = page.text("main").await;
        assert!(
            timeline.contains(&format!("by {}", dashboard.admin_email)),
            "the staff actions name who paused it:\n{timeline}"
        );

        // Webhooks: the endpoints with their health, then the endpoint.
        page.click("nav a[href='/webhooks']").await;
        page.wait_text("main", &endpoint_url).await;
        every_field_is_labelled(&page, "webhooks").await;
        page.click(&format!("main a[href='/webhooks/{endpoint_id}']"))
            .await;
        page.wait_text("main", "Rotate the secret").await;
        every_field_is_labelled(&page, "webhook endpoint").await;
        page.screenshot("endpoint").await;
    })
    .await;
}

/// Buys one of the demo shop's plans (one without a trial, if there is one) with a test
/// card; the subscription's id.
async fn subscribe(shop: &DemoShop, page: &Page) -> String {
    let catalogue = shop.catalogue().await;
    let plans = catalogue["plans"].as_array().cloned().unwrap_or_default();
    let plan = plans
        .iter()
        .find(|p| !p["trial_days"].is_u64())
        .or(plans.first())
        .unwrap_or_else(|| panic!("the demo catalogue has a plan: {catalogue}"));
    let plan_id = plan["id"].as_str().expect("plan id").to_owned();
    let session = shop.buy(page, &plan_id).await;
    type_card(page, Card::test("4242424242424242")).await;
    fill_billing(page, "DE", "10115").await;
    pay(page).await;
    shop.wait_result(page, "Payment successful").await;
    let first = shop
        .merchant
        .wait_payment_state(&session, "captured", Duration::from_secs(20))
        .await;
    first["subscription_id"]
        .as_str()
        .expect("the payment started a subscription")
        .to_owned()
}

/// Turns two-factor sign-in on from the account page, typing the current code of the key
/// the page shows; the key.
async fn set_up_two_factor(page: &Page, dashboard: &Dashboard) -> String {
    page.click("nav a[href='/account']").await;
    page.wait_text("main", "Set up two-factor sign-in").await;
    every_field_is_labelled(page, "account").await;
    page.click("main form[action='/account/two-factor/start'] button")
        .await;
    page.wait_text("main", "Key for manual entry").await;
    every_field_is_labelled(page, "account, set-up").await;
    assert_eq!(
        page.count("main figure svg[role=img]").await,
        1,
        "the QR code"
    );
    let key = page.text("main code.secret").await.replace(' ', "");
    page.click("#code").await;
    page.type_focused(&code_at(&key, unix_now())).await;
    page.press(Key::Enter).await;
    page.wait_text("main", "Two-factor sign-in is on.").await;
    assert_eq!(page.count("main ul.recovery-codes li").await, 10);
    assert!(
        page.url().await.starts_with(&dashboard.address),
        "{}",
        page.url().await
    );
    key
}

/// Moves the keyboard focus to `css`.
async fn focus(page: &Page, css: &str) {
    page.find(css).await;
    let script = format!("document.querySelector({css:?}).focus(); return null;");
    page.eval(&script).await;
}

/// Seconds since 1970.
fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("after 1970")
        .as_secs()
}

/// The code of `key` (base32) at `unix` seconds, as an authenticator app computes it.
fn code_at(key: &str, unix: u64) -> String {
    let secret = Secret::try_from_base32(key).expect("base32 key");
    Builder::new()
        .with_secret(secret)
        .build()
        .expect("RFC 6238 parameters")
        .generate(unix)
        .to_string()
}
