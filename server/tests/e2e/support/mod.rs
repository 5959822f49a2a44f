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
    F: Fn(Page) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    run_in(Engine::Chromium, scenario, body).await;
}

/// Runs one scenario in `engine`: takes a slot, opens the browser, runs `body` with the page,
/// and always closes the browser, even when `body` panics (the panic is then re-raised) or
/// outlives its time limit (support/time_limits.rs: then it fails with what can still be seen
/// of the page). Without the engine's tools it returns at once after the loud skip notice.
///
/// When the limit passes because the WebDriver server itself stopped answering (not even the
/// page's address or a screenshot), the scenario runs once more, from its start, in a new
/// browser with a new driver, after a loud notice naming it. WebKitWebDriver wedges so now and
/// then, after a command that navigated the top window: on CI's machine in two runs in a row,
/// here in one of five runs of WebKit's scenarios beside two busy processes, each time in a
/// scenario that passes alone. A product that hangs a page still fails: the driver answers
/// those looks, and a second wedge fails the scenario.
pub async fn run_in<F, Fut>(engine: Engine, scenario: &'static str, body: F)
where
    F: Fn(Page) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let Some(tools) = engine.tools() else {
        return;
    };
    tools::require_dist();
    let _slot = browser::Slots::take();
    let failure = match attempt(engine, &tools, scenario, &body).await {
        Ended::Wedged(look) => {
            tools::loud(&format!(
                "{engine:?}'s WebDriver server stopped answering in scenario {scenario} ({}); \
                 its log: {}. The scenario runs once more in a new browser.",
                look.seen, look.driver_log
            ));
            attempt(engine, &tools, scenario, &body).await
        }
        ended => ended,
    };
    match failure {
        Ended::Passed => {}
        Ended::Panicked(panic) => std::panic::resume_unwind(panic),
        Ended::Cancelled(error) => {
            panic!("scenario {scenario} in {engine:?} did not finish: {error}")
        }
        Ended::TimedOut(look) | Ended::Wedged(look) => panic!(
            "scenario {scenario} in {engine:?} did not finish within {:?}; what could still be \
             seen of it: {}; its driver's log: {}",
            time_limits::SCENARIO,
            look.seen,
            look.driver_log
        ),
    }
}

/// How one run of a scenario ended.
enum Ended {
    Passed,
    Panicked(Box<dyn std::any::Any + Send>),
    Cancelled(tokio::task::JoinError),
    /// Past its time limit, with the driver still answering.
    TimedOut(Stuck),
    /// Past its time limit, with the driver answering nothing.
    Wedged(Stuck),
}

/// What was seen of a scenario past its time limit.
struct Stuck {
    seen: String,
    driver_log: String,
}

/// One run of `body` in a new browser, always closed after.
async fn attempt<F, Fut>(
    engine: Engine,
    tools: &engine::Tools,
    scenario: &'static str,
    body: &F,
) -> Ended
where
    F: Fn(Page) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let Ok(browser) = timeout(time_limits::OPEN, browser::Browser::open(engine, tools)).await
    else {
        panic!(
            "{engine:?} did not start within {:?} for scenario {scenario}",
            time_limits::OPEN
        );
    };
    let page = Page::new(browser.client.clone(), engine, scenario);
    let running = tokio::spawn(body(page.clone()));
    let stopper = running.abort_handle();
    let ended = match timeout(time_limits::SCENARIO, running).await {
        Ok(Ok(())) => Ended::Passed,
        Ok(Err(error)) => match error.try_into_panic() {
            Ok(panic) => Ended::Panicked(panic),
            Err(error) => Ended::Cancelled(error),
        },
        Err(_) => {
            stopper.abort();
            let look = time_limits::last_look(&page.client, page.label()).await;
            let stuck = Stuck {
                seen: look.seen,
                driver_log: browser.driver_log_tail(),
            };
            if look.driver_answered {
                Ended::TimedOut(stuck)
            } else {
                Ended::Wedged(stuck)
            }
        }
    };
    let _ = timeout(time_limits::LAST_LOOK, browser.close()).await;
    ended
}
