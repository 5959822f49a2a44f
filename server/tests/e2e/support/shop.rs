//! The demo shop as its visitors see it: `checkout-server serve` with the in-process emulator,
//! the card form from `dist/` and the sandbox-only shop on a second origin, plus the
//! merchant and emulator views to check outcomes against, and a partner-style page on a third
//! (also allowed) origin that opens the shop's orders in a frame through any server address.

use std::time::Duration;

use super::framing_pages::direct_page;
use super::holding_proxy::HoldingProxy;
use super::merchant::{Emulator, Merchant};
use super::page::Page;
use super::server::{Process, ServeOptions};
use super::site::{StaticSite, dist};

/// The demo shop and its back office.
pub struct DemoShop {
    /// `checkout-server serve` (in-process emulator, fresh SQLite).
    pub server: Process,
    /// The merchant API.
    pub merchant: Merchant,
    /// The in-process emulator's control API.
    pub emulator: Emulator,
    /// A partner's site serving `/direct.html` (support/framing_pages.rs), its origin in
    /// `ALLOWED_ORIGINS` beside the shop's: [`DemoShop::open_held`] opens orders there.
    pub partner: StaticSite,
}

impl DemoShop {
    /// Starts a fresh shop (and its partner's site); subscriptions are polled every second.
    pub fn start() -> Self {
        Self::start_with(vec![])
    }

    /// [`start`](Self::start) with more of checkout-server's environment (`SANDBOX_FAULTS`).
    pub fn start_with(env: Vec<(String, String)>) -> Self {
        let partner = StaticSite::start(&dist(), vec![("/direct.html", direct_page())]);
        let mut all = vec![
            ("SUBSCRIPTION_POLL_SECONDS".into(), "1".into()),
            ("ALLOWED_ORIGINS".into(), partner.base.clone()),
        ];
        all.extend(env);
        let server = Process::serve(ServeOptions {
            gateway: None,
            env: all,
        });
        Self {
            merchant: Merchant::new(&server.base),
            emulator: Emulator::new(&format!("{}/_sandbox", server.base)),
            server,
            partner,
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
        self.buy_with(page, item, "").await
    }

    /// [`buy`](Self::buy) from the shop's page opened with `query` (`three_d_secure=redirect`:
    /// 3-D Secure in the whole window).
    pub async fn buy_with(&self, page: &Page, item: &str, query: &str) -> String {
        page.goto(&format!("{}?{query}", self.home())).await;
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
    /// page does (with the shopper's cookie, so their saved cards come with it), its card form
    /// opened in a frame through a proxy that holds the component's wasm back until released.
    ///
    /// The form's document is only served into a frame (`Sec-Fetch-Dest: iframe`), framed only
    /// by the origin the loader names (`frame-ancestors`). The shop's own page cannot be that
    /// frame's parent: its CSP lets it post forms and frames to checkout-server alone, not to
    /// the proxy, and checkout-server's address is fixed when it starts, while the proxy must
    /// be a new one for each opening (the wasm, cached for good under one address, would
    /// otherwise come from the browser's cache and never be held). So the partner's page,
    /// whose origin is allowed too, posts the order's fields into its frame through the new
    /// proxy, as `/checkout.js` does, and the shopper types into that frame.
    pub async fn open_held(&self, page: &Page, item: &str) -> HoldingProxy {
        page.goto(&self.home()).await;
        let script = format!(
            "return fetch('/demo/sessions', {{ method: 'POST', \
             headers: {{ 'Content-Type': 'application/json' }}, \
             body: JSON.stringify({{ item: '{item}' }}) }}).then((r) => r.json());"
        );
        let order = page.eval(&script).await;
        let proxy = HoldingProxy::start(&self.server.base);
        let mut url =
            reqwest::Url::parse(&format!("{}/direct.html", self.partner.base)).expect("URL");
        url.query_pairs_mut()
            .append_pair("session", order["id"].as_str().expect("session id"))
            .append_pair(
                "secret",
                order["client_secret"].as_str().expect("client secret"),
            )
            .append_pair("server", &proxy.base);
        page.goto(url.as_str()).await;
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
