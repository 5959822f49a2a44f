//! Shared helpers of the emulator tests: an emulator on 127.0.0.1:0 with fast webhook retries
//! and a short hang, an authenticated client, request bodies for each test card, a merchant
//! receiver that records webhooks and browser visits, and the ACS form as a browser sees it.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{Method, StatusCode, Uri};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use checkout_sandbox::{DEFAULT_API_KEY, DEFAULT_X_API_KEY, Sandbox, SandboxConfig, WebhookRetry};
use reqwest::redirect::Policy;
use serde_json::{Value, json};

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

/// A card-form payment body for `number` (JPY 1000; expiry and CVC valid for any brand).
pub fn payment_body(number: &str) -> Value {
    let cvc = if number.starts_with("34") || number.starts_with("37") {
        "1234"
    } else {
        "123"
    };
    json!({
        "amount": "1000",
        "currency": "JPY",
        "card": {
            "cvc": cvc,
            "expiry_month": "12",
            "expiry_year": "39",
            "name": "Jane Doe",
            "number": number,
        },
        "merchant_id": "merchant-1",
        "billing_address": {
            "country": "JP",
            "email": "jane@example.com",
            "phone_number": "+81300000000",
            "address1": "1-1 Chiyoda",
            "city": "Tokyo",
            "state": "Tokyo",
            "postal_code": "100-0001",
        },
        "merchant_txn_ref": "order-1001",
        "customer_ip": "203.0.113.7",
        "time_zone": "Asia/Tokyo",
    })
}

/// A token-form payment body.
pub fn token_body(token: &str) -> Value {
    let mut body = payment_body("4242424242424242");
    let object = body.as_object_mut().expect("object");
    object.remove("card");
    object.insert(
        "payment_method".into(),
        json!({"type": "scheme", "stored_payment_method_id": token}),
    );
    body
}

/// A 3DS body: the card form with `return_url` pointing at `receiver`.
pub fn three_ds_body(number: &str, receiver: &Receiver) -> Value {
    three_ds_body_at(number, &receiver.url(""))
}

/// A 3DS body whose return addresses live under `base` (`http://127.0.0.1:PORT`).
pub fn three_ds_body_at(number: &str, base: &str) -> Value {
    let mut body = payment_body(number);
    body["return_url"] = json!({
        "webhook_url": format!("{base}/webhook/pay-1"),
        "success_url": format!("{base}/pay-1/success?lang=en"),
        "decline_url": format!("{base}/pay-1/declined"),
    });
    body
}

/// Opens `redirect_url` without following redirects and returns the `Location` it sends the
/// browser to (frictionless cards and decided sessions).
pub async fn pass_through(gateway: &Gateway, redirect_url: &str) -> String {
    let answer = gateway
        .client
        .get(redirect_url)
        .send()
        .await
        .expect("redirect");
    assert_eq!(answer.status(), 303, "frictionless redirect");
    answer.headers()["location"]
        .to_str()
        .expect("ascii")
        .to_owned()
}

/// One request the receiver got.
#[derive(Debug, Clone)]
pub struct Received {
    pub method: Method,
    pub uri: Uri,
    pub body: Bytes,
}

impl Received {
    /// The body as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).expect("webhook body is JSON")
    }
}

#[derive(Clone, Default)]
struct ReceiverState {
    received: Arc<Mutex<Vec<Received>>>,
    failures_left: Arc<Mutex<u32>>,
}

/// The merchant side: records every request (webhooks and browser landings) and answers 200,
/// or 503 for the first `failures` webhook posts.
pub struct Receiver {
    address: SocketAddr,
    state: ReceiverState,
    task: tokio::task::JoinHandle<()>,
}

impl Receiver {
    /// A receiver on an ephemeral port.
    pub async fn start() -> Self {
        Self::start_on("127.0.0.1:0".parse().expect("address"), 0).await
    }

    /// A receiver on `address` that answers the first `failures` POSTs with 503.
    pub async fn start_on(address: SocketAddr, failures: u32) -> Self {
        let listener = tokio::net::TcpListener::bind(address)
            .await
            .expect("receiver binds");
        let address = listener.local_addr().expect("address");
        let state = ReceiverState::default();
        *state.failures_left.lock().expect("lock") = failures;
        let app = Router::new().fallback(record).with_state(state.clone());
        let task = tokio::spawn(async move {
            axum::serve(listener, app).await.expect("receiver serves");
        });
        Self {
            address,
            state,
            task,
        }
    }

    /// An absolute URL on the receiver.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.address)
    }

    /// Everything received so far.
    pub fn received(&self) -> Vec<Received> {
        self.state.received.lock().expect("lock").clone()
    }

    /// The POSTs received so far (webhook attempts, failed ones included).
    pub fn posts(&self) -> Vec<Received> {
        self.received()
            .into_iter()
            .filter(|r| r.method == Method::POST)
            .collect()
    }

    /// Waits until `count` POSTs arrived or `timeout` passes; returns them.
    pub async fn wait_for_posts(&self, count: usize, timeout: Duration) -> Vec<Received> {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let posts = self.posts();
            if posts.len() >= count || tokio::time::Instant::now() >= deadline {
                return posts;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn record(
    State(state): State<ReceiverState>,
    method: Method,
    uri: Uri,
    body: Bytes,
) -> StatusCode {
    let is_post = method == Method::POST;
    state
        .received
        .lock()
        .expect("lock")
        .push(Received { method, uri, body });
    let mut failures = state.failures_left.lock().expect("lock");
    if is_post && *failures > 0 {
        *failures -= 1;
        return StatusCode::SERVICE_UNAVAILABLE;
    }
    StatusCode::OK
}

/// A free loopback port (bound, then released) for a receiver that starts late.
pub fn reserve_address() -> SocketAddr {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("binds");
    listener.local_addr().expect("address")
}

/// The ACS form as the page renders it.
#[derive(Debug, Clone)]
pub struct AcsForm {
    pub action: String,
    pub token: String,
}

impl AcsForm {
    /// Parses the page's form: its `action` and the hidden `_token`.
    pub fn parse(html: &str) -> Self {
        let action = attribute_after(html, "<form", "action").expect("form action");
        let token_input = html.find("name=\"_token\"").expect("token input");
        let token = attribute_after(&html[token_input..], "", "value").expect("token value");
        Self {
            action: unescape(&action),
            token: unescape(&token),
        }
    }

    /// Submits the form with `decision` (`approve` or `reject`) as the button would.
    pub async fn submit(&self, client: &reqwest::Client, decision: &str) -> reqwest::Response {
        client
            .post(&self.action)
            .form(&[("_token", self.token.as_str()), ("decision", decision)])
            .send()
            .await
            .expect("form posted")
    }
}

fn attribute_after(html: &str, anchor: &str, name: &str) -> Option<String> {
    let start = html.find(anchor)?;
    let rest = &html[start..];
    let key = format!("{name}=\"");
    let value_start = rest.find(&key)? + key.len();
    let value_end = rest[value_start..].find('"')? + value_start;
    Some(rest[value_start..value_end].to_owned())
}

fn unescape(text: &str) -> String {
    text.replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// Query parameter `name` of `url`.
pub fn query_param(url: &str, name: &str) -> Option<String> {
    reqwest::Url::parse(url)
        .ok()?
        .query_pairs()
        .find(|(key, _)| key == name)
        .map(|(_, value)| value.into_owned())
}
