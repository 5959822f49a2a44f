//! Scenario: the dashboard's overview in Chromium after the demo shop's payments. A shopper
//! pays one order and is declined on another (insufficient funds); the admin login the
//! banner printed opens the overview from the navigation, which shows the volume, the
//! approval rate and the decline reason, and draws its three charts as SVG, each with a
//! title and a description holding its numbers, and each with its numbers as a table too.

use std::time::Duration;

use crate::support::dashboard::Dashboard;
use crate::support::form::{Card, fill_billing, pay, type_card};
use crate::support::shop::DemoShop;
use crate::support::{Page, run};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "end-to-end: needs dist/ and Chromium; run by scripts/test.sh"]
async fn the_overview_charts_the_demo_payments() {
    run("overview", |page: Page| async move {
        let shop = DemoShop::start();
        let paid = shop.buy(&page, "tshirt").await;
        type_card(&page, Card::test("4000000000001000")).await;
        fill_billing(&page, "DE", "10115").await;
        pay(&page).await;
        shop.merchant
            .wait_payment_state(&paid, "captured", Duration::from_secs(30))
            .await;
        let declined = shop.buy(&page, "tshirt").await;
        type_card(&page, Card::test("4000000000009995")).await;
        fill_billing(&page, "DE", "10115").await;
        pay(&page).await;
        shop.merchant
            .wait_payment_state(&declined, "declined", Duration::from_secs(30))
            .await;

        Dashboard::of(&shop.server).log_in_as_admin(&page).await;

        page.click("header nav a[href='/']").await;
        let main = page.wait_text("main", "Approval rate").await;
        assert!(main.contains("50.0 %"), "one approved of two: {main}");
        assert!(main.contains("insufficient funds"), "{main}");
        page.screenshot("overview").await;

        let charts = page
            .eval(
                "return [...document.querySelectorAll('main figure.chart svg[role=img]')].map((svg) => {\
                   const [title, desc] = svg.getAttribute('aria-labelledby').split(' ')\
                     .map((id) => document.getElementById(id));\
                   const box = svg.getBoundingClientRect();\
                   return { id: svg.id, title: title && title.textContent, desc: desc && desc.textContent,\
                            inside: !!(title && desc && svg.contains(title) && svg.contains(desc)),\
                            drawn: box.width > 100 && box.height > 100 };\
                 });",
            )
            .await;
        let charts = charts.as_array().expect("a list of charts").clone();
        let ids: Vec<&str> = charts.iter().filter_map(|c| c["id"].as_str()).collect();
        assert_eq!(ids, ["chart-volume", "chart-approval", "chart-declines"], "{charts:?}");
        for chart in &charts {
            assert_eq!(chart["inside"], true, "title and desc inside the SVG: {chart}");
            assert_eq!(chart["drawn"], true, "drawn at a readable size: {chart}");
            assert!(
                chart["desc"].as_str().is_some_and(|d| d.chars().any(|c| c.is_ascii_digit())),
                "the description gives the numbers: {chart}"
            );
        }
        assert!(
            charts[2]["desc"]
                .as_str()
                .is_some_and(|d| d.contains("insufficient funds 1")),
            "{charts:?}"
        );
        // The same numbers as tables, for readers and screen readers alike.
        assert!(page.count("main details table").await >= 2, "tables of the charts");
        assert!(page.count("main table").await >= 4, "volume, 3-D Secure, declines, per day");
    })
    .await;
}
