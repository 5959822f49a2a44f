//! What a flood of dashboard logins does to the checkout API: `GET /v1/checkout/{id}` timed
//! while idle, then while `--attackers` clients (default 200) post logins as fast as they are
//! answered, each from one of `--addresses` client addresses (default 500, through
//! `X-Forwarded-For` from a trusted proxy, so the per-address limit allows 10 a minute each),
//! for `--seconds` (default 10). Prints p50/p99/max of both series, how the logins were
//! answered, the most password hashes that ran at once (and the permits), and this process's
//! peak resident memory (`VmHWM`: server and clients together; every argon2 hash holds 19 MiB
//! while it runs).
//!
//! Run: `cargo bench -p checkout-server --bench login_flood [-- --attackers 200 --seconds 10]`.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use checkout_sandbox::{DEFAULT_API_KEY, DEFAULT_X_API_KEY, Sandbox, SandboxConfig};
use checkout_server::config::{Config, EmulatorDefaults};
use checkout_server::dashboard::DashboardState;
use checkout_server::serve::{Mounts, Server};
use serde_json::{Value, json};

#[path = "support/cli.rs"]
mod cli;

#[path = "login_flood/memory.rs"]
mod memory;

use cli::ms;

const MERCHANT_KEY: &str = "sk_bench_0123456789abcdef";

struct Options {
    attackers: usize,
    addresses: usize,
    seconds: usize,
    probes: usize,
}

impl Options {
    fn from_args() -> Self {
        Self {
            attackers: cli::number("--attackers", 200, 1),
            addresses: cli::number("--addresses", 500, 1),
            seconds: cli::number("--seconds", 10, 1),
            probes: cli::number("--probes", 200, 10),
        }
    }
}

/// A running server: its API and dashboard base URLs, and the dashboard's state (its
/// hashing permits).
struct Running {
    api: String,
    dashboard: String,
    state: DashboardState,
}

fn main() {
    let options = Options::from_args();
    cli::run_on(2, run(options));
}

async fn run(options: Options) {
    let sandbox = Sandbox::start(SandboxConfig::default())
        .await
        .expect("emulator starts");
    let dir = tempfile::tempdir().expect("temp dir");
    let database_url = format!("sqlite://{}", dir.path().join("bench.db").display());
    let (running, stop, task) = start(&database_url, &sandbox).await;
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .pool_max_idle_per_host(options.attackers + 8)
        .build()
        .expect("client");
    let (id, secret) = checkout_session(&http, &running.api).await;
    println!(
        "login flood: {} attackers from {} addresses for {} s; GET /v1/checkout/{{id}} probed {} times per phase; load {}",
        options.attackers,
        options.addresses,
        options.seconds,
        options.probes,
        cli::load_average()
    );
    println!(
        "resident memory at start: {} (peak {})",
        memory::status("VmRSS"),
        memory::status("VmHWM")
    );

    let idle = probe_series(&http, &running.api, &id, &secret, options.probes, None).await;
    print_series("idle", &idle);

    let flooding = Arc::new(AtomicBool::new(true));
    let attackers: Vec<_> = (0..options.attackers)
        .map(|n| {
            tokio::spawn(attack(
                http.clone(),
                running.dashboard.clone(),
                n,
                options.addresses,
                flooding.clone(),
            ))
        })
        .collect();
    let deadline = Instant::now() + Duration::from_secs(options.seconds as u64);
    let flooded = probe_series(
        &http,
        &running.api,
        &id,
        &secret,
        options.probes,
        Some(deadline),
    )
    .await;
    flooding.store(false, Ordering::Relaxed);
    let mut answers: BTreeMap<u16, u64> = BTreeMap::new();
    for attacker in attackers {
        for (status, count) in attacker.await.expect("attacker") {
            *answers.entry(status).or_default() += count;
        }
    }
    print_series("flooded", &flooded);
    println!("login answers during the flood (status: count): {answers:?}");
    let hashing = &running.state.limits.hashing;
    println!(
        "password hashes at once: at most {} (permits {})",
        hashing.most_at_once(),
        hashing.permits()
    );
    println!(
        "resident memory after: {} (peak {})",
        memory::status("VmRSS"),
        memory::status("VmHWM")
    );
    println!("load after: {}", cli::load_average());
    let _ = stop.send(());
    let _ = task.await;
}

