//! One browser session of any engine, through its WebDriver server (support/driver.rs), with
//! the capabilities of support/capabilities.rs; each session gets a fresh profile.
//!
//! [`Slots`] caps how many scenarios run at once (each has a server and a browser; the machine
//! has two cores): `E2E_JOBS`, default 2.
//!
//! Chromium sessions keep the browser's console log (`goog:loggingPrefs`), which
//! [`console_log`] reads: the page's and its frames' console messages, and Chromium's own
//! warnings about them.

use std::sync::{Arc, Condvar, Mutex};

use fantoccini::wd::WebDriverCompatibleCommand;
use fantoccini::{Client, ClientBuilder};
use hyper_util::client::legacy::connect::HttpConnector;
use reqwest::{Method, Url};
use serde_json::json;

use super::capabilities::{self, WINDOW};
use super::driver::{self, Driver};
use super::engine::{Engine, Tools};

/// One browser session with its own profile directory.
pub struct Browser {
    /// The WebDriver client.
    pub client: Client,
    _profile: tempfile::TempDir,
    driver: Arc<Driver>,
}

impl Browser {
    /// Starts `engine`'s browser with a fresh profile.
    pub async fn open(engine: Engine, tools: &Tools) -> Self {
        Self::open_with(engine, tools, &[]).await
    }

    /// [`Browser::open`] with `extra` Chromium flags after the usual ones.
    pub async fn open_with(engine: Engine, tools: &Tools, extra: &[&str]) -> Self {
        let profile = tempfile::tempdir().expect("profile dir");
        let capabilities = capabilities::for_engine(engine, tools, profile.path(), extra);
        let mut last_error = String::new();
        // A browser can fail to come up on a busy machine: three attempts.
        for _ in 0..3 {
            let driver = driver::for_session(engine, tools);
            let connecting = ClientBuilder::new(HttpConnector::new())
                .capabilities(capabilities.clone())
                .connect(&driver.url())
                .await;
            match connecting {
                Ok(client) => {
                    if engine != Engine::Chromium {
                        client
                            .set_window_size(WINDOW.0, WINDOW.1)
                            .await
                            .unwrap_or_else(|e| panic!("{engine:?}'s window size: {e}"));
                    }
                    return Self {
                        client,
                        _profile: profile,
                        driver,
                    };
                }
                Err(error) => last_error = error.to_string(),
            }
        }
        panic!("could not start {engine:?} through its WebDriver server: {last_error}");
    }

    /// The last lines its WebDriver server wrote (support/driver.rs keeps them in a file).
    pub fn driver_log_tail(&self) -> String {
        self.driver.log_tail()
    }

    /// Ends the session (the browser exits).
    pub async fn close(self) {
        let _ = self.client.close().await;
    }
}

/// A counting gate: at most `E2E_JOBS` scenarios hold a slot at once.
pub struct Slots;

/// A held slot; released on drop.
pub struct Slot;

static GATE: (Mutex<usize>, Condvar) = (Mutex::new(0), Condvar::new());

impl Slots {
    /// Waits (blocking this test's thread) for a free slot.
    pub fn take() -> Slot {
        let limit = std::env::var("E2E_JOBS")
            .ok()
            .and_then(|v| v.parse::<usize>().ok())
            .filter(|n| *n > 0)
            .unwrap_or(2);
        let (lock, freed) = &GATE;
        let mut running = lock.lock().unwrap_or_else(|p| p.into_inner());
        while *running >= limit {
            running = freed.wait(running).unwrap_or_else(|p| p.into_inner());
        }
        *running += 1;
        Slot
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let (lock, freed) = &GATE;
        let mut running = lock.lock().unwrap_or_else(|p| p.into_inner());
        *running = running.saturating_sub(1);
        freed.notify_one();
    }
}

/// chromedriver's log command (`POST /session/{id}/se/log`) for the `browser` log.
#[derive(Debug)]
struct BrowserLog;

impl WebDriverCompatibleCommand for BrowserLog {
    fn endpoint(
        &self,
        base: &Url,
        session: Option<&str>,
    ) -> Result<Url, <Url as std::str::FromStr>::Err> {
        base.join(&format!("session/{}/se/log", session.unwrap_or_default()))
    }

    fn method_and_body(&self, _: &Url) -> (Method, Option<String>) {
        (Method::POST, Some(json!({ "type": "browser" }).to_string()))
    }
}

/// One entry of the browser's console log.
#[derive(Debug, Clone)]
pub struct LogEntry {
    /// `DEBUG`, `INFO`, `WARNING` or `SEVERE` (console errors and failed loads).
    pub level: String,
    /// Where it came from (`console-api`, `network`, `javascript`, `deprecation`, ...) and
    /// its text, as chromedriver words it.
    pub message: String,
}

/// The browser's console entries since the last call (chromedriver hands each out once).
pub async fn console_log(client: &Client) -> Vec<LogEntry> {
    let entries = client
        .issue_cmd(BrowserLog)
        .await
        .unwrap_or_else(|error| panic!("chromedriver's browser log: {error}"));
    entries
        .as_array()
        .map(|entries| {
            entries
                .iter()
                .map(|entry| LogEntry {
                    level: entry["level"].as_str().unwrap_or_default().to_owned(),
                    message: entry["message"].as_str().unwrap_or_default().to_owned(),
                })
                .collect()
        })
        .unwrap_or_default()
}
