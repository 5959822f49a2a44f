//! Subscriptions on the emulator over HTTP: lifecycle (trial, discount, expiry, pause,
//! resume, cancel), refused transitions, failing cycles, ids, auth and validation.
//! The emulator runs in-process on 127.0.0.1:0; `POST /sandbox/clock/advance` drives billing.

#[path = "subscriptions_lifecycle.rs"]
mod lifecycle;
#[path = "subscriptions_refusals.rs"]
mod refusals;
#[path = "subscriptions_timing.rs"]
mod timing;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use checkout_sandbox::{DEFAULT_API_KEY, DEFAULT_X_API_KEY, Sandbox, SandboxConfig};
use reqwest::Method;
use serde_json::{Value, json};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

/// Approved Visa.
pub const VISA: &str = "4242424242424242";
/// Approved on the first charge, declined 51 on later cycles.
pub const APPROVE_ONCE: &str = "4000000000000341";
/// 3DS challenge card of the vendor's subscription sample (approved here: no 3DS).
pub const CHALLENGE: &str = "4000000000001091";
/// Declined 5, do not honour.
pub const DO_NOT_HONOUR: &str = "4000000000000002";

/// Which credentials a request carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Auth {
    /// The emulator's default keys.
    Valid,
    /// No `Authorization` and no `x-api-key`.
    Missing,
    /// A wrong API key with the right `x-api-key`.
    WrongKey,
}

/// An emulator on an ephemeral port and a client for it.
pub struct Emulator {
    sandbox: Sandbox,
    client: reqwest::Client,
}

impl Emulator {
    /// Starts a fresh emulator with the default configuration.
    pub async fn start() -> Self {
        Self::start_with(SandboxConfig::default()).await
    }

    /// Starts a fresh emulator with `config`.
    pub async fn start_with(config: SandboxConfig) -> Self {
        let sandbox = Sandbox::start(config).await.expect("emulator starts");
        Self {
            sandbox,
            client: reqwest::Client::new(),
        }
    }

    /// Sends a request to a gateway endpoint (relative to the API prefix) or, for paths
    /// starting with `/sandbox`, to the control API. Returns the status and the JSON body.
    pub async fn send(
        &self,
        method: Method,
        path: &str,
        body: Option<&Value>,
        auth: Auth,
    ) -> (u16, Value) {
        let url = if path.starts_with("/sandbox") {
            format!("{}{path}", self.sandbox.base_url())
        } else {
            self.sandbox.api_url(path)
        };
        let mut request = self.client.request(method, url);
        match auth {
            Auth::Valid => {
                request = request
                    .header(
                        "Authorization",
                        format!("Basic {}", STANDARD.encode(DEFAULT_API_KEY)),
                    )
                    .header("x-api-key", DEFAULT_X_API_KEY);
            }
            Auth::WrongKey => {
                request = request
                    .header(
                        "Authorization",
                        format!("Basic {}", STANDARD.encode("not-the-key")),
                    )
                    .header("x-api-key", DEFAULT_X_API_KEY);
            }
            Auth::Missing => {}
        }
        if let Some(body) = body {
            request = request.json(body);
        }
        let response = request.send().await.expect("emulator answers");
        let status = response.status().as_u16();
        let text = response.text().await.expect("body readable");
        let json = serde_json::from_str(&text)
            .unwrap_or_else(|_| panic!("body is JSON (status {status}): {text}"));
        (status, json)
    }

    /// `POST` with valid credentials.
    pub async fn post(&self, path: &str, body: Option<&Value>) -> (u16, Value) {
        self.send(Method::POST, path, body, Auth::Valid).await
    }

    /// `GET` with valid credentials.
    pub async fn get(&self, path: &str) -> (u16, Value) {
        self.send(Method::GET, path, None, Auth::Valid).await
    }

    /// Creates a subscription, asserting 201; returns the whole response.
    pub async fn create(&self, body: &Value) -> Value {
        let (status, response) = self.post("subscription/payment", Some(body)).await;
        assert_eq!(status, 201, "{response}");
        response
    }

    /// `GET /subscription/{id}`, asserting 200; returns `subscription_details`.
    pub async fn subscription(&self, id: &str) -> Value {
        let (status, response) = self.get(&format!("subscription/{id}")).await;
        assert_eq!(status, 200, "{response}");
        assert_eq!(response["success"], true);
        assert_eq!(response["status_code"], 200);
        assert_eq!(response["is_live"], false);
        response["subscription_details"].clone()
    }