/// The server on `database_url` with `sandbox` as its gateway and the dashboard on a free port.
async fn start(
    database_url: &str,
    sandbox: &Sandbox,
) -> (
    Running,
    tokio::sync::oneshot::Sender<()>,
    tokio::task::JoinHandle<anyhow::Result<()>>,
) {
    let config = Config::from_pairs(
        &[
            ("DATABASE_URL", database_url),
            ("GATEWAY_BASE_URL", sandbox.base_url()),
            ("GATEWAY_API_KEY", DEFAULT_API_KEY),
            ("GATEWAY_X_API_KEY", DEFAULT_X_API_KEY),
            ("GATEWAY_MERCHANT_ID", "bench-merchant"),
            ("MERCHANT_SECRET_KEY", MERCHANT_KEY),
            (
                "SECRETS_KEY",
                "bench:000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
            ),
            (
                "CARD_FINGERPRINT_KEY",
                "abababababababababababababababababababababababababababababababab",
            ),
            ("RECONCILE_INTERVAL_SECONDS", "86400"),
            ("DASHBOARD_LISTEN", "127.0.0.1:0"),
            ("TRUSTED_PROXIES", "127.0.0.1"),
        ],
        &EmulatorDefaults::default(),
    )
    .expect("bench configuration");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let server = Server::build(config, listener, |_| Mounts::default())
        .await
        .expect("server builds");
    let running = Running {
        api: server.base_url().to_owned(),
        dashboard: format!(
            "http://{}",
            server.dashboard_address().expect("the dashboard listens")
        ),
        state: server
            .dashboard_state()
            .cloned()
            .expect("the dashboard listens"),
    };
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(server.run(async move {
        let _ = stopped.await;
    }));
    (running, stop, task)
}

/// A checkout session: `(id, client secret)`.
async fn checkout_session(http: &reqwest::Client, api: &str) -> (String, String) {
    let session: Value = http
        .post(format!("{api}/v1/sessions"))
        .bearer_auth(MERCHANT_KEY)
        .json(&json!({"amount": 1000, "currency": "JPY", "reference": "bench-login-flood"}))
        .send()
        .await
        .expect("session sent")
        .json()
        .await
        .expect("session json");
    let field = |name: &str| session[name].as_str().expect(name).to_owned();
    (field("id"), field("client_secret"))
}

/// `probes` timed `GET /v1/checkout/{id}`, 10 ms apart; with a `deadline`, as many more as
/// fit before it.
async fn probe_series(
    http: &reqwest::Client,
    api: &str,
    id: &str,
    secret: &str,
    probes: usize,
    deadline: Option<Instant>,
) -> Vec<Duration> {
    let mut samples = Vec::with_capacity(probes);
    while samples.len() < probes || deadline.is_some_and(|d| Instant::now() < d) {
        let started = Instant::now();
        let response = http
            .get(format!("{api}/v1/checkout/{id}"))
            .header("X-Client-Secret", secret)
            .send()
            .await
            .expect("probe sent");
        let status = response.status();
        let _ = response.bytes().await.expect("probe body");
        samples.push(started.elapsed());
        assert!(status.is_success(), "GET /v1/checkout/{{id}}: {status}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    samples.sort();
    samples
}

/// One attacker: logins with unknown e-mails (each still costs a hash) until told to stop;
/// how they were answered.
async fn attack(
    http: reqwest::Client,
    dashboard: String,
    n: usize,
    addresses: usize,
    flooding: Arc<AtomicBool>,
) -> BTreeMap<u16, u64> {
    let mut answers = BTreeMap::new();
    let mut sent = 0usize;
    while flooding.load(Ordering::Relaxed) {
        let address = (n + sent * 7919) % addresses;
        let form = [
            ("email", format!("nobody{n}-{sent}@shop.example")),
            ("password", "a guessed password".to_owned()),
        ];
        let status = match http
            .post(format!("{dashboard}/login"))
            .header("Origin", &dashboard)
            .header(
                "X-Forwarded-For",
                format!("10.{}.{}.1", address / 250, address % 250),
            )
            .form(&form)
            .send()
            .await
        {
            Ok(response) => {
                let status = response.status().as_u16();
                let _ = response.bytes().await;
                status
            }
            Err(_) => 0,
        };
        *answers.entry(status).or_default() += 1;
        sent += 1;
        if status == 429 {
            // A polite attacker would wait `Retry-After`; this one only yields.
            tokio::task::yield_now().await;
        }
    }
    answers
}

fn print_series(phase: &str, samples: &[Duration]) {
    let at = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize];
    println!(
        "{phase:<8} GET /v1/checkout/{{id}}: {} probes, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        samples.len(),
        ms(at(0.5)),
        ms(at(0.99)),
        ms(at(1.0)),
    );
}
