//! What the checkout server adds to a payment: the token (no 3-D Secure) pay call through the
//! server's browser API versus the same charge sent straight to the gateway emulator, in one
//! run, on SQLite and on Postgres (`TEST_DATABASE_URL_POSTGRES`; skipped with a notice when
//! unset). Prints p50/p99 of both, the difference, and pays per second with concurrent
//! shoppers. Targets: p50 ≤ +1 ms, p99 ≤ +5 ms.
//!
//! Run: `cargo bench -p checkout-server --bench pay_latency [-- --payments 400 --clients 8]`.
//!
//! The emulator runs on its own loopback listener, as a remote gateway would; the server is
//! configured with it as `GATEWAY_BASE_URL`. Each timed server call pays a fresh session
//! (created untimed) with the customer's saved card, so it does all a real pay does: session
//! and secret check, the pay claim, the saved card, the payment recorded before and after the
//! gateway call, the attempt log.

use std::sync::Arc;
use std::time::{Duration, Instant};

use checkout_sandbox::{DEFAULT_API_KEY, DEFAULT_X_API_KEY, Sandbox, SandboxConfig};
use checkout_server::config::{Config, EmulatorDefaults};
use checkout_server::serve::{Mounts, Server};
use checkout_server::store::prelude::*;
use secrecy::SecretString;
use serde_json::{Value, json};
use tokio::sync::Mutex;

const MERCHANT_KEY: &str = "sk_bench_0123456789abcdef";
const CUSTOMER: &str = "bench-customer";
const POSTGRES_ENV: &str = "TEST_DATABASE_URL_POSTGRES";

struct Options {
    payments: usize,
    warmup: usize,
    clients: usize,
}

impl Options {
    fn from_args() -> Self {
        let mut options = Self {
            payments: 400,
            warmup: 50,
            clients: 8,
        };
        let args: Vec<String> = std::env::args().collect();
        for pair in args.windows(2) {
            let value = pair[1].parse::<usize>().ok();
            match (pair[0].as_str(), value) {
                ("--payments", Some(v)) => options.payments = v.max(10),
                ("--warmup", Some(v)) => options.warmup = v,
                ("--clients", Some(v)) => options.clients = v.max(1),
                _ => {}
            }
        }
        options
    }
}

/// Latencies of one series, sorted.
struct Series(Vec<Duration>);

impl Series {
    fn new(mut samples: Vec<Duration>) -> Self {
        samples.sort();
        Self(samples)
    }

