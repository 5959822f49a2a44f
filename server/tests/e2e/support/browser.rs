//! Chromium through chromedriver. One chromedriver process serves every scenario running at
//! the same time (it is started on a free port when the first one needs it and stopped when
//! the last one is done); each scenario gets its own Chromium with a fresh profile.
//!
//! [`Slots`] caps how many scenarios run at once (each has a server and a browser; the machine
//! has two cores): `E2E_JOBS`, default 2.
//!
//! Every session keeps the browser's console log (`goog:loggingPrefs`), which [`console_log`]
//! reads: the page's and its frames' console messages, and Chromium's own warnings about them.

use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Condvar, Mutex, Weak};
use std::time::Duration;

use fantoccini::wd::WebDriverCompatibleCommand;
use fantoccini::{Client, ClientBuilder};
use hyper_util::client::legacy::connect::HttpConnector;
use reqwest::{Method, Url};
use serde_json::{Value, json};

use super::net::{free_port, wait_for_port};
use super::tools::Tools;

/// Chromium's flags for running as root in a closed network (toolchain.md), plus a fixed
/// window size so screenshots and viewport-based choices are the same on every run.
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

/// A running chromedriver; killed when the last scenario drops it.
pub struct Driver {
    child: Mutex<Child>,
    port: u16,
}

impl Drop for Driver {
    fn drop(&mut self) {
        if let Ok(child) = self.child.get_mut() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

fn shared_driver(tools: &Tools) -> Arc<Driver> {
    static CURRENT: Mutex<Weak<Driver>> = Mutex::new(Weak::new());
    let mut current = CURRENT
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(driver) = current.upgrade() {
        return driver;
    }
    let port = free_port();
    let child = Command::new(&tools.chromedriver)
        .arg(format!("--port={port}"))
        .arg("--allowed-ips=127.0.0.1")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", tools.chromedriver.display()));
    let driver = Arc::new(Driver {
        child: Mutex::new(child),
        port,
    });
    wait_for_port(port, Duration::from_secs(20)).unwrap_or_else(|e| panic!("chromedriver: {e}"));
    *current = Arc::downgrade(&driver);
    driver
}

/// One Chromium session with its own profile directory.
pub struct Browser {
    /// The WebDriver client.
    pub client: Client,
    _profile: tempfile::TempDir,
    _driver: Arc<Driver>,
}

impl Browser {
    /// Starts Chromium (fresh `--user-data-dir`) through the shared chromedriver.
    pub async fn open(tools: &Tools) -> Self {
        Self::open_with(tools, &[]).await
    }

    /// [`Browser::open`] with `extra` flags after the usual ones.
    pub async fn open_with(tools: &Tools, extra: &[&str]) -> Self {
        let driver = shared_driver(tools);
        let profile = tempfile::tempdir().expect("profile dir");
        let mut args: Vec<String> = CHROMIUM_ARGS
            .iter()
            .chain(extra)
            .map(|a| (*a).to_owned())
            .collect();
        args.push(format!("--user-data-dir={}", profile.path().display()));
        let mut capabilities = serde_json::Map::new();
        capabilities.insert(
            "goog:chromeOptions".into(),
            json!({ "binary": tools.chromium, "args": args }),
        );
        capabilities.insert("pageLoadStrategy".into(), Value::from("normal"));
        capabilities.insert("goog:loggingPrefs".into(), json!({ "browser": "ALL" }));
        let url = format!("http://127.0.0.1:{}", driver.port);
        let mut last_error = String::new();
        // Chromium can fail to come up on a busy machine: three attempts.
        for _ in 0..3 {
            let connecting = ClientBuilder::new(HttpConnector::new())
                .capabilities(capabilities.clone())
                .connect(&url)
                .await;
            match connecting {
                Ok(client) => {
                    return Self {
                        client,
                        _profile: profile,
                        _driver: driver,
                    };
                }
                Err(error) => last_error = error.to_string(),
            }
        }
        panic!("could not start Chromium through chromedriver: {last_error}");
    }

    /// Ends the session (Chromium exits).
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
