//! What the benchmarks that pay through checkout-server share: a server with a real gateway
//! (the emulator on its own port, as a remote gateway would be) and a customer whose card is
//! saved at the emulator, its timed token pay call, and latency series. Included by
//! `pay_latency.rs` and `webhooks.rs` (`#[path]`); not a benchmark of its own.

use std::time::{Duration, Instant};

use checkout_sandbox::{DEFAULT_API_KEY, DEFAULT_X_API_KEY, Sandbox};
use checkout_server::config::{Config, EmulatorDefaults};
use checkout_server::serve::{Mounts, Server};
use checkout_server::store::prelude::*;
use secrecy::SecretString;
use serde_json::{Value, json};
use tokio::sync::Mutex;

/// The server's merchant key.
pub const MERCHANT_KEY: &str = "sk_bench_0123456789abcdef";
/// The shop's customers, each with a card saved, who pay in turn: concurrent shoppers are
/// different customers, as in a shop (one customer for every pay made each payment's
/// foreign-key check share a lock on that customer's row and its card's).
pub const CUSTOMERS: usize = 64;

/// The `n`th customer's id.
fn customer(n: usize) -> String {
    format!("bench-customer-{n}")
}

/// A session created for paying, and the saved card of its customer.
#[derive(Clone)]
pub struct Checkout {
    id: String,
    secret: String,
    card_id: String,
}

/// Latencies of one series, sorted.
pub struct Series(Vec<Duration>);

impl Series {
    pub fn new(mut samples: Vec<Duration>) -> Self {
        samples.sort();
        Self(samples)
    }

    pub fn quantile(&self, q: f64) -> Duration {
        let index = ((self.0.len() as f64 - 1.0) * q).round() as usize;
        self.0[index.min(self.0.len() - 1)]
    }
}

/// Stores an approved Visa at the emulator and returns its token.
pub async fn store_card(http: &reqwest::Client, sandbox: &Sandbox) -> String {
    let mut body = charge_body(None, "bench-setup");
    body["card"] = json!({"number": "4242424242424242", "expiry_month": "12", "expiry_year": "39", "cvc": "123", "name": "Bench"});
    body["payment_method"] = json!({"type": "scheme", "store_payment_method": true});
    let answer: Value = gateway(http, sandbox)
        .json(&body)
        .send()
        .await
        .expect("sent")
        .json()
        .await
        .expect("json");
    answer["transaction_details"]["stored_payment_method_id"]
        .as_str()
        .expect("token")
        .to_owned()
}

/// A request to the emulator's `/payment` with its credentials.
pub fn gateway(http: &reqwest::Client, sandbox: &Sandbox) -> reqwest::RequestBuilder {
    use base64::Engine as _;
    let basic = base64::engine::general_purpose::STANDARD.encode(DEFAULT_API_KEY);
    http.post(sandbox.api_url("payment"))
        .header("Authorization", format!("Basic {basic}"))
        .header("x-api-key", DEFAULT_X_API_KEY)
}

/// The token form of `/payment` as the server sends it.
pub fn charge_body(token: Option<&str>, reference: &str) -> Value {
    let mut body = json!({
        "amount": "1000", "currency": "JPY", "merchant_id": "bench-merchant",
        "billing_address": {"country": "JP", "postal_code": "100-0001", "email": "bench@example.test"},
        "merchant_txn_ref": reference, "customer_ip": "127.0.0.1", "time_zone": "Asia/Tokyo",
    });
    if let Some(token) = token {
        body["payment_method"] = json!({"type": "scheme", "store_payment_method": false, "stored_payment_method_id": token});
    }
    body
}

/// A running server with a customer whose card is saved.
pub struct BenchServer {
    base: String,
    http: reqwest::Client,
    /// The saved card of each customer, in order.
    cards: Vec<String>,
    /// The customer the next session is for.
    next: std::sync::atomic::AtomicUsize,
    shutdown: Mutex<Option<tokio::sync::oneshot::Sender<()>>>,
    task: Mutex<Option<tokio::task::JoinHandle<anyhow::Result<()>>>>,
}

/// The settings every benchmark server runs with, on `database_url` with `sandbox` as its
/// gateway: as `Config` pairs in process, or as the environment of a `serve` process.
pub fn server_settings(database_url: &str, sandbox: &Sandbox) -> Vec<(&'static str, String)> {
    [
        ("DATABASE_URL", database_url),
        ("GATEWAY_BASE_URL", sandbox.base_url()),
        (
            "CARD_FINGERPRINT_KEY",
            "abababababababababababababababababababababababababababababababab",
        ),
        ("GATEWAY_API_KEY", DEFAULT_API_KEY),
        ("GATEWAY_X_API_KEY", DEFAULT_X_API_KEY),
        ("GATEWAY_MERCHANT_ID", "bench-merchant"),
        ("MERCHANT_SECRET_KEY", MERCHANT_KEY),
        (
            "SECRETS_KEY",
            "bench:000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
        ),
        ("PAY_RATE_LIMIT_PER_IP", "100000"),
        // Thousands of pays a second from an empty day are a surge by definition: the
        // card-testing alert would open and ask each pay for a proof of work. Its review
        // still runs after every try, as in a shop; it is only never raised.
        ("RISK_ALERT_SURGE_TIMES", "0"),
        ("RECONCILE_INTERVAL_SECONDS", "86400"),
        ("DASHBOARD_LISTEN", "off"),
    ]
    .into_iter()
    .map(|(key, value)| (key, value.to_owned()))
    .collect()
}

