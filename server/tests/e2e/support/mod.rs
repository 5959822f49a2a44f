//! What every scenario shares: the machine's tools, the three browser engines through their
//! WebDriver servers, the real server processes, a second origin, the page helpers, and the
//! back-office views.

pub mod axe;
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
pub mod time_limits;
pub mod tools;
pub mod top_frame;

use std::future::Future;

use tokio::time::timeout;

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
/// and always closes the browser, even when `body` panics (the panic is then re-raised) or
/// outlives its time limit (support/time_limits.rs: then it fails with what can still be seen
/// of the page). Without the engine's tools it returns at once after the loud skip notice.
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
    let Ok(browser) = timeout(time_limits::OPEN, browser::Browser::open(engine, &tools)).await
    else {
        panic!(
            "{engine:?} did not start within {:?} for scenario {scenario}",
            time_limits::OPEN
        );
    };
    let page = Page::new(browser.client.clone(), engine, scenario);
    let running = tokio::spawn(body(page.clone()));
    let stopper = running.abort_handle();
    let outcome = match timeout(time_limits::SCENARIO, running).await {
        Ok(joined) => Ok(joined),
        Err(_) => {
            stopper.abort();
            Err(time_limits::last_look(&page.client, page.label()).await)
        }
    };
    let _ = timeout(time_limits::LAST_LOOK, browser.close()).await;
    match outcome {
        Ok(Ok(())) => {}
        Ok(Err(error)) => match error.try_into_panic() {
            Ok(panic) => std::panic::resume_unwind(panic),
            Err(error) => panic!("scenario {scenario} in {engine:?} did not finish: {error}"),
        },
        Err(seen) => panic!(
            "scenario {scenario} in {engine:?} did not finish within {:?}; what could still be \
             seen of it: {}",
            time_limits::SCENARIO,
            seen
        ),
    }
}