    /// `POST /subscription/{id}/{operation}`.
    pub async fn operate(&self, id: &str, operation: &str) -> (u16, Value) {
        self.post(&format!("subscription/{id}/{operation}"), None)
            .await
    }

    /// `POST /sandbox/clock/advance` by whole days.
    pub async fn advance_days(&self, days: u32) {
        let (status, body) = self
            .post("/sandbox/clock/advance", Some(&json!({ "days": days })))
            .await;
        assert_eq!(status, 200, "{body}");
    }

    /// The emulator's clock.
    pub async fn now(&self) -> OffsetDateTime {
        let (status, body) = self.get("/sandbox/clock").await;
        assert_eq!(status, 200, "{body}");
        parse_time(&body["now"])
    }

    /// `GET /transaction/status/{id}`, asserting 200.
    pub async fn transaction(&self, id: &str) -> Value {
        let (status, body) = self.get(&format!("transaction/status/{id}")).await;
        assert_eq!(status, 200, "{body}");
        body
    }
}

/// Parses an RFC 3339 timestamp from a JSON string.
pub fn parse_time(value: &Value) -> OffsetDateTime {
    let text = value
        .as_str()
        .unwrap_or_else(|| panic!("a timestamp: {value}"));
    OffsetDateTime::parse(text, &Rfc3339).unwrap_or_else(|_| panic!("RFC 3339: {text}"))
}

/// A plan object: `cycle_type` × `interval`, `max` cycles, no trial, no discount.
pub fn plan(cycle_type: &str, interval: u32, max: u32) -> Value {
    json!({
        "plan_name": "Gold plan",
        "plan_desc": "Gold membership",
        "cycle_type": cycle_type,
        "subscription_end_type": "CYCLE",
        "cycle_interval": interval,
        "max_cycle_count": max,
        "has_trial_period": false,
        "trial_period_duration_type": "DAYS",
        "trial_period_duration": 0,
        "has_discount": false,
        "discount_percentage": 0,
        "discount_duration": 0
    })
}

/// Adds a trial of `days` to a plan.
pub fn with_trial(mut plan: Value, days: u32) -> Value {
    plan["has_trial_period"] = json!(true);
    plan["trial_period_duration"] = json!(days);
    plan
}

/// Adds a discount of `percentage` for `cycles` cycles to a plan.
pub fn with_discount(mut plan: Value, percentage: u32, cycles: u32) -> Value {
    plan["has_discount"] = json!(true);
    plan["discount_percentage"] = json!(percentage);
    plan["discount_duration"] = json!(cycles);
    plan
}

/// A creation request in the vendor's sample shape: 1000 JPY per cycle with `card`.
pub fn creation(card: &str, plan: Value) -> Value {
    json!({
        "amount": "1000",
        "currency": "JPY",
        "card": {
            "cvc": "123",
            "expiry_month": "12",
            "expiry_year": "39",
            "name": "Taro Yamada",
            "number": card
        },
        "merchant_id": "merchant-0001",
        "billing_address": {
            "country": "JP",
            "email": "taro@example.com",
            "phone_number": "0312345678",
            "address1": "1-1 Chiyoda",
            "city": "Tokyo",
            "state": "Tokyo",
            "postal_code": "1000001"
        },
        "shipping_address": {
            "country": "JP",
            "address1": "2-2 Minato",
            "city": "Tokyo",
            "postal_code": "1050001"
        },
        "merchant_txn_ref": "sub-order-0001",
        "customer_ip": "203.0.113.7",
        "time_zone": "Asia/Tokyo",
        "payment_method": {"type": "scheme", "store_payment_method": true},
        "subscription": plan
    })
}

/// `(cycle, status, amount)` of each history entry.
pub fn history(details: &Value) -> Vec<(u64, String, u64)> {
    details["subscription_transaction_details"]
        .as_array()
        .unwrap_or_else(|| panic!("history present: {details}"))
        .iter()
        .map(|entry| {
            (
                entry["cycle"].as_u64().expect("cycle"),
                entry["status"].as_str().expect("status").to_owned(),
                entry["amount"].as_u64().expect("amount"),
            )
        })
        .collect()
}

/// The subscription id of a creation response.
pub fn id_of(created: &Value) -> String {
    created["subscription_details"]["id"]
        .as_str()
        .unwrap_or_else(|| panic!("subscription id: {created}"))
        .to_owned()
}
