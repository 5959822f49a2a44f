//! Shared helpers of the emulator tests: an emulator on 127.0.0.1:0 with fast webhook retries
//! and a short hang, an authenticated client and its answers (here), request bodies for each
//! test card (bodies.rs), a merchant receiver that records webhooks and browser visits
//! (receiver.rs), and the ACS form as a browser sees it (acs_form.rs).

mod acs_form;
mod bodies;
mod receiver;

use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use checkout_sandbox::{DEFAULT_API_KEY, DEFAULT_X_API_KEY, Sandbox, SandboxConfig, WebhookRetry};
use reqwest::redirect::Policy;
use serde_json::Value;

pub use acs_form::{AcsForm, query_param};
pub use bodies::{pass_through, payment_body, three_ds_body, three_ds_body_at, token_body};
pub use receiver::{Receiver, reserve_address};

/// How long the hanging card takes in tests (the real default is 120 s).
pub const TEST_HANG: Duration = Duration::from_millis(1500);

/// Emulator configuration for tests: webhooks retried every 20–200 ms, a short hang.
pub fn fast_config() -> SandboxConfig {
    SandboxConfig {
        webhook: WebhookRetry {
            max_attempts: 8,
            base_delay: Duration::from_millis(20),
            max_delay: Duration::from_millis(200),
            attempt_timeout: Duration::from_secs(2),
        },
        hang: TEST_HANG,
        ..SandboxConfig::default()
    }
}

/// `Basic base64(api key)` for the default key.
pub fn basic_default() -> String {
    format!("Basic {}", STANDARD.encode(DEFAULT_API_KEY))
}

/// An answer: status, raw text and (when it parses) JSON.
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub text: String,
    pub json: Value,
}

impl Reply {
    async fn read(response: reqwest::Response) -> Self {
        let status = response.status().as_u16();
        let text = response.text().await.expect("readable body");
        let json = serde_json::from_str(&text).unwrap_or(Value::Null);
        Self { status, text, json }
    }

    /// `gateway_response.code`.
    pub fn code(&self) -> &str {
        self.json["gateway_response"]["code"]
            .as_str()
            .unwrap_or_default()
    }

    /// `transaction_details.id`.
    pub fn id(&self) -> String {
        self.json["transaction_details"]["id"]
            .as_str()
            .unwrap_or_else(|| panic!("no transaction id in {}", self.text))
            .to_owned()
    }

    /// Asserts the failure body shape and returns the message.
    pub fn failure(&self, status: u16, code: &str) -> String {
        assert_eq!(self.status, status, "{}", self.text);
        assert_eq!(self.json["success"], false, "{}", self.text);
        assert_eq!(self.json["status_code"], status, "{}", self.text);
        assert_eq!(self.json["is_live"], false, "{}", self.text);
        assert_eq!(
            self.json["gateway_response"]["version"], "1",
            "{}",
            self.text
        );
        assert_eq!(
            self.json["gateway_response"]["type"], "ERROR",
            "{}",
            self.text
        );
        assert_eq!(self.code(), code, "{}", self.text);
        self.json["gateway_response"]["message"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }
}

/// A running emulator and a client that does not follow redirects.
pub struct Gateway {
    pub sandbox: Sandbox,
    pub client: reqwest::Client,
}

impl Gateway {
    /// An emulator with [`fast_config`].
    pub async fn start() -> Self {
        Self::with_config(fast_config()).await
    }

    /// An emulator with `config`.
    pub async fn with_config(config: SandboxConfig) -> Self {
        let sandbox = Sandbox::start(config).await.expect("emulator starts");
        let client = reqwest::Client::builder()
            .redirect(Policy::none())
            .build()
            .expect("client builds");
        Self { sandbox, client }
    }

    /// A request to `url` with both credentials.
    pub fn authed(&self, method: reqwest::Method, url: &str) -> reqwest::RequestBuilder {
        self.client
            .request(method, url)
            .header("Authorization", basic_default())
            .header("x-api-key", DEFAULT_X_API_KEY)
    }

    /// `POST` JSON to a gateway endpoint (`payment`, `capture`, ...).
    pub async fn post(&self, endpoint: &str, body: &Value) -> Reply {
        self.post_with(endpoint, body, &[]).await
    }

    /// `POST` JSON to a gateway endpoint with extra headers.
    pub async fn post_with(&self, endpoint: &str, body: &Value, headers: &[(&str, &str)]) -> Reply {
        let mut request = self
            .authed(reqwest::Method::POST, &self.sandbox.api_url(endpoint))
            .json(body);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        Reply::read(request.send().await.expect("request sent")).await
    }

    /// `GET /transaction/status/{id}`.
    pub async fn status(&self, id: &str) -> Reply {
        let url = self.sandbox.api_url(&format!("transaction/status/{id}"));
        Reply::read(
            self.authed(reqwest::Method::GET, &url)
                .send()
                .await
                .expect("request sent"),
        )
        .await
    }

    /// A control API call (`/sandbox/...`) with credentials.
    pub async fn control(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<&Value>,
    ) -> Reply {
        let url = format!("{}{path}", self.sandbox.base_url());
        let mut request = self.authed(method, &url);
        if let Some(body) = body {
            request = request.json(body);
        }
        Reply::read(request.send().await.expect("request sent")).await
    }

    /// The state dump.
    pub async fn state(&self) -> Value {
        let reply = self
            .control(reqwest::Method::GET, "/sandbox/state", None)
            .await;
        assert_eq!(reply.status, 200, "{}", reply.text);
        reply.json
    }

    /// Number of recorded transactions.
    pub async fn transaction_count(&self) -> usize {
        self.state().await["transactions"]
            .as_array()
            .map_or(0, Vec::len)
    }
}
