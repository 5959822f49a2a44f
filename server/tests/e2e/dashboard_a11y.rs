//! Scenario: every page of the dashboard under axe-core, in the light theme and in the dark
//! one (the system setting, emulated through DevTools), in Chromium at a 1280 px window.
//! The demo shop pays one order and is declined on another, and the merchant API adds a
//! webhook endpoint and two block-list entries, so each page has something to show: the
//! overview with its charts and declines by reason, a paid and a declined payment (with the
//! block buttons), an event, an endpoint, the block lists, the audit log. At that width the
//! declines-by-reason table fits its column.

use std::time::Duration;

use serde_json::json;

use crate::support::dashboard::Dashboard;
use crate::support::form::{Card, fill_billing, pay, type_card};
use crate::support::shop::DemoShop;
use crate::support::{Page, axe, cdp, run};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "end-to-end: needs dist/ and Chromium; run by scripts/test.sh"]
async fn every_dashboard_page_passes_axe_in_both_themes() {
    run("dashboard-a11y", |page: Page| async move {
        let shop = DemoShop::start();
        let mut payments = Vec::new();
        for (card, state) in [
            ("4000000000001000", "captured"),
            ("4000000000000002", "declined"),
        ] {
            let session = shop.buy(&page, "tshirt").await;
            type_card(&page, Card::test(card)).await;
            fill_billing(&page, "DE", "10115").await;
            pay(&page).await;
            let payment = shop
                .merchant
                .wait_payment_state(&session, state, Duration::from_secs(30))
                .await;
            payments.push(payment["id"].as_str().expect("payment id").to_owned());
        }
        let endpoint = shop
            .merchant
            .post(
                "/v1/webhook_endpoints",
                json!({"url": "http://127.0.0.1:9/events", "description": "accessibility"}),
            )
            .await;
        let endpoint_id = endpoint["id"].as_str().expect("endpoint id").to_owned();
        shop.merchant
            .post(
                "/v1/risk/blocks",
                json!({"kind": "email_domain", "value": "fraud.example", "note": "accessibility"}),
            )
            .await;
        shop.merchant
            .post(
                "/v1/risk/blocks",
                json!({"kind": "card", "payment_id": payments[1]}),
            )
            .await;
        let events = shop.merchant.get("/v1/events").await;
        let event_id = events["data"][0]["id"]
            .as_str()
            .expect("an event")
            .to_owned();

        page.client
            .set_window_size(1280, 900)
            .await
            .expect("a 1280 px window");
        let dashboard = Dashboard::of(&shop.server);
        let pages = [
            "/".to_owned(),
            "/payments".to_owned(),
            format!("/payments/{}", payments[0]),
            format!("/payments/{}", payments[1]),
            "/review".to_owned(),
            "/subscriptions".to_owned(),
            "/webhooks".to_owned(),
            format!("/webhooks/{endpoint_id}"),
            "/webhooks/events".to_owned(),
            format!("/webhooks/events/{event_id}"),
            "/risk/blocks".to_owned(),
            "/audit".to_owned(),
            "/risk".to_owned(),
            "/account".to_owned(),
        ];
        let mut found = Vec::new();
        for theme in ["light", "dark"] {
            cdp::prefer_color_scheme(&page.client, theme).await;
            page.goto(&format!("{}/login", dashboard.address)).await;
            for violation in axe::violations(&page, &["body"]).await {
                found.push(format!("{theme} /login: {violation}"));
            }
            dashboard.log_in_as_admin(&page).await;
            for path in &pages {
                page.goto(&format!("{}{path}", dashboard.address)).await;
                page.wait_text("main", "").await;
                for violation in axe::violations(&page, &["body"]).await {
                    found.push(format!("{theme} {path}: {violation}"));
                }
            }
            page.goto(&format!("{}/", dashboard.address)).await;
            page.wait_text("main", "Share of declines").await;
            let overflow = page
                .eval(
                    "return [...document.querySelectorAll('main .table-wrap')]
                       .map((wrap) => wrap.scrollWidth - wrap.clientWidth);",
                )
                .await;
            assert!(
                overflow
                    .as_array()
                    .is_some_and(|px| px.iter().all(|px| px.as_f64().is_some_and(|px| px <= 1.0))),
                "{theme}: a table of the overview is wider than its column by {overflow} px"
            );
            page.screenshot(&format!("overview-{theme}")).await;
            page.goto(&format!("{}/logout", dashboard.address)).await;
            page.client.delete_all_cookies().await.expect("signed out");
        }
        assert!(found.is_empty(), "axe-core:\n{}", found.join("\n"));
    })
    .await;
}
