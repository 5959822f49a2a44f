//! What a scenario does with the page, as a person would: find things (also inside open
//! shadow roots, and inside the card form's frame from checkout-server's `/checkout.js`: a
//! search that finds nothing in the page looks in the frame and stays there, as WebDriver
//! needs for using what it found), type into them with key events, press keys,
//! click, read text, take screenshots. Every wait is explicit and bounded: it polls a
//! condition until it holds or the time limit passes, then fails saying what it waited for.

use std::future::Future;
use std::time::{Duration, Instant};

use fantoccini::Client;
use fantoccini::elements::{Element, ElementRef};
use fantoccini::error::CmdError;
use fantoccini::key::Key;
use serde_json::Value;

use super::engine::Engine;
use super::tools::screenshot_dir;
use super::{keys, pointer, top_frame};

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

    /// The element matching `css` (document or shadow roots), if there is one now: in the page
    /// first, then in the card form's frame, then in the bank's frame of the 3-D Secure dialog;
    /// the frame it was found in stays the context.
    pub async fn try_find(&self, css: &str) -> Option<Element> {
        self.to_page().await;
        if let Some(found) = self.query(css).await {
            return Some(found);
        }
        for frames in [&[CHECKOUT_FRAME][..], &BANK_FRAMES[..]] {
            self.to_page().await;
            if self.enter_frames(frames).await
                && let Some(found) = self.query(css).await
            {
                return Some(found);
            }
        }
        None
    }

    /// Enters the frame matching the first selector, then the one matching the next inside it,
    /// and so on; false when one is missing.
    async fn enter_frames(&self, path: &[&str]) -> bool {
        for css in path {
            let Some(frame) = self.query(css).await else {
                return false;
            };
            if frame.enter_frame().await.is_err() {
                return false;
            }
        }
        true
    }

    /// How many elements match `css` (document and shadow roots): in the page, or else in the
    /// card form's frame.
    pub async fn count(&self, css: &str) -> usize {
        let script = r#"
            const roots = [document];
            let count = 0;
            while (roots.length) {
              const root = roots.shift();
              count += root.querySelectorAll(arguments[0]).length;
              for (const el of root.querySelectorAll('*')) if (el.shadowRoot) roots.push(el.shadowRoot);
            }
            return count;
        "#;
        let counted = || async {
            self.client
                .execute(script, vec![Value::from(css)])
                .await
                .ok()
                .and_then(|n| n.as_u64())
                .map_or(0, |n| usize::try_from(n).unwrap_or(usize::MAX))
        };
        self.to_page().await;
        let in_page = counted().await;
        if in_page > 0 {
            return in_page;
        }
        match self.query(CHECKOUT_FRAME).await {
            Some(frame) if frame.enter_frame().await.is_ok() => counted().await,
            _ => 0,
        }
    }

    /// Back to the top-level document (the card form's frame is one level down, the bank's
    /// page two), also from a frame that is gone.
    pub async fn to_page(&self) {
        if !top_frame::to_top(&self.client).await {
            let _ = self.client.enter_parent_frame().await;
        }
    }

    /// Whether the current document is a frame that holds the focus. WebKitWebDriver moves
    /// the keyboard focus to the document it switches to, so a scenario pressing keys in the
    /// card form's frame must stay there rather than look from the page.
    async fn in_focused_frame(&self) -> bool {
        let script = "return window !== window.top && document.hasFocus();";
        let answer = self.client.execute(script, vec![]).await;
        answer.ok().and_then(|v| v.as_bool()).unwrap_or(false)
    }

    /// The element matching `css` in the current document or its shadow roots.
    async fn query(&self, css: &str) -> Option<Element> {
        let found = self
            .client
            .execute(
                &[DEEP_FIND, "return deepFind(arguments[0]);"].concat(),
                vec![Value::from(css)],
            )
            .await
            .ok()?;
        let id = found.get(ELEMENT_KEY)?.as_str()?.to_owned();
        Some(Element::from_element_id(
            self.client.clone(),
            ElementRef::from(id),
        ))
    }

    /// Makes the document holding the focus the context: the card form's frame when the
    /// focus is in it.
    async fn to_focus(&self) {
        if self.in_focused_frame().await {
            return;
        }
        self.to_page().await;
        let script = [
            DEEP_ACTIVE,
            "return el && el.localName === 'iframe' ? el : null;",
        ]
        .concat();
        let Ok(found) = self.client.execute(&script, vec![]).await else {
            return;
        };
        if let Some(id) = found.get(ELEMENT_KEY).and_then(Value::as_str) {
            let frame =
                Element::from_element_id(self.client.clone(), ElementRef::from(id.to_owned()));
            let _ = frame.enter_frame().await;
        }
    }

    /// Waits for an element matching `css`.
    pub async fn find(&self, css: &str) -> Element {
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(element) = self.try_find(css).await {
                return element;
            }
            if Instant::now() >= deadline {
                self.fail(&format!("no element matches `{css}` after {WAIT:?}"))
                    .await;
            }
            tokio::time::sleep(POLL).await;
        }
    }

    /// Waits for an element matching `css` that is displayed and enabled.
    pub async fn find_ready(&self, css: &str) -> Element {
        self.until(&format!("`{css}` displayed and enabled"), || async {
            let element = self.try_find(css).await?;
            let ready = element.is_displayed().await.ok()? && element.is_enabled().await.ok()?;
            ready.then_some(element)
        })
        .await
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

    /// The visible text of `css` now (empty when absent).
    pub async fn text(&self, css: &str) -> String {
        match self.try_find(css).await {
            Some(element) => element.text().await.unwrap_or_default(),
            None => String::new(),
        }
    }

    /// Waits until the text of `css` contains `needle` (case-insensitive); returns the text.
    pub async fn wait_text(&self, css: &str, needle: &str) -> String {
        let lower = needle.to_lowercase();
        self.until(&format!("`{css}` to say \"{needle}\""), || async {
            let text = self.text(css).await;
            text.to_lowercase().contains(&lower).then_some(text)
        })
        .await
    }

    /// Waits until the text of `css` contains one of `needles`; returns the text.
    pub async fn wait_text_any(&self, css: &str, needles: &[&str], limit: Duration) -> String {
        self.until_for(
            &format!("`{css}` to say one of {needles:?}"),
            limit,
            || async {
                let text = self.text(css).await;
                let lower = text.to_lowercase();
                needles
                    .iter()
                    .any(|n| lower.contains(&n.to_lowercase()))
                    .then_some(text)
            },
        )
        .await
    }

    /// An attribute of `css` now.
    pub async fn attr(&self, css: &str, name: &str) -> Option<String> {
        self.try_find(css).await?.attr(name).await.ok().flatten()
    }

    /// A DOM property of `css` now (`value`, `checked`, ...).
    pub async fn prop(&self, css: &str, name: &str) -> Option<String> {
        self.try_find(css).await?.prop(name).await.ok().flatten()
    }

    /// The computed CSS `property` of `css` now (WebDriver Get Element CSS Value).
    pub async fn css(&self, css: &str, property: &str) -> Option<String> {
        self.try_find(css).await?.css_value(property).await.ok()
    }

    /// Waits until attribute `name` of `css` equals `value`.
    pub async fn wait_attr(&self, css: &str, name: &str, value: &str) {
        self.until(&format!("`{css}` [{name}=\"{value}\"]"), || async {
            (self.attr(css, name).await.as_deref() == Some(value)).then_some(())
        })
        .await;
    }

    /// Clicks into `css` and types `text` key by key (support/keys.rs).
    pub async fn type_into(&self, css: &str, text: &str) {
        self.type_into_fresh(css, text)
            .await
            .unwrap_or_else(|e| panic!("type into {css}: {e}"));
    }

    /// Types `text` into the element `css` finds, finding it again if it was replaced.
    async fn type_into_fresh(&self, css: &str, text: &str) -> Result<(), CmdError> {
        let (client, engine) = (&self.client, self.engine);
        keys::on_a_fresh_node(
            || self.find_ready(css),
            |element| async move { keys::type_into(client, engine, &element, text).await },
        )
        .await
    }

    /// Deletes the text of `css` with the keyboard: End, then Backspace once per character (a
    /// select-all shortcut is not reliable across WebDriver key handling), and checks it is gone.
    pub async fn clear_by_keys(&self, css: &str) {
        let length = self
            .prop(css, "value")
            .await
            .unwrap_or_default()
            .chars()
            .count();
        let backspace = char::from(Key::Backspace);
        let keys: String = std::iter::once(char::from(Key::End))
            .chain(std::iter::repeat_n(backspace, length))
            .collect();
        self.type_into_fresh(css, &keys)
            .await
            .unwrap_or_else(|e| panic!("clear {css}: {e}"));
        self.until(&format!("`{css}` empty"), || async {
            self.prop(css, "value")
                .await
                .unwrap_or_default()
                .is_empty()
                .then_some(())
        })
        .await;
    }

    /// Clicks `css` (a button of the bank's page in the 3-D Secure dialog) once it is displayed
    /// and enabled, when the click may end the frame it is in: the loader removes the dialog as
    /// the bank's answer comes back, and a driver may then report the frame gone instead of
    /// the click done. Whether the click took is for the scenario to see on the page.
    pub async fn click_in_dialog(&self, css: &str) {
        let element = self.find_ready(css).await;
        if let Err(error) = pointer::click(&self.client, self.engine, &element).await {
            eprintln!("[e2e] click {css} ended with its frame: {error}");
        }
        self.to_page().await;
    }

    /// Clicks `css` once it is displayed and enabled.
    pub async fn click(&self, css: &str) {
        let element = self.find_ready(css).await;
        pointer::click(&self.client, self.engine, &element)
            .await
            .unwrap_or_else(|e| panic!("click {css}: {e}"));
    }

    /// Presses `key` in whatever has focus.
    pub async fn press(&self, key: Key) {
        self.to_focus().await;
        keys::type_focused(&self.client, self.engine, &char::from(key).to_string())
            .await
            .unwrap_or_else(|e| panic!("press {key:?}: {e}"));
    }

    /// Types `text` key by key into whatever has focus.
    pub async fn type_focused(&self, text: &str) {
        self.to_focus().await;
        keys::type_focused(&self.client, self.engine, text)
            .await
            .unwrap_or_else(|e| panic!("type into the focused element: {e}"));
    }

    /// The card frame's height on the page and the height of its document's content
    /// (`scrollHeight`), in CSS pixels: equal when the frame fits the form.
    pub async fn frame_heights(&self) -> (f64, f64) {
        self.to_page().await;
        let frame = self.query(CHECKOUT_FRAME).await.expect("the card frame");
        let (_, _, _, outer) = frame.rectangle().await.expect("the card frame's box");
        frame.enter_frame().await.expect("into the card frame");
        let inner = self
            .client
            .execute("return document.documentElement.scrollHeight;", vec![])
            .await
            .ok()
            .and_then(|h| h.as_f64())
            .expect("the frame's content height");
        (outer, inner)
    }

    /// The caret (`selectionStart`) of the focused input; `None` when no input has the focus.
    pub async fn focused_caret(&self) -> Option<u64> {
        self.to_focus().await;
        let script = [
            DEEP_ACTIVE,
            "return el && typeof el.selectionStart === 'number' ? el.selectionStart : null;",
        ]
        .concat();
        self.client.execute(&script, vec![]).await.ok()?.as_u64()
    }

    /// The `value` of the element that has focus (an input's or a select's).
    pub async fn focused_value(&self) -> Option<String> {
        self.to_focus().await;
        let script = [DEEP_ACTIVE, "return el ? el.value : null;"].concat();
        let value = self.client.execute(&script, vec![]).await.ok()?;
        value.as_str().map(str::to_owned)
    }

    /// `id` (or `name`, or tag) of the element that has focus, looking into shadow roots.
    pub async fn focused_id(&self) -> String {
        self.to_focus().await;
        let script = [
            DEEP_ACTIVE,
            "return el ? (el.id || el.getAttribute('name') || el.tagName.toLowerCase()) : '';",
        ]
        .concat();
        let value = self
            .client
            .execute(&script, vec![])
            .await
            .unwrap_or(Value::Null);
        value.as_str().unwrap_or_default().to_owned()
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
