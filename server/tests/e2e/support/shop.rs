//! The demo shop as its visitors see it: `checkout-server serve` with the in-process emulator,
//! the card form from `dist/` and the sandbox-only shop on a second origin, plus the
//! merchant and emulator views to check outcomes against.

use std::time::Duration;

use super::framing_pages::open_form_as_page;
use super::holding_proxy::HoldingProxy;
use super::merchant::{Emulator, Merchant};
use super::page::Page;
use super::server::{Process, ServeOptions};

/// The demo shop and its back office.
pub struct DemoShop {
    /// `checkout-server serve` (in-process emulator, fresh SQLite).
    pub server: Process,
    /// The merchant API.
    pub merchant: Merchant,
    /// The in-process emulator's control API.
    pub emulator: Emulator,
}

impl DemoShop {
    /// Starts a fresh shop; subscriptions are polled every second.
    pub fn start() -> Self {
        let server = Process::serve(ServeOptions {
            gateway: None,
            env: vec![("SUBSCRIPTION_POLL_SECONDS".into(), "1".into())],
        });
        Self {
            merchant: Merchant::new(&server.base),
            emulator: Emulator::new(&format!("{}/_sandbox", server.base)),
            server,
        }
    }

    /// The shop's front page (on its own origin).
    pub fn home(&self) -> String {
        let demo = self.server.demo.as_deref();
        format!("{}/", demo.expect("the sandbox runs the demo shop"))
    }

    /// The shop's catalogue (`GET /demo/catalogue`, as its page reads it).
    pub async fn catalogue(&self) -> serde_json::Value {
        let url = format!("{}demo/catalogue", self.home());
        let answer = reqwest::get(&url).await.expect("the shop answers");
        assert!(answer.status().is_success(), "{url}: {}", answer.status());
        answer.json().await.expect("catalogue JSON")
    }

    /// Opens the shop, clicks the item's button and waits for the checkout; returns the
    /// session id the shop backend created.
    pub async fn buy(&self, page: &Page, item: &str) -> String {
        page.goto(&self.home()).await;
        page.click(&format!("#buy-{item}")).await;
        let session = page
            .until("the checkout page of the new session", || async {
                query_param(&page.url().await, "session")
            })
            .await;
        page.find("#cc-submit").await;
        session
    }

    /// A new order of `item` (an item or plan id) placed through the shop's backend as its
    /// page does (with the shopper's cookie), its card form opened as the whole page through a
    /// proxy that holds the component's wasm back until released. The shop's own page may only
    /// post forms to checkout-server (its CSP), not to the proxy: the form's document is opened
    /// from a blank page instead, as a page without a referrer posts it.
    pub async fn open_held(&self, page: &Page, item: &str) -> HoldingProxy {
        page.goto(&self.home()).await;
        let script = format!(
            "return fetch('/demo/sessions', {{ method: 'POST', \
             headers: {{ 'Content-Type': 'application/json' }}, \
             body: JSON.stringify({{ item: '{item}' }}) }}).then((r) => r.json());"
        );
        let order = page.eval(&script).await;
        let proxy = HoldingProxy::start(&self.server.base);
        let origin = self.server.demo.clone().expect("the demo shop's origin");
        page.goto("about:blank").await;
        page.eval(&open_form_as_page(
            &proxy.base,
            &origin,
            order["id"].as_str().expect("session id"),
            order["client_secret"].as_str().expect("client secret"),
        ))
        .await;
        proxy
    }

    /// The shopper's customer id (the demo backend's HttpOnly cookie, as the browser holds it).
    pub async fn customer_id(&self, page: &Page) -> String {
        let cookie = page
            .client
            .get_named_cookie("demo_customer")
            .await
            .expect("the shop set its customer cookie");
        cookie.value().to_owned()
    }

    /// Waits for the result view to say `title` (after the 3DS return); returns its text.
    pub async fn wait_result(&self, page: &Page, title: &str) -> String {
        page.wait_text_any("#cc-result", &[title], Duration::from_secs(30))
            .await
    }
}

/// The value of query parameter `name` in `url`.
pub fn query_param(url: &str, name: &str) -> Option<String> {
    let parsed = reqwest::Url::parse(url).ok()?;
    parsed
        .query_pairs()
        .find(|(key, _)| key == name)
        .map(|(_, value)| value.into_owned())
        .filter(|value| !value.is_empty())
}
