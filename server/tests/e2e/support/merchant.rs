//! The two back-office views a scenario checks its outcome against: the merchant API of the
//! checkout server (what the shop's backend sees) and the emulator's control API (what the
//! "gateway" did: transactions, webhooks, clock, faults).

use std::time::{Duration, Instant};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde_json::{Value, json};

use super::server::{MERCHANT_KEY, SANDBOX_API_KEY, SANDBOX_X_API_KEY};

/// The merchant API at `base`.
#[derive(Clone)]
pub struct Merchant {
    http: reqwest::Client,
    base: String,
}

impl Merchant {
    /// A client for the server at `base`.
    pub fn new(base: &str) -> Self {
        Self {
            // No idle connections: a scenario kills and restarts servers on the same port.
            http: reqwest::Client::builder()
                .timeout(Duration::from_secs(30))
                .pool_max_idle_per_host(0)
                .build()
                .expect("http client"),
            base: base.trim_end_matches('/').to_owned(),
        }
    }

    /// `GET path` with the merchant key; the JSON answer (panics on a non-2xx).
    pub async fn get(&self, path: &str) -> Value {
        let response = self
            .http
            .get(format!("{}{path}", self.base))
            .bearer_auth(MERCHANT_KEY)
            .send()
            .await
            .unwrap_or_else(|e| panic!("GET {path}: {e}"));
        read(response, path).await
    }

    /// `POST path` with the merchant key and a JSON body; the JSON answer.
    pub async fn post(&self, path: &str, body: Value) -> Value {
        let response = self
            .http
            .post(format!("{}{path}", self.base))
            .bearer_auth(MERCHANT_KEY)
            .json(&body)
            .send()
            .await
            .unwrap_or_else(|e| panic!("POST {path}: {e}"));
        read(response, path).await
    }

    /// Creates a checkout session: `(id, client_secret)`.
    pub async fn create_session(&self, body: Value) -> (String, String) {
        let session = self.post("/v1/sessions", body).await;
        let field = |name: &str| {
            session[name]
                .as_str()
                .unwrap_or_else(|| panic!("session answer without `{name}`: {session}"))
                .to_owned()
        };
        (field("id"), field("client_secret"))
    }

    /// The payments of a session (newest first), from `GET /v1/sessions/{id}`.
    pub async fn session_payments(&self, session_id: &str) -> Vec<Value> {
        let session = self.get(&format!("/v1/sessions/{session_id}")).await;
        session["payments"].as_array().cloned().unwrap_or_default()
    }

    /// Waits until the newest payment of the session is in `state`; returns it.
    pub async fn wait_payment_state(
        &self,
        session_id: &str,
        state: &str,
        limit: Duration,
    ) -> Value {
        let deadline = Instant::now() + limit;
        loop {
            let payments = self.session_payments(session_id).await;
            if let Some(payment) = payments.first().filter(|p| p["state"] == state) {
                return payment.clone();
            }
            assert!(
                Instant::now() < deadline,
                "session {session_id}: no payment in state `{state}` after {limit:?}; payments: {payments:?}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

/// The emulator's control API at `base` (the emulator's own root: `.../_sandbox` in-process).
#[derive(Clone)]
pub struct Emulator {
    http: reqwest::Client,
    base: String,
}

impl Emulator {
    /// A client for the emulator at `base`, with its default credentials.
    pub fn new(base: &str) -> Self {
        Self {
            // No idle connections: a scenario kills and restarts servers on the same port.
            http: reqwest::Client::builder()
                .timeout(Duration::from_secs(30))
                .pool_max_idle_per_host(0)
                .build()
                .expect("http client"),
            base: base.trim_end_matches('/').to_owned(),
        }
    }

    fn request(&self, method: reqwest::Method, path: &str) -> reqwest::RequestBuilder {
        self.http
            .request(method, format!("{}{path}", self.base))
            .header(
                "authorization",
                format!("Basic {}", BASE64.encode(SANDBOX_API_KEY)),
            )
            .header("x-api-key", SANDBOX_X_API_KEY)
    }

    /// `GET /sandbox/state`.
    pub async fn state(&self) -> Value {
        let response = self
            .request(reqwest::Method::GET, "/sandbox/state")
            .send()
            .await
            .expect("GET /sandbox/state");
        read(response, "/sandbox/state").await
    }

    /// The billing address the gateway holds for transaction `id`, from its status endpoint
    /// (`transaction_details.billing_details.billing_address`).
    pub async fn billing_address(&self, id: &str) -> Value {
        let path = format!("/api/v1/server-to-server-interface/transaction/status/{id}");
        let response = self
            .request(reqwest::Method::GET, &path)
            .send()
            .await
            .expect("GET the transaction's status");
        read(response, &path).await["transaction_details"]["billing_details"]["billing_address"]
            .clone()
    }

    /// The emulator's transactions of the session whose reference is `reference`: each
    /// attempt's `merchant_txn_ref` is the reference with `-<attempt number>` appended.
    pub async fn transactions_for(&self, reference: &str) -> Vec<Value> {
        let state = self.state().await;
        state["transactions"]
            .as_array()
            .map(|all| {
                all.iter()
                    .filter(|t| {
                        find_key(t, "merchant_txn_ref")
                            .as_ref()
                            .and_then(Value::as_str)
                            .and_then(|r| r.strip_prefix(reference))
                            .and_then(|rest| rest.strip_prefix('-'))
                            .is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()))
                    })
                    .cloned()
                    .collect()
            })
            .unwrap_or_default()
    }

    /// `POST /sandbox/clock/advance {days}`.
    pub async fn advance_days(&self, days: u32) -> Value {
        let response = self
            .request(reqwest::Method::POST, "/sandbox/clock/advance")
            .json(&json!({ "days": days }))
            .send()
            .await
            .expect("advance the clock");
        read(response, "/sandbox/clock/advance").await
    }

    /// `POST /sandbox/faults`: breaks the next `count` calls to `endpoint` (`None`: all).
    pub async fn arm_fault(&self, endpoint: Option<&str>, fault: &str, count: u32) {
        let mut body = json!({ "fault": fault, "count": count });
        if let Some(endpoint) = endpoint {
            body["endpoint"] = Value::from(endpoint);
        }
        let response = self
            .request(reqwest::Method::POST, "/sandbox/faults")
            .json(&body)
            .send()
            .await
            .expect("arm a fault");
        read(response, "/sandbox/faults").await;
    }

    /// `DELETE /sandbox/faults`.
    pub async fn clear_faults(&self) {
        let response = self
            .request(reqwest::Method::DELETE, "/sandbox/faults")
            .send()
            .await
            .expect("clear faults");
        read(response, "/sandbox/faults").await;
    }
}

/// The first value of `key` anywhere in `value` (depth first).
pub fn find_key(value: &Value, key: &str) -> Option<Value> {
    match value {
        Value::Object(map) => map
            .get(key)
            .cloned()
            .or_else(|| map.values().find_map(|v| find_key(v, key))),
        Value::Array(items) => items.iter().find_map(|v| find_key(v, key)),
        _ => None,
    }
}

async fn read(response: reqwest::Response, what: &str) -> Value {
    let status = response.status();
    let text = response.text().await.unwrap_or_default();
    assert!(status.is_success(), "{what}: HTTP {status}: {text}");
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{what}: not JSON ({e}): {text}"))
}
