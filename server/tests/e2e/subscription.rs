//! Scenario 6: a subscription with a free trial and a discount. The shopper sees the terms
//! before paying, subscribes, and manages it under "My subscriptions": after the gateway's
//! clock has moved on, the billed cycles are listed (the reconciler polls them: the gateway
//! sends no webhook for cycles), then the shopper pauses, resumes and cancels it.

use std::time::Duration;

use crate::support::form::{Card, fill_billing, pay, type_card};
use crate::support::shop::DemoShop;
use crate::support::{Page, run};

const SUBSCRIPTION: &str = "article[data-testid=subscription]";

/// Clicks `action` on the (only) subscription and confirms; waits for `status`.
async fn act(page: &Page, action: &str, status: &str) {
    page.click(&format!("{SUBSCRIPTION} [data-testid={action}]"))
        .await;
    page.click(&format!("{SUBSCRIPTION} [data-testid=confirm]"))
        .await;
    page.wait_attr(SUBSCRIPTION, "data-status", status).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "end-to-end: needs dist/ and Chromium; run by scripts/test.sh"]
async fn subscription_with_trial_and_discount_is_managed_by_the_customer() {
    run("subscription", |page: Page| async move {
        let shop = DemoShop::start();
        let catalogue = shop.catalogue().await;
        let plan = catalogue["plans"]
            .as_array()
            .and_then(|plans| {
                plans
                    .iter()
                    .find(|p| p["trial_days"].is_u64() && p["discount"].is_object())
            })
            .unwrap_or_else(|| {
                panic!("the demo catalogue needs a plan with a trial and a discount: {catalogue}")
            });
        let plan_id = plan["id"].as_str().expect("plan id").to_owned();
        let session = shop.buy(&page, &plan_id).await;
        let terms = page.wait_text("#cc-plan", "free trial").await;
        assert!(
            terms.contains("% off"),
            "the discount is stated before paying: {terms}"
        );
        page.screenshot("terms").await;
        type_card(&page, Card::test("4242424242424242")).await;
        fill_billing(&page, "DE", "10115").await;
        pay(&page).await;
        shop.wait_result(&page, "Payment successful").await;
        let first = shop
            .merchant
            .wait_payment_state(&session, "captured", Duration::from_secs(20))
            .await;
        let subscription_id = first["subscription_id"]
            .as_str()
            .expect("the payment started a subscription")
            .to_owned();

        page.click("#nav-subscriptions").await;
        page.wait_attr(SUBSCRIPTION, "data-status", "active").await;
        assert_eq!(
            page.attr(SUBSCRIPTION, "data-id").await.as_deref(),
            Some(subscription_id.as_str())
        );
        page.screenshot("active").await;

        // Two months pass at the gateway; the reconciler records the cycles it billed (7-day
        // trial, then monthly: cycles on days 7 and 37, the third not before day 65).
        shop.emulator.advance_days(62).await;
        let cycles = page
            .until_for(
                "billed cycles in the merchant API",
                Duration::from_secs(30),
                || async {
                    let view = shop
                        .merchant
                        .get(&format!("/v1/subscriptions/{subscription_id}"))
                        .await;
                    let paid = view["history"].as_array().map_or(0, |history| {
                        history
                            .iter()
                            .filter(|charge| charge["status"] == "succeeded")
                            .count()
                    });
                    (paid >= 2).then_some(paid)
                },
            )
            .await;
        page.client
            .refresh()
            .await
            .expect("reload my subscriptions");
        let charges = page
            .until("the cycles in my subscriptions", || async {
                let rows = page.count("tr[data-testid=charge]").await;
                (rows >= cycles).then_some(rows)
            })
            .await;
        assert!(charges >= 2, "{charges} charges listed");
        page.screenshot("cycles").await;

        act(&page, "pause", "paused").await;
        page.screenshot("paused").await;
        act(&page, "resume", "active").await;
        act(&page, "cancel", "cancelled").await;
        page.screenshot("cancelled").await;
        let view = shop
            .merchant
            .get(&format!("/v1/subscriptions/{subscription_id}"))
            .await;
        assert_eq!(view["status"], "cancelled", "{view}");
    })
    .await;
}
