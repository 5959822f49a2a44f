//! The three browser engines the suite drives, and where each one's tools are on this machine:
//! Chromium (Debian's `chromium` through `chromedriver`), Firefox (Debian's `firefox-esr`
//! through `geckodriver` from crates.io) and WebKit (Debian's `webkit2gtk-driver`:
//! `WebKitWebDriver` starting `MiniBrowser --automation`, on an Xvfb display). An engine whose
//! tools are missing skips its scenarios with a loud notice (once per run), as Chromium's always
//! did; scripts/setup.sh installs all three, so CI runs them.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use super::tools::loud;

/// A browser engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    /// Blink, in Debian's Chromium.
    Chromium,
    /// Gecko, in Debian's Firefox ESR.
    Firefox,
    /// WebKit (Safari's engine), in WebKitGTK's MiniBrowser.
    WebKit,
}

/// Paths of one engine's tools.
#[derive(Debug, Clone)]
pub struct Tools {
    /// The browser's executable.
    pub browser: PathBuf,
    /// Its WebDriver server.
    pub driver: PathBuf,
    /// The X server the browser needs for a display (WebKit only).
    pub xvfb: Option<PathBuf>,
}

impl Engine {
    /// Lower-case name, as in test names and screenshot files.
    pub const fn name(self) -> &'static str {
        match self {
            Engine::Chromium => "chromium",
            Engine::Firefox => "firefox",
            Engine::WebKit => "webkit",
        }
    }

    /// This engine's tools, or `None` after printing its skip notice (once per run).
    pub fn tools(self) -> Option<Tools> {
        static FOUND: [OnceLock<Option<Tools>>; 3] =
            [OnceLock::new(), OnceLock::new(), OnceLock::new()];
        FOUND[self as usize].get_or_init(|| self.locate()).clone()
    }

    fn locate(self) -> Option<Tools> {
        let tools = match self {
            Engine::Chromium => Tools {
                browser: pick("CHROMIUM", "/usr/bin/chromium"),
                driver: pick("CHROMEDRIVER", "/usr/bin/chromedriver"),
                xvfb: None,
            },
            Engine::Firefox => Tools {
                browser: pick("FIREFOX", "/usr/bin/firefox-esr"),
                driver: pick_on_path("GECKODRIVER", "geckodriver"),
                xvfb: None,
            },
            Engine::WebKit => Tools {
                browser: pick_minibrowser(),
                driver: pick("WEBKITWEBDRIVER", "/usr/bin/WebKitWebDriver"),
                xvfb: Some(pick("XVFB", "/usr/bin/Xvfb")),
            },
        };
        let missing: Vec<String> = [
            Some(&tools.browser),
            Some(&tools.driver),
            tools.xvfb.as_ref(),
        ]
        .into_iter()
        .flatten()
        .filter(|path| !path.is_file())
        .map(|path| path.display().to_string())
        .collect();
        if missing.is_empty() {
            return Some(tools);
        }
        loud(&format!(
            "END-TO-END SCENARIOS IN {} SKIPPED: {} not found. {}",
            self.name().to_uppercase(),
            missing.join(" and "),
            self.install_hint()
        ));
        None
    }

    const fn install_hint(self) -> &'static str {
        match self {
            Engine::Chromium => {
                "Install them with `apt-get install chromium chromium-driver` (scripts/setup.sh \
                 does) or set CHROMIUM / CHROMEDRIVER."
            }
            Engine::Firefox => {
                "Install them with `apt-get install firefox-esr` and `cargo install --locked \
                 geckodriver` (scripts/setup.sh does) or set FIREFOX / GECKODRIVER."
            }
            Engine::WebKit => {
                "Install them with `apt-get install webkit2gtk-driver xvfb` (scripts/setup.sh \
                 does) or set MINIBROWSER / WEBKITWEBDRIVER / XVFB."
            }
        }
    }
}

/// `var` when set, else `default`.
fn pick(var: &str, default: &str) -> PathBuf {
    std::env::var_os(var)
        .filter(|v| !v.is_empty())
        .map_or_else(|| PathBuf::from(default), PathBuf::from)
}

/// `var` when set, else `program` on `PATH` or in cargo's bin folder (`cargo install` puts it
/// there, and scripts/test.sh puts that folder on `PATH`, a bare `cargo test` may not).
fn pick_on_path(var: &str, program: &str) -> PathBuf {
    if let Some(set) = std::env::var_os(var).filter(|v| !v.is_empty()) {
        return PathBuf::from(set);
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    let cargo_bin = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| Path::new(&home).join(".cargo")))
        .map(|home| home.join("bin"));
    std::env::split_paths(&path)
        .chain(cargo_bin)
        .map(|dir| dir.join(program))
        .find(|candidate| candidate.is_file())
        .unwrap_or_else(|| PathBuf::from(program))
}

/// `MINIBROWSER` when set, else WebKitGTK's MiniBrowser under the multiarch library folder.
fn pick_minibrowser() -> PathBuf {
    if let Some(set) = std::env::var_os("MINIBROWSER").filter(|v| !v.is_empty()) {
        return PathBuf::from(set);
    }
    let under = |lib: PathBuf| lib.join("webkit2gtk-4.1").join("MiniBrowser");
    std::fs::read_dir("/usr/lib")
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| under(entry.path()))
        .find(|candidate| candidate.is_file())
        .unwrap_or_else(|| under(PathBuf::from("/usr/lib/x86_64-linux-gnu")))
}
