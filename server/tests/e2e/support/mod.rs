//! What every scenario shares: the machine's tools, Chromium through chromedriver, the real
//! server processes, a second origin, the page helpers, and the back-office views.

pub mod browser;
pub mod cdp;
pub mod embed_pages;
pub mod example_site;
pub mod form;
pub mod framing_pages;
pub mod holding_proxy;
pub mod merchant;
pub mod net;
pub mod page;
pub mod partner;
pub mod server;
pub mod shop;
pub mod site;
pub mod tools;

use std::future::Future;

pub use page::Page;

/// Runs one scenario: takes a slot, opens Chromium, runs `body` with the page, and always
/// closes the browser, even when `body` panics (the panic is then re-raised). Without the
/// browser tools it returns at once after the loud skip notice.
pub async fn run<F, Fut>(scenario: &'static str, body: F)
where
    F: FnOnce(Page) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let Some(tools) = tools::browser_tools() else {
        return;
    };
    tools::require_dist();
    let _slot = browser::Slots::take();
    let browser = browser::Browser::open(&tools).await;
    let page = Page::new(browser.client.clone(), scenario);
    let outcome = tokio::spawn(body(page)).await;
    browser.close().await;
    if let Err(error) = outcome {
        match error.try_into_panic() {
            Ok(panic) => std::panic::resume_unwind(panic),
            Err(error) => panic!("scenario {scenario} did not finish: {error}"),
        }
    }
}
