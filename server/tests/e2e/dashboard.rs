//! Scenario: the shop's staff in the dashboard, in Chromium. A shopper pays in the demo shop;
//! the admin login the server's banner printed opens the dashboard, where the payment is found
//! by its card's last four, part of it is refunded through the confirmation step with the
//! keyboard alone, and the timeline shows it. A viewer (added with `checkout-server users
//! add`) sees the payment without any action. Every field of the pages visited has a label.

use std::time::Duration;

use fantoccini::key::Key;

use crate::support::dashboard::{Dashboard, add_staff, every_field_is_labelled};
use crate::support::form::{Card, fill_billing, pay, type_card};
use crate::support::shop::DemoShop;
use crate::support::{Page, run};

/// The frictionless 3-D Secure card: paid without a challenge.
const FRICTIONLESS_CARD: &str = "4000000000001000";
const VIEWER: &str = "viewer@shop.example";
const VIEWER_PASSWORD: &str = "viewer password for the e2e suite";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "end-to-end: needs dist/ and Chromium; run by scripts/test.sh"]
async fn an_operator_finds_a_payment_by_last_four_and_refunds_part_of_it() {
    run("dashboard", |page: Page| async move {
        let shop = DemoShop::start();
        let session = shop.buy(&page, "tshirt").await;
        type_card(&page, Card::test(FRICTIONLESS_CARD)).await;
        fill_billing(&page, "DE", "10115").await;
        pay(&page).await;
        let payment = shop
            .merchant
            .wait_payment_state(&session, "captured", Duration::from_secs(30))
            .await;
        let payment_id = payment["id"].as_str().expect("payment id").to_owned();

        // The banner names the dashboard and the admin login generated for this run.
        let dashboard = Dashboard::of(&shop.server);
        dashboard.log_in_as_admin(&page).await;

        // Find the payment by the card's last four, with the filter form.
        page.click("header nav a[href='/payments']").await;
        page.wait_text("main", "Card last four").await;
        every_field_is_labelled(&page, "payments").await;
        page.click("#last4").await;
        page.type_focused("1000").await;
        page.press(Key::Enter).await;
        page.wait_text("main", "Card last four").await;
        assert!(
            page.url().await.contains("last4=1000"),
            "{}",
            page.url().await
        );
        page.click(&format!("a[href='/payments/{payment_id}']"))
            .await;
        page.wait_text("main", "Refund amount").await;
        every_field_is_labelled(&page, "payment").await;

        // Refund part of it, keyboard only: replace the amount offered (all that is left),
        // Enter, then confirm with Enter.
        page.clear_by_keys("#refund-amount").await;
        page.type_focused("5.00").await;
        page.press(Key::Enter).await;
        page.wait_text("main", "Yes, refund").await;
        page.eval("document.querySelector('main form button.danger').focus(); return null;")
            .await;
        page.press(Key::Enter).await;
        page.wait_text("main", "Refund done.").await;
        // README's screenshot (docs/img/dashboard.png) is taken from here.
        page.screenshot("refunded").await;
        let timeline = page.text("main").await;
        assert!(
            timeline.contains("refund 5.00") && timeline.contains(&dashboard.admin_email),
            "the timeline shows the refund and who made it:\n{timeline}"
        );
        let after = shop
            .merchant
            .get(&format!("/v1/payments/{payment_id}"))
            .await;
        assert_eq!(after["state"], "partially_refunded", "{after}");
        assert_eq!(after["refunded_amount"], 500, "{after}");

        // A viewer sees the payment, and no action.
        add_staff(&shop.server, VIEWER, "viewer", VIEWER_PASSWORD);
        page.click("header form button").await;
        page.wait_text("main", "Log in").await;
        dashboard.log_in(&page, VIEWER, VIEWER_PASSWORD).await;
        page.goto(&format!("{}/payments/{payment_id}", dashboard.address))
            .await;
        page.wait_text("main", "partially refunded").await;
        assert_eq!(
            page.count("main form[method=post]").await,
            0,
            "a viewer's actions"
        );
    })
    .await;
}
