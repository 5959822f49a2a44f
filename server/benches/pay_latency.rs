//! What the checkout server adds to a payment: the token (no 3-D Secure) pay call through the
//! server's browser API versus the same charge sent straight to the gateway emulator, in one
//! run, on SQLite and on Postgres (`TEST_DATABASE_URL_POSTGRES`; skipped with a notice when
//! unset). Prints p50/p99 of both, the difference, and pays per second with concurrent
//! shoppers. Targets: p50 ≤ +1 ms, p99 ≤ +5 ms. Then what the dashboard rollup's triggers add
//! to the pay call, alone and with 16 shoppers at once ([`rollup`]).
//!
//! Run: `cargo bench -p checkout-server --bench pay_latency [-- --payments 400 --clients 8
//! --rollup-payments 800]`.
//!
//! The emulator runs on its own loopback listener, as a remote gateway would; the server is
//! configured with it as `GATEWAY_BASE_URL`. Each timed server call pays a fresh session
//! (created untimed) with its customer's saved card (64 customers pay in turn, so shoppers
//! paying at once are different customers, as in a shop), so it does all a real pay does:
//! session and secret check, the pay claim, the saved card, the card-testing check, the
//! payment recorded before and after the gateway call, the attempt log.

use std::sync::Arc;
use std::time::{Duration, Instant};

use checkout_sandbox::{DEFAULT_API_KEY, DEFAULT_X_API_KEY, Sandbox, SandboxConfig};

#[path = "support/pay_server.rs"]
#[allow(dead_code)] // `BenchServer::cards`: every server here runs in this process
mod pay_server;

#[path = "support/cli.rs"]
mod cli;

#[path = "support/databases.rs"]
mod databases;

#[path = "pay_latency/rollup.rs"]
mod rollup;

use cli::ms;
use pay_server::{
    BenchServer, Series, charge_body, gateway, pays_per_second, start_server, store_card,
};

const POSTGRES_ENV: &str = "TEST_DATABASE_URL_POSTGRES";

struct Options {
    payments: usize,
    warmup: usize,
    clients: usize,
    rollup_payments: usize,
}

impl Options {
    fn from_args() -> Self {
        Self {
            payments: cli::number("--payments", 400, 10),
            warmup: cli::number("--warmup", 50, 0),
            clients: cli::number("--clients", 8, 1),
            rollup_payments: cli::number("--rollup-payments", 800, 16),
        }
    }
}

fn main() {
    let options = Options::from_args();
    cli::run_on(2, run(options));
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
            let database = databases::Database::new(dir.path(), "pay", Some(&url)).await;
            verdicts.push(
                measure(
                    "postgres",
                    &database.url,
                    &sandbox,
                    &token,
                    &direct,
                    &options,
                )
                .await,
            );
            database.drop().await;
        }
        Err(_) => println!(
            "postgres   SKIPPED: set {POSTGRES_ENV} (scripts/postgres.sh prints a URL) to measure it"
        ),
    }
    println!(
        "\nwhat the dashboard rollup's triggers add: {} timed calls per side and level, load {}",
        options.rollup_payments,
        cli::load_average()
    );
    rollup::header();
    rollup::compare("sqlite", dir.path(), None, &sandbox, &token, &options).await;
    if let Ok(url) = std::env::var(POSTGRES_ENV) {
        rollup::compare(
            "postgres",
            dir.path(),
            Some(&url),
            &sandbox,
            &token,
            &options,
        )
        .await;
    }
    println!("load after: {}", cli::load_average());
    println!();
    for (backend, p50_ok, p99_ok) in verdicts {
        println!(
            "{backend}: added p50 {} (target ≤ +1 ms), added p99 {} (target ≤ +5 ms)",
            if p50_ok { "MET" } else { "MISSED" },
            if p99_ok { "MET" } else { "MISSED" }
        );
    }
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

/// Pays per second with `clients` shoppers paying at once (sessions created beforehand).
async fn server_throughput(bench: &Arc<BenchServer>, options: &Options) -> f64 {
    let per_client = options.payments / options.clients;
    pays_per_second(std::slice::from_ref(bench), options.clients, per_client).await
}
