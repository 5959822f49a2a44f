//! What each engine is asked for when a session starts: the browser binary, a fresh profile,
//! English as the page's language, a fixed window size (1024×900, so screenshots and
//! viewport-based choices are the same on every run), the time limits of
//! support/time_limits.rs, and nothing that calls out to the internet (the network is closed:
//! background requests only flood it with refusals).

use std::path::Path;

use serde_json::{Map, Value, json};

use super::engine::{Engine, Tools};
use super::time_limits;

/// Chromium's flags for running as root in a closed network (toolchain.md).
const CHROMIUM_ARGS: &[&str] = &[
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--window-size=1024,900",
    "--lang=en-US",
];

/// The window every engine gets (Chromium through its flag, the others through WebDriver).
pub const WINDOW: (u32, u32) = (1024, 900);

/// The session's capabilities. `profile` is a fresh folder for Chromium's `--user-data-dir`
/// (geckodriver makes a fresh profile itself; MiniBrowser's automation sessions keep no
/// data). `extra` are Chromium flags after the usual ones.
pub fn for_engine(
    engine: Engine,
    tools: &Tools,
    profile: &Path,
    extra: &[&str],
) -> Map<String, Value> {
    let capabilities = match engine {
        Engine::Chromium => {
            let mut args: Vec<String> = CHROMIUM_ARGS
                .iter()
                .chain(extra)
                .map(|a| (*a).to_owned())
                .collect();
            args.push(format!("--user-data-dir={}", profile.display()));
            json!({
                "goog:chromeOptions": { "binary": tools.browser, "args": args },
                // The console log, which browser::console_log reads.
                "goog:loggingPrefs": { "browser": "ALL" },
            })
        }
        Engine::Firefox => json!({
            "browserName": "firefox",
            "moz:firefoxOptions": {
                "binary": tools.browser,
                "args": ["-headless"],
                "prefs": firefox_prefs(),
            },
        }),
        Engine::WebKit => json!({
            "browserName": "MiniBrowser",
            "webkitgtk:browserOptions": {
                "binary": tools.browser,
                "args": ["--automation"],
            },
        }),
    };
    let Value::Object(mut capabilities) = capabilities else {
        unreachable!("a JSON object")
    };
    capabilities.insert("pageLoadStrategy".into(), Value::from("normal"));
    capabilities.insert("timeouts".into(), time_limits::session_timeouts());
    capabilities
}

/// Firefox's preferences: English pages, no proxy, and its background services off (on top
/// of what geckodriver already turns off for automation).
fn firefox_prefs() -> Value {
    json!({
        "intl.accept_languages": "en-US",
        "intl.locale.requested": "en-US",
        "network.proxy.type": 0,
        "network.captive-portal-service.enabled": false,
        "network.connectivity-service.enabled": false,
        "browser.safebrowsing.malware.enabled": false,
        "browser.safebrowsing.phishing.enabled": false,
        "browser.safebrowsing.downloads.enabled": false,
        "browser.safebrowsing.blockedURIs.enabled": false,
        "browser.region.update.enabled": false,
        "browser.region.network.url": "",
        "extensions.update.enabled": false,
        "extensions.getAddons.cache.enabled": false,
        "media.gmp-manager.updateEnabled": false,
        "datareporting.policy.dataSubmissionEnabled": false,
        "toolkit.telemetry.enabled": false,
        "services.settings.server": "http://127.0.0.1:9/",
        "browser.newtabpage.enabled": false,
        "browser.startup.page": 0,
    })
}
