//! What every scenario shares: the machine's tools, the three browser engines through their
//! WebDriver servers, the real server processes, a second origin, the page helpers, and the
//! back-office views.

pub mod browser;
pub mod capabilities;
pub mod cdp;
pub mod dashboard;
pub mod display;
pub mod driver;
pub mod embed_pages;
pub mod engine;
pub mod every_engine;
pub mod example_site;
pub mod form;
pub mod framing_pages;
pub mod holding_proxy;
pub mod keys;
pub mod merchant;
pub mod net;
pub mod page;
pub mod partner;
pub mod pointer;
pub mod server;
pub mod shop;
pub mod site;
pub mod tools;

use std::future::Future;

use engine::Engine;
pub use page::Page;

/// Runs a Chromium-only scenario (one that needs DevTools or Chromium's console log): see
/// [`run_in`].
pub async fn run<F, Fut>(scenario: &'static str, body: F)
where
    F: FnOnce(Page) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    run_in(Engine::Chromium, scenario, body).await;
}

/// Runs one scenario in `engine`: takes a slot, opens the browser, runs `body` with the page,
/// and always closes the browser, even when `body` panics (the panic is then re-raised).
/// Without the engine's tools it returns at once after the loud skip notice.
pub async fn run_in<F, Fut>(engine: Engine, scenario: &'static str, body: F)
where
    F: FnOnce(Page) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let Some(tools) = engine.tools() else {
        return;
    };
    tools::require_dist();
    let _slot = browser::Slots::take();
    let browser = browser::Browser::open(engine, &tools).await;
    let page = Page::new(browser.client.clone(), engine, scenario);
    let outcome = tokio::spawn(body(page)).await;
    browser.close().await;
    if let Err(error) = outcome {
        match error.try_into_panic() {
            Ok(panic) => std::panic::resume_unwind(panic),
            Err(error) => panic!("scenario {scenario} in {engine:?} did not finish: {error}"),
        }
    }
}
