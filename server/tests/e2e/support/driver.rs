//! The WebDriver servers. One chromedriver serves every Chromium scenario running at the same
//! time (started on a free port when the first one needs it, stopped when the last one is
//! done). geckodriver and WebKitWebDriver hold one session each, so every Firefox or WebKit
//! scenario starts its own on free ports; WebKit's runs on the shared Xvfb display.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use super::display::{self, Display};
use super::engine::{Engine, Tools};
use super::net::{free_port, wait_for_port};
use super::tools::screenshot_dir;

/// A running WebDriver server; killed when its last user drops it.
pub struct Driver {
    child: Mutex<Child>,
    /// Where it listens on 127.0.0.1.
    pub port: u16,
    _display: Option<Arc<Display>>,
}

impl Drop for Driver {
    fn drop(&mut self) {
        if let Ok(child) = self.child.get_mut() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Driver {
    /// `http://127.0.0.1:{port}`, for the WebDriver client.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Where its log is, and its last ten lines that are not blank (or that it wrote nothing).
    pub fn log_tail(&self) -> String {
        let path = log_path(self.port);
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let lines: Vec<&str> = text
            .lines()
            .filter(|line| !line.trim().is_empty())
            .collect();
        let tail = lines[lines.len().saturating_sub(10)..].join(" | ");
        if tail.is_empty() {
            format!("{} (empty)", path.display())
        } else {
            format!("{}: {tail}", path.display())
        }
    }
}

/// A driver for one new session of `engine`.
pub fn for_session(engine: Engine, tools: &Tools) -> Arc<Driver> {
    match engine {
        Engine::Chromium => shared_chromedriver(&tools.driver),
        Engine::Firefox => {
            let port = free_port();
            let mut command = Command::new(&tools.driver);
            command
                .args(["--host", "127.0.0.1", "--port", &port.to_string()])
                // BiDi's port defaults to 9222 for every geckodriver: one each instead.
                .args(["--websocket-port", &free_port().to_string()]);
            Arc::new(start(command, port, None))
        }
        Engine::WebKit => {
            let xvfb = tools.xvfb.as_deref().expect("WebKit's tools name Xvfb");
            let display = display::shared(xvfb);
            let port = free_port();
            let mut command = Command::new(&tools.driver);
            command
                .arg(format!("--port={port}"))
                .env("DISPLAY", &display.name)
                // MiniBrowser takes navigator.language from the locale variables, and reports
                // the C locale of a bare machine as the language "C" (no valid language tag:
                // `Intl` throws on it). The locale need not be installed for this.
                .env("LC_ALL", "en_US.UTF-8")
                .env("LANG", "en_US.UTF-8");
            Arc::new(start(command, port, Some(display)))
        }
    }
}

fn shared_chromedriver(chromedriver: &Path) -> Arc<Driver> {
    static CURRENT: Mutex<Weak<Driver>> = Mutex::new(Weak::new());
    let mut current = CURRENT.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(driver) = current.upgrade() {
        return driver;
    }
    let port = free_port();
    let mut command = Command::new(chromedriver);
    command
        .arg(format!("--port={port}"))
        .arg("--allowed-ips=127.0.0.1");
    let driver = Arc::new(start(command, port, None));
    *current = Arc::downgrade(&driver);
    driver
}

/// Spawns `command` and waits for it to listen on `port`. What it writes goes to
/// [`log_path`]`(port)`, for the look at a session that stopped answering.
fn start(mut command: Command, port: u16, display: Option<Arc<Display>>) -> Driver {
    let program = command.get_program().to_string_lossy().into_owned();
    let log = std::fs::File::create(log_path(port))
        .unwrap_or_else(|e| panic!("{program}'s log {}: {e}", log_path(port).display()));
    let log_too = log
        .try_clone()
        .unwrap_or_else(|e| panic!("{program}'s log: {e}"));
    let child = command
        .stdin(Stdio::null())
        .stdout(log)
        .stderr(log_too)
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {program}: {e}"));
    let driver = Driver {
        child: Mutex::new(child),
        port,
        _display: display,
    };
    wait_for_port(port, Duration::from_secs(20)).unwrap_or_else(|e| panic!("{program}: {e}"));
    driver
}

/// Where the driver listening on `port` writes: `screenshots/webdriver-<port>.log`.
pub fn log_path(port: u16) -> std::path::PathBuf {
    screenshot_dir().join(format!("webdriver-{port}.log"))
}
