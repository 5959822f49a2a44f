//! Scenario: a clean load says nothing on the console. The demo shop's checkout page and the
//! card form's frame in it load, the component takes over the HTML form, and a few seconds
//! later (Chromium warns about unused preloads 3 s after the load event) the browser's log
//! holds no warning and no error: a shop's developer reads every one as a fault of theirs.

use std::time::Duration;

use crate::support::browser::console_log;
use crate::support::shop::DemoShop;
use crate::support::{Page, run};

/// Levels a clean load must not log at.
const NOISY: &[&str] = &["WARNING", "SEVERE"];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "end-to-end: needs dist/ and Chromium; run by scripts/test.sh"]
async fn a_clean_checkout_load_logs_no_warning() {
    run("clean-console", |page: Page| async move {
        let shop = DemoShop::start();
        shop.buy(&page, "teapot").await;
        page.until("the component in place of the HTML form", || async {
            (page.count("#cc-skeleton").await == 0).then_some(())
        })
        .await;
        tokio::time::sleep(Duration::from_secs(4)).await;
        let log = console_log(&page.client).await;
        for entry in &log {
            eprintln!("[console] {} {}", entry.level, entry.message);
        }
        let noisy: Vec<_> = log
            .iter()
            .filter(|entry| NOISY.contains(&entry.level.as_str()))
            .collect();
        assert!(
            noisy.is_empty(),
            "a clean load of the checkout page and its frame logged:\n{noisy:#?}"
        );
    })
    .await;
}
