//! What a scenario does with the page, as a person would: find things (also inside open
//! shadow roots, and inside the card form's frame from checkout-server's `/checkout.js`: a
//! search that finds nothing in the page looks in the frame and stays there, as WebDriver
//! needs for using what it found: finding.rs), read text and state (reading.rs), type into
//! them with key events, press keys, click (input.rs), take screenshots (here). Every wait is
//! explicit and bounded: it polls a condition until it holds or the time limit passes, then
//! fails saying what it waited for.

mod finding;
mod input;
mod reading;

use std::future::Future;
use std::time::{Duration, Instant};

use fantoccini::Client;
use serde_json::Value;

use super::engine::Engine;
use super::tools::screenshot_dir;

/// How long a normal wait may take.
pub const WAIT: Duration = Duration::from_secs(20);
/// Between two looks at the page.
const POLL: Duration = Duration::from_millis(50);
/// Sets `el` to the focused element of the document, looking into open shadow roots.
const DEEP_ACTIVE: &str = "let el = document.activeElement;
while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
";

/// The card form's frame, as `/checkout.js` names it.
const CHECKOUT_FRAME: &str = "iframe[name^='card-checkout-']";
/// The bank's page in the 3-D Secure dialog `/checkout.js` opens on the shop's page: the frame
/// of checkout-server's host page in the dialog, then the frame inside that page.
/// Only once the dialog shows: before, the frame loads unseen (a driver may call what is in it
/// displayed all the same).
const BANK_FRAMES: [&str; 2] = ["dialog.cc-3ds[open] iframe", "iframe"];
/// The WebDriver key for a JS element reference.
const ELEMENT_KEY: &str = "element-6066-11e4-a52e-4f735466cecf";

/// `deepFind(selector)`: the first element matching a CSS selector in the document or any open
/// shadow root, breadth first (`null` when none does). A function declaration, for scripts to
/// include.
pub const DEEP_FIND: &str = r#"
function deepFind(selector) {
  const roots = [document];
  while (roots.length) {
    const root = roots.shift();
    const hit = root.querySelector(selector);
    if (hit) return hit;
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) roots.push(el.shadowRoot);
  }
  return null;
}
"#;

/// The document's HTML with every open shadow root's content written inside its host.
const DEEP_HTML: &str = r#"
function dump(node) {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent;
  if (node.nodeType !== Node.ELEMENT_NODE) return '';
  const attrs = Array.from(node.attributes).map((a) => ` ${a.name}="${a.value}"`).join('');
  const shadow = node.shadowRoot ? `<#shadow-root>${Array.from(node.shadowRoot.childNodes).map(dump).join('')}</#shadow-root>` : '';
  const kids = Array.from(node.childNodes).map(dump).join('');
  return `<${node.localName}${attrs}>${shadow}${kids}</${node.localName}>`;
}
return dump(document.documentElement);
"#;

/// The page of one browser session, its engine, and the scenario's name for screenshots.
#[derive(Clone)]
pub struct Page {
    /// The WebDriver client.
    pub client: Client,
    engine: Engine,
    /// `<scenario>-<engine>`, the start of its screenshots' names.
    label: String,
}

impl Page {
    /// Wraps `client` of an `engine` session; screenshots are named
    /// `<scenario>-<engine>-<step>.png`.
    pub fn new(client: Client, engine: Engine, scenario: &str) -> Self {
        let label = format!("{scenario}-{}", engine.name());
        Self {
            client,
            engine,
            label,
        }
    }

    /// `<scenario>-<engine>`, the start of this page's screenshots' names.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// The engine this page runs in.
    pub fn engine(&self) -> Engine {
        self.engine
    }

    /// Opens `url` and waits for the document to load.
    pub async fn goto(&self, url: &str) {
        self.client
            .goto(url)
            .await
            .unwrap_or_else(|e| panic!("open {url}: {e}"));
    }

    /// The address shown in the address bar.
    pub async fn url(&self) -> String {
        self.client
            .current_url()
            .await
            .map(|u| u.to_string())
            .unwrap_or_default()
    }

    /// Polls `probe` until it gives `Some`, for at most [`WAIT`].
    pub async fn until<T, F, Fut>(&self, what: &str, probe: F) -> T
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Option<T>>,
    {
        self.until_for(what, WAIT, probe).await
    }

    /// Polls `probe` until it gives `Some`, for at most `limit`.
    pub async fn until_for<T, F, Fut>(&self, what: &str, limit: Duration, mut probe: F) -> T
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Option<T>>,
    {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(value) = probe().await {
                return value;
            }
            if Instant::now() >= deadline {
                self.fail(&format!("waited {limit:?} for {what}")).await;
            }
            tokio::time::sleep(POLL).await;
        }
    }

    /// Runs `script` in the top-level page (not the card form's frame) and returns its value.
    pub async fn eval(&self, script: &str) -> Value {
        self.to_page().await;
        self.client
            .execute(script, vec![])
            .await
            .unwrap_or_else(|e| panic!("script failed: {e}"))
    }

    /// Saves a screenshot as `screenshots/<scenario>-<engine>-<step>.png`; returns its bytes.
    pub async fn screenshot(&self, step: &str) -> Vec<u8> {
        self.to_page().await;
        let png = self.client.screenshot().await.expect("screenshot");
        let path = screenshot_dir().join(format!("{}-{step}.png", self.label));
        std::fs::write(&path, &png).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
        png
    }

    /// Fails the scenario with `message`, the address and a screenshot of the moment.
    pub async fn fail(&self, message: &str) -> ! {
        let url = self.url().await;
        let _ = self.screenshot("FAILED").await;
        if let Some(html) = self
            .client
            .execute(DEEP_HTML, vec![])
            .await
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
        {
            let path = screenshot_dir().join(format!("{}-FAILED.html", self.label));
            let _ = std::fs::write(path, html);
        }
        panic!(
            "{message} (page: {url}; see screenshots/{}-FAILED.png)",
            self.label
        );
    }
}