/// A server on `database_url` with `sandbox` as its gateway and the card `token` saved.
pub async fn start_server(database_url: &str, sandbox: &Sandbox, token: &str) -> BenchServer {
    let settings = server_settings(database_url, sandbox);
    let pairs: Vec<(&str, &str)> = settings
        .iter()
        .map(|(key, value)| (*key, value.as_str()))
        .collect();
    let config =
        Config::from_pairs(&pairs, &EmulatorDefaults::default()).expect("bench configuration");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    // A real gateway (the emulator on its own port, as a remote gateway would be).
    let server = Server::build(config, listener, |_| Mounts::default())
        .await
        .expect("server builds");
    let base = server.base_url().to_owned();
    let mut cards = Vec::with_capacity(CUSTOMERS);
    for n in 0..CUSTOMERS {
        let card = server
            .state()
            .store
            .save_card(NewSavedCard {
                customer_id: customer(n),
                gateway_token: SecretString::from(token.to_owned()),
                brand: checkout::card::Brand::Visa,
                last4: Last4::new("4242").expect("last4"),
                expiry_month: 12,
                expiry_year: 2039,
                card_fingerprint: None,
                saved_from: None,
            })
            .await
            .expect("card saved");
        cards.push(card.id);
    }
    let (shutdown, stop) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(server.run(async move {
        let _ = stop.await;
    }));
    let mut bench = BenchServer::at(base, cards);
    bench.shutdown = Mutex::new(Some(shutdown));
    bench.task = Mutex::new(Some(task));
    bench
}

impl BenchServer {
    /// The server at `base` (in this process or another), where the customers' cards are
    /// saved as `cards` (in the customers' order); stopping it is its owner's business.
    pub fn at(base: String, cards: Vec<String>) -> Self {
        Self {
            base,
            http: reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .expect("client"),
            cards,
            next: std::sync::atomic::AtomicUsize::new(0),
            shutdown: Mutex::new(None),
            task: Mutex::new(None),
        }
    }

    /// The customers' saved cards, in order.
    pub fn cards(&self) -> &[String] {
        &self.cards
    }

    /// Creates a session (untimed), then times its pay call.
    pub async fn pay_once(&self) -> Duration {
        let session = self.session().await;
        self.pay(&session).await
    }

    /// A new session for the next customer in turn.
    pub async fn session(&self) -> Checkout {
        let n = self.next.fetch_add(1, std::sync::atomic::Ordering::Relaxed) % self.cards.len();
        let reference = format!("b-{}", &uuid::Uuid::new_v4().simple().to_string()[..20]);
        let session: Value = self
            .http
            .post(format!("{}/v1/sessions", self.base))
            .bearer_auth(MERCHANT_KEY)
            .json(&json!({"amount": 1000, "currency": "JPY", "reference": reference, "customer_id": customer(n)}))
            .send()
            .await
            .expect("session sent")
            .json()
            .await
            .expect("session json");
        let id = session["id"].as_str().expect("session id").to_owned();
        let secret = session["client_secret"]
            .as_str()
            .expect("client secret")
            .to_owned();
        Checkout {
            id,
            secret,
            card_id: self.cards[n].clone(),
        }
    }

    /// Pays `checkout` with its customer's saved card; the time of the pay call alone.
    pub async fn pay(&self, checkout: &Checkout) -> Duration {
        let Checkout {
            id,
            secret,
            card_id,
        } = checkout;
        let body = json!({
            "saved_card_id": card_id,
            "billing_address": {"country": "JP", "postal_code": "100-0001"},
            "browser_info": {"screen_width": 1440, "screen_height": 900, "color_depth": 24, "java_enabled": false,
                "language": "ja-JP", "user_agent": "bench", "time_zone": "Asia/Tokyo",
                "time_zone_offset_minutes": -540, "challenge_window": "05"},
        });
        let started = Instant::now();
        let response = self
            .http
            .post(format!("{}/v1/checkout/{id}/pay", self.base))
            .header("X-Client-Secret", secret.as_str())
            .json(&body)
            .send()
            .await
            .expect("pay sent");
        let status = response.status();
        let text = response.text().await.expect("pay body");
        let elapsed = started.elapsed();
        assert!(
            status == 200 && text.contains("\"captured\""),
            "pay failed: {status} {text}"
        );
        elapsed
    }

    /// Stops the server and waits for it.
    pub async fn stop(&self) {
        if let Some(shutdown) = self.shutdown.lock().await.take() {
            let _ = shutdown.send(());
        }
        if let Some(task) = self.task.lock().await.take() {
            let _ = task.await;
        }
    }
}

/// Pays per second with `shoppers` paying at once, `each` pays apiece, shopper `i` paying
/// through `servers[i % servers.len()]` (its sessions created there beforehand, untimed).
pub async fn pays_per_second(
    servers: &[std::sync::Arc<BenchServer>],
    shoppers: usize,
    each: usize,
) -> f64 {
    let mut batches = Vec::with_capacity(shoppers);
    for shopper in 0..shoppers {
        let server = servers[shopper % servers.len()].clone();
        let mut sessions = Vec::with_capacity(each);
        for _ in 0..each {
            sessions.push(server.session().await);
        }
        batches.push((server, sessions));
    }
    let started = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for (server, sessions) in batches {
        tasks.spawn(async move {
            for session in &sessions {
                server.pay(session).await;
            }
        });
    }
    while let Some(done) = tasks.join_next().await {
        done.expect("shopper task");
    }
    (shoppers * each) as f64 / started.elapsed().as_secs_f64()
}