    fn quantile(&self, q: f64) -> Duration {
        let index = ((self.0.len() as f64 - 1.0) * q).round() as usize;
        self.0[index.min(self.0.len() - 1)]
    }
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

fn main() {
    let options = Options::from_args();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("tokio runtime");
    runtime.block_on(run(options));
}

async fn run(options: Options) {
    let sandbox = Sandbox::start(SandboxConfig::default())
        .await
        .expect("emulator starts");
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client");
    let token = store_card(&http, &sandbox).await;
    println!(
        "pay latency: token payment (no 3DS), {} timed calls after {} warm-up, {} concurrent for throughput",
        options.payments, options.warmup, options.clients
    );
    println!(
        "{:<10} {:<9} {:>9} {:>9} {:>9} {:>9} {:>11} {:>11} {:>10}",
        "backend", "path", "p50 ms", "p90 ms", "p99 ms", "max ms", "+p50 ms", "+p99 ms", "pays/s"
    );

    let direct = direct_series(&http, &sandbox, &token, &options).await;
    let direct_rate = direct_throughput(&http, &sandbox, &token, &options).await;
    println!(
        "{:<10} {:<9} {:>9.3} {:>9.3} {:>9.3} {:>9.3} {:>11} {:>11} {:>10.0}",
        "-",
        "emulator",
        ms(direct.quantile(0.5)),
        ms(direct.quantile(0.9)),
        ms(direct.quantile(0.99)),
        ms(direct.quantile(1.0)),
        "",
        "",
        direct_rate
    );

    let dir = tempfile::tempdir().expect("temp dir");
    let sqlite_url = format!("sqlite://{}", dir.path().join("bench.db").display());
    let mut verdicts =
        vec![measure("sqlite", &sqlite_url, &sandbox, &token, &direct, &options).await];
    match std::env::var(POSTGRES_ENV) {
        Ok(url) => {
            let schema = format!("bench_{}", uuid::Uuid::new_v4().simple());
            let admin = sqlx::PgPool::connect(&url)
                .await
                .expect("postgres reachable");
            sqlx::query(&format!("CREATE SCHEMA {schema}"))
                .execute(&admin)
                .await
                .expect("schema");
            let separator = if url.contains('?') { '&' } else { '?' };
            let scoped = format!("{url}{separator}options[search_path]={schema}");
            verdicts.push(measure("postgres", &scoped, &sandbox, &token, &direct, &options).await);
            sqlx::query(&format!("DROP SCHEMA {schema} CASCADE"))
                .execute(&admin)
                .await
                .expect("drop schema");
            admin.close().await;
        }
        Err(_) => println!(
            "postgres   SKIPPED: set {POSTGRES_ENV} (scripts/postgres.sh prints a URL) to measure it"
        ),
    }
    println!();
    for (backend, p50_ok, p99_ok) in verdicts {
        println!(
            "{backend}: added p50 {} (target ≤ +1 ms), added p99 {} (target ≤ +5 ms)",
            if p50_ok { "MET" } else { "MISSED" },
            if p99_ok { "MET" } else { "MISSED" }
        );
    }
}

/// Stores an approved Visa at the emulator and returns its token.
async fn store_card(http: &reqwest::Client, sandbox: &Sandbox) -> String {
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

fn gateway(http: &reqwest::Client, sandbox: &Sandbox) -> reqwest::RequestBuilder {
    use base64::Engine as _;
    let basic = base64::engine::general_purpose::STANDARD.encode(DEFAULT_API_KEY);
    http.post(sandbox.api_url("payment"))
        .header("Authorization", format!("Basic {basic}"))
        .header("x-api-key", DEFAULT_X_API_KEY)
}

/// The token form of `/payment` as the server sends it.
fn charge_body(token: Option<&str>, reference: &str) -> Value {
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

async fn direct_once(http: &reqwest::Client, sandbox: &Sandbox, token: &str, n: usize) -> Duration {
    let body = charge_body(Some(token), &format!("direct-{n}"));
    let started = Instant::now();
    let response = gateway(http, sandbox)
        .json(&body)
        .send()
        .await
        .expect("sent");
    assert_eq!(response.status(), 201, "direct charge");
    response.bytes().await.expect("body");
    started.elapsed()
}

async fn direct_series(
    http: &reqwest::Client,
    sandbox: &Sandbox,
    token: &str,
    options: &Options,
) -> Series {
    for n in 0..options.warmup {
        direct_once(http, sandbox, token, n).await;
    }
    let mut samples = Vec::with_capacity(options.payments);
    for n in 0..options.payments {
        samples.push(direct_once(http, sandbox, token, n).await);
    }
    Series::new(samples)
}

async fn direct_throughput(
    http: &reqwest::Client,
    sandbox: &Sandbox,
    token: &str,
    options: &Options,
) -> f64 {
    let started = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    let per_client = options.payments / options.clients;
    for client in 0..options.clients {
        let (http, url, token) = (http.clone(), sandbox.api_url("payment"), token.to_owned());
        tasks.spawn(async move {
            use base64::Engine as _;
            let basic = base64::engine::general_purpose::STANDARD.encode(DEFAULT_API_KEY);
            for n in 0..per_client {
                let body = charge_body(Some(&token), &format!("rate-{client}-{n}"));
                let response = http
                    .post(&url)
                    .header("Authorization", format!("Basic {basic}"))
                    .header("x-api-key", DEFAULT_X_API_KEY)
                    .json(&body)
                    .send()
                    .await
                    .expect("sent");
                response.bytes().await.expect("body");
            }
        });
    }
    while tasks.join_next().await.is_some() {}
    (per_client * options.clients) as f64 / started.elapsed().as_secs_f64()
}

/// One server on `database_url`: its latency series and throughput, printed; returns whether
/// the targets were met.
async fn measure(
    backend: &'static str,
    database_url: &str,
    sandbox: &Sandbox,
    token: &str,
    direct: &Series,
    options: &Options,
) -> (&'static str, bool, bool) {
    let server = start_server(database_url, sandbox, token).await;
    let bench = Arc::new(server);
    for _ in 0..options.warmup {
        bench.pay_once().await;
    }
    let mut samples = Vec::with_capacity(options.payments);
    for _ in 0..options.payments {
        samples.push(bench.pay_once().await);
    }
    let series = Series::new(samples);
    let rate = server_throughput(&bench, options).await;
    let added_p50 = ms(series.quantile(0.5)) - ms(direct.quantile(0.5));
    let added_p99 = ms(series.quantile(0.99)) - ms(direct.quantile(0.99));
    println!(
        "{backend:<10} {:<9} {:>9.3} {:>9.3} {:>9.3} {:>9.3} {:>+11.3} {:>+11.3} {:>10.0}",
        "server",
        ms(series.quantile(0.5)),
        ms(series.quantile(0.9)),
        ms(series.quantile(0.99)),
        ms(series.quantile(1.0)),
        added_p50,
        added_p99,
        rate
    );
    bench.stop().await;
    (backend, added_p50 <= 1.0, added_p99 <= 5.0)
}

/// A running server with a customer whose card is saved.
struct BenchServer {
    base: String,
    http: reqwest::Client,
    card_id: String,
    shutdown: Mutex<Option<tokio::sync::oneshot::Sender<()>>>,
    task: Mutex<Option<tokio::task::JoinHandle<anyhow::Result<()>>>>,
}

async fn start_server(database_url: &str, sandbox: &Sandbox, token: &str) -> BenchServer {
    let config = Config::from_pairs(
        &[
            ("DATABASE_URL", database_url),
            ("GATEWAY_BASE_URL", sandbox.base_url()),
            ("GATEWAY_API_KEY", DEFAULT_API_KEY),
            ("GATEWAY_X_API_KEY", DEFAULT_X_API_KEY),
            ("GATEWAY_MERCHANT_ID", "bench-merchant"),
            ("MERCHANT_SECRET_KEY", MERCHANT_KEY),
            ("PAY_RATE_LIMIT_PER_IP", "100000"),
            ("RECONCILE_INTERVAL_SECONDS", "86400"),
        ],
        &EmulatorDefaults::default(),
    )
    .expect("bench configuration");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    // A real gateway (the emulator on its own port, as a remote gateway would be).
    let server = Server::build(config, listener, |_| Mounts::default())
        .await
        .expect("server builds");
    let base = server.base_url().to_owned();
    let card = server
        .state()
        .store
        .save_card(NewSavedCard {
            customer_id: CUSTOMER.into(),
            gateway_token: SecretString::from(token.to_owned()),
            brand: checkout::card::Brand::Visa,
            last4: Last4::new("4242").expect("last4"),
            expiry_month: 12,
            expiry_year: 2039,
        })
        .await
        .expect("card saved");
    let (shutdown, stop) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(server.run(async move {
        let _ = stop.await;
    }));
    BenchServer {
        base,
        http: reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("client"),
        card_id: card.id,
        shutdown: Mutex::new(Some(shutdown)),
        task: Mutex::new(Some(task)),
    }
}

impl BenchServer {
    /// Creates a session (untimed), then times its pay call.
    async fn pay_once(&self) -> Duration {
        let session = self.session().await;
        self.pay(&session).await
    }

    /// A new session for the customer: `(id, client secret)`.
    async fn session(&self) -> (String, String) {
        let reference = format!("b-{}", &uuid::Uuid::new_v4().simple().to_string()[..20]);
        let session: Value = self
            .http
            .post(format!("{}/v1/sessions", self.base))
            .bearer_auth(MERCHANT_KEY)
            .json(&json!({"amount": 1000, "currency": "JPY", "reference": reference, "customer_id": CUSTOMER}))
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
        (id, secret)
    }

    /// Pays `session` with the saved card; the time of the pay call alone.
    async fn pay(&self, (id, secret): &(String, String)) -> Duration {
        let body = json!({
            "saved_card_id": self.card_id,
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

    async fn stop(&self) {
        if let Some(shutdown) = self.shutdown.lock().await.take() {
            let _ = shutdown.send(());
        }
        if let Some(task) = self.task.lock().await.take() {
            let _ = task.await;
        }
    }
}

/// Pays per second with `clients` shoppers paying at once (sessions created beforehand).
async fn server_throughput(bench: &Arc<BenchServer>, options: &Options) -> f64 {
    let per_client = options.payments / options.clients;
    let mut batches = Vec::with_capacity(options.clients);
    for _ in 0..options.clients {
        let mut sessions = Vec::with_capacity(per_client);
        for _ in 0..per_client {
            sessions.push(bench.session().await);
        }
        batches.push(sessions);
    }
    let started = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for sessions in batches {
        let bench = bench.clone();
        tasks.spawn(async move {
            for session in &sessions {
                bench.pay(session).await;
            }
        });
    }
    while let Some(done) = tasks.join_next().await {
        done.expect("client task");
    }
    (per_client * options.clients) as f64 / started.elapsed().as_secs_f64()
}
