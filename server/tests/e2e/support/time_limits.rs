//! The time limits every scenario runs under, so an engine that stops answering fails its
//! scenario, with the address and a screenshot of the moment, instead of hanging the suite.
//!
//! Two layers: the WebDriver session's own timeouts (a page load or a script that takes too
//! long is an error the driver reports), and a limit on the whole scenario around all its
//! commands, because a wedged WebDriver server answers nothing at all (seen in WebKit, after
//! a command that navigated the top window: the session existed and no command returned for
//! minutes; support/mod.rs runs such a scenario once more). A scenario's own waits are 20 to 60 s (support/page/mod.rs),
//! far inside it.

use std::time::Duration;

use fantoccini::Client;
use serde_json::{Value, json};

use super::tools::screenshot_dir;

/// How long one page load may take before the driver reports it (WebDriver's default: 300 s).
const PAGE_LOAD: Duration = Duration::from_secs(60);
/// How long one script may run (WebDriver's default: 30 s, set here so every engine agrees).
const SCRIPT: Duration = Duration::from_secs(30);
/// How long starting a browser may take, its retries included (support/browser.rs).
pub const OPEN: Duration = Duration::from_secs(120);
/// How long one scenario may take, from its first command to its last.
pub const SCENARIO: Duration = Duration::from_secs(240);
/// How long each look at a hung session (address, screenshot) and its closing may take.
pub const LAST_LOOK: Duration = Duration::from_secs(10);

/// The `timeouts` capability (W3C WebDriver, "Timeouts"): page load and script limits, and no
/// implicit wait (every wait in the suite is explicit).
pub fn session_timeouts() -> Value {
    json!({
        "pageLoad": millis(PAGE_LOAD),
        "script": millis(SCRIPT),
        "implicit": 0,
    })
}

fn millis(limit: Duration) -> u64 {
    u64::try_from(limit.as_millis()).expect("a limit of some seconds")
}

/// What [`last_look`] could still see of a session that stopped answering.
pub struct LastLook {
    /// Its address and screenshot, or why each could not be had.
    pub seen: String,
    /// Whether the WebDriver server answered either look: when it answered neither, the
    /// driver itself is wedged, whatever the page was doing.
    pub driver_answered: bool,
}

/// What can still be seen of a session that stopped answering: its address, and a screenshot
/// saved as `screenshots/<label>-HUNG.png`, each given [`LAST_LOOK`].
pub async fn last_look(client: &Client, label: &str) -> LastLook {
    let asked_address = tokio::time::timeout(LAST_LOOK, client.current_url()).await;
    let asked_screenshot = tokio::time::timeout(LAST_LOOK, client.screenshot()).await;
    let driver_answered = asked_address.is_ok() || asked_screenshot.is_ok();
    let address = match asked_address {
        Ok(Ok(url)) => url.to_string(),
        Ok(Err(error)) => format!("unknown ({error})"),
        Err(_) => "unknown (the driver did not answer)".to_owned(),
    };
    let screenshot = match asked_screenshot {
        Ok(Ok(png)) => {
            let path = screenshot_dir().join(format!("{label}-HUNG.png"));
            match std::fs::write(&path, png) {
                Ok(()) => format!("see {}", path.display()),
                Err(error) => format!("could not write {}: {error}", path.display()),
            }
        }
        Ok(Err(error)) => format!("no screenshot ({error})"),
        Err(_) => "no screenshot (the driver did not answer)".to_owned(),
    };
    LastLook {
        seen: format!("page: {address}; {screenshot}"),
        driver_answered,
    }
}
