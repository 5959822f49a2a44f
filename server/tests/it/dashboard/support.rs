//! Helpers of the dashboard tests: staff accounts made through the same code as
//! `checkout-server users add`, a browser-like client that keeps the session cookie by hand
//! and sends the dashboard's `Origin` on POSTs, the CSRF token and idempotency key read from
//! the pages, a paid payment to act on, and moving a payment's creation into the past.

use checkout_server::dashboard::auth::accounts;
use checkout_server::store::prelude::*;
use secrecy::SecretString;
use serde_json::json;

use crate::api::support::{Harness, Reply, TestSession, cards};

/// Runs each named scenario as `sqlite::<name>` and `postgres::<name>`, optionally with extra
/// configuration pairs: `dashboard_suite!(with [("KEY", "value")]; name, ...)`.
macro_rules! dashboard_suite {
    ($($name:ident),+ $(,)?) => {
        $crate::dashboard::support::dashboard_suite!(with []; $($name),+);
    };
    (with $config:tt; $($name:ident),+ $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    let harness = crate::api::support::Harness::start_with(
                        crate::api::support::Backend::Sqlite,
                        &$config,
                    )
                    .await;
                    super::$name(&harness).await;
                    harness.finish().await;
                }
            )+
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    let Some(harness) = crate::api::support::Harness::start_postgres_with(
                        &$config,
                    )
                    .await else { return };
                    super::$name(&harness).await;
                    harness.finish().await;
                }
            )+
        }
    };
}
pub(crate) use dashboard_suite;

/// The password every test account gets.
pub const PASSWORD: &str = "correct horse battery staple";

/// The dashboard's base URL.
pub fn base(h: &Harness) -> &str {
    h.dashboard.as_deref().expect("the dashboard listens")
}

/// A staff account with [`PASSWORD`].
pub async fn staff(h: &Harness, email: &str, role: StaffRole) {
    accounts::add(
        h.store().as_ref(),
        email,
        role,
        SecretString::from(PASSWORD.to_owned()),
    )
    .await
    .expect("account added");
}

/// A browser on the dashboard: its session cookie (once logged in) and the page's CSRF token.
#[derive(Debug, Clone)]
pub struct Browser {
    pub base: String,
    pub cookie: Option<String>,
    pub csrf: String,
    pub client: reqwest::Client,
}

impl Browser {
    /// A browser with no session.
    pub fn new(h: &Harness) -> Self {
        Self {
            base: base(h).to_owned(),
            cookie: None,
            csrf: String::new(),
            client: h.api.clone(),
        }
    }

    /// A browser logged in as a new account of `role`.
    pub async fn as_role(h: &Harness, email: &str, role: StaffRole) -> Self {
        staff(h, email, role).await;
        let mut browser = Self::new(h);
        let reply = browser.login(email, PASSWORD).await;
        assert_eq!(reply.status, 303, "{}", reply.text);
        let page = browser.get("/payments").await;
        assert_eq!(page.status, 200, "{}", page.text);
        browser.csrf = hidden(&page.text, "csrf").expect("a CSRF token on the page");
        browser
    }

    /// `POST /login`; keeps the session cookie it sets.
    pub async fn login(&mut self, email: &str, password: &str) -> Reply {
        let reply = self
            .post_from(
                Some(&self.base.clone()),
                "/login",
                &[("email", email), ("password", password)],
            )
            .await;
        if let Some(cookie) = reply.headers.get("set-cookie") {
            let cookie = cookie.to_str().expect("ascii cookie");
            let pair = cookie.split(';').next().expect("name=value");
            self.cookie = Some(pair.to_owned());
        }
        reply
    }

    /// `GET path` with the session cookie.
    pub async fn get(&self, path: &str) -> Reply {
        let mut request = self.client.get(format!("{}{path}", self.base));
        if let Some(cookie) = &self.cookie {
            request = request.header("Cookie", cookie);
        }
        Reply::read(request.send().await.expect("sent")).await
    }

    /// A form POST from the dashboard's own origin.
    pub async fn post(&self, path: &str, form: &[(&str, &str)]) -> Reply {
        self.post_from(Some(&self.base.clone()), path, form).await
    }

    /// A form POST with `origin` as its `Origin` header (none: no header).
    pub async fn post_from(
        &self,
        origin: Option<&str>,
        path: &str,
        form: &[(&str, &str)],
    ) -> Reply {
        let mut request = self.client.post(format!("{}{path}", self.base)).form(form);
        if let Some(origin) = origin {
            request = request.header("Origin", origin);
        }
        if let Some(cookie) = &self.cookie {
            request = request.header("Cookie", cookie);
        }
        Reply::read(request.send().await.expect("sent")).await
    }
}

/// The value of the hidden input `name` on a page.
pub fn hidden(html: &str, name: &str) -> Option<String> {
    let marker = format!("name=\"{name}\" value=\"");
    let start = html.find(&marker)? + marker.len();
    let end = html[start..].find('"')?;
    Some(html[start..start + end].to_owned())
}

/// Where a redirect points.
pub fn location(reply: &Reply) -> &str {
    reply
        .headers
        .get("location")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
}

/// A payment of `amount` minor units of EUR paid with the Visa test card (captured): its
/// session and id.
pub async fn paid(h: &Harness, amount: u64) -> (TestSession, String) {
    let session = h.session(amount, json!({"currency": "EUR"})).await;
    let redirect = h.pay_to_redirect(&session, cards::VISA_OK).await;
    h.complete_3ds(&redirect, "approve").await;
    let result = h.result(&session).await;
    assert_eq!(result["state"], "captured", "{result}");
    let id = result["payment_id"]
        .as_str()
        .expect("payment id")
        .to_owned();
    (session, id)
}

/// Moves payment `id`'s creation `minutes` into the past (the rollup's triggers follow).
pub async fn backdate(h: &Harness, id: &str, minutes: i64) {
    let sql = format!(
        "UPDATE payments SET created_at = created_at - {} WHERE id = '{id}'",
        minutes * 60_000
    );
    h.execute(&sql).await;
}
