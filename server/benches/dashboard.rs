//! The dashboard at a busy shop's size, on SQLite and on Postgres (`TEST_DATABASE_URL_POSTGRES`;
//! skipped with a notice when unset). A program that prints figures, not a timed test:
//!
//! 1. **Seeds** `--rows` payments (default 1,000,000) spread over the last 90 days: mixed
//!    states, currencies, kinds, decline reasons and refunds, in multi-row INSERTs inside one
//!    transaction (the rollup's triggers run for every row, as they would in production), and
//!    2,000 subscriptions.
//! 2. Starts `checkout-server` on that database with its dashboard, logs in over HTTP and times,
//!    each `--repeat` times (p50 and worst reported):
//!    - the overview for 30 days (`GET /?range=30d`, the whole page: reads and charts);
//!    - the first and the 500th page of the payments table filtered by state and currency
//!      (the 500th reached by following the pages' own "next" links, untimed);
//!    - a CSV export of about `--export` rows (default 100,000: the days that hold them), read
//!      to the end; rows per second, and the peak of the process's resident memory during it
//!      above what it was before (`VmHWM` reset through `/proc/self/clear_refs`).
//!
//! Targets on a 2-core machine: overview ≤ 150 ms, a page ≤ 30 ms, export ≥ 100,000 rows/s in
//! ≤ 50 MB extra memory. The load average is printed beside the figures: on a shared machine
//! they are noisy.
//!
//! Run: `cargo bench -p checkout-server --bench dashboard [-- --rows 100000 --export 10000]`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use checkout_server::config::{Config, EmulatorDefaults};
use checkout_server::dashboard::auth::accounts;
use checkout_server::serve::{Mounts, Server};
use checkout_server::store::prelude::*;
use checkout_server::store::sealed::KeyRing;
use checkout_server::store::{PostgresStore, SqliteStore};
use secrecy::SecretString;

#[path = "support/cli.rs"]
mod cli;
use cli::ms;
#[path = "support/seed.rs"]
mod seed;
// Its trigger dropping is for the benchmarks comparing triggers.
#[allow(dead_code)]
#[path = "support/databases.rs"]
mod databases;

use databases::Database;

use seed::{DAYS, seed_into};

const POSTGRES_ENV: &str = "TEST_DATABASE_URL_POSTGRES";
const EMAIL: &str = "bench@dashboard.invalid";
const PASSWORD: &str = "bench password, long enough";
/// The page filter: the commonest state in the second commonest currency.
const FILTER: &str = "state=captured&currency=USD";

struct Options {
    rows: u64,
    export: u64,
    repeat: usize,
}

impl Options {
    fn from_args() -> Self {
        Self {
            rows: cli::number("--rows", 1_000_000, 10_000) as u64,
            export: cli::number("--export", 100_000, 1_000) as u64,
            repeat: cli::number("--repeat", 10, 1),
        }
    }
}

fn main() {
    let options = Options::from_args();
    cli::run_on(2, run(options));
}

async fn run(options: Options) {
    println!(
        "dashboard bench: {} payments over {DAYS} days, export of ~{} rows, {} runs each",
        options.rows, options.export, options.repeat
    );
    println!("load before: {}", cli::load_average());
    let dir = tempfile::tempdir().expect("temp dir");
    let sqlite_url = format!("sqlite://{}", dir.path().join("bench.db").display());
    {
        let store = SqliteStore::connect(&sqlite_url, Arc::new(KeyRing::generate()))
            .await
            .expect("sqlite");
        seed_into("sqlite", store.pool(), options.rows, "ANALYZE").await;
        store.close().await;
    }
    let mut verdicts = vec![measure("sqlite", &sqlite_url, &options).await];
    match std::env::var(POSTGRES_ENV) {
        Ok(url) => {
            let database = Database::new(dir.path(), "dashboard", Some(&url)).await;
            {
                let store = PostgresStore::connect(&database.url, Arc::new(KeyRing::generate()))
                    .await
                    .expect("postgres");
                seed_into("postgres", store.pool(), options.rows, "VACUUM ANALYZE").await;
                store.close().await;
            }
            verdicts.push(measure("postgres", &database.url, &options).await);
            database.drop().await;
        }
        Err(_) => println!(
            "postgres   SKIPPED: set {POSTGRES_ENV} (scripts/postgres.sh prints a URL) to measure it"
        ),
    }
    println!("\nload after: {}", cli::load_average());
    for verdict in verdicts {
        println!("{verdict}");
    }
}

/// Starts the server on `url`, logs in and takes the figures; returns the verdict line.
async fn measure(backend: &str, url: &str, options: &Options) -> String {
    let config = Config::from_pairs(
        &[
            ("DATABASE_URL", url),
            ("GATEWAY_BASE_URL", "http://127.0.0.1:9"),
            (
                "CARD_FINGERPRINT_KEY",
                "abababababababababababababababababababababababababababababababab",
            ),
            ("GATEWAY_API_KEY", "bench-api-key-0123456789"),
            ("GATEWAY_X_API_KEY", "bench-x-api-key-0123456789"),
            ("GATEWAY_MERCHANT_ID", "bench-merchant"),
            (
                "MERCHANT_SECRET_KEY",
                "sk_test_bench_dashboard_0123456789abcdef",
            ),
            (
                "SECRETS_KEY",
                "bench:000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
            ),
            ("RECONCILE_INTERVAL_SECONDS", "86400"),
            ("DASHBOARD_LISTEN", "127.0.0.1:0"),
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
    let dashboard = format!(
        "http://{}",
        server.dashboard_address().expect("the dashboard listens")
    );
    accounts::add(
        server.state().store.as_ref(),
        EMAIL,
        StaffRole::Viewer,
        SecretString::from(PASSWORD.to_owned()),
    )
    .await
    .expect("account");
    let (shutdown, stop) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(server.run(async move {
        let _ = stop.await;
    }));
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client");
    let cookie = login(&http, &dashboard).await;
    let get = |path: String| {
        let request = http
            .get(format!("{dashboard}{path}"))
            .header("Cookie", cookie.clone());
        async move {
            let started = Instant::now();
            let response = request.send().await.expect("sent");
            assert_eq!(response.status(), 200, "{path}");
            let body = response.text().await.expect("body");
            (started.elapsed(), body)
        }
    };

    let overview = timed(options.repeat, || get("/?range=30d".to_owned())).await;
    let first_path = format!("/payments?{FILTER}");
    let first = timed(options.repeat, || get(first_path.clone())).await;
    let mut path = first_path.clone();
    for _ in 1..500 {
        let (_, body) = get(path.clone()).await;
        path = next_link(&body).expect("a 500th page: seed more rows");
    }
    let page500 = timed(options.repeat, || get(path.clone())).await;

    // The export: the most recent days holding about `export` rows.
    let per_day = options.rows / DAYS as u64;
    let days = options.export.div_ceil(per_day.max(1)).max(1);
    let today = time::OffsetDateTime::now_utc().date();
    let from = today - time::Duration::days(i64::try_from(days).unwrap_or(1) - 1);
    let export_path = format!("/payments/export.csv?from={from}&to={today}");
    let rss_before = status_kb("VmRSS");
    let _ = std::fs::write("/proc/self/clear_refs", "5");
    let started = Instant::now();
    let mut response = http
        .get(format!("{dashboard}{export_path}"))
        .header("Cookie", cookie.clone())
        .send()
        .await
        .expect("export");
    assert_eq!(response.status(), 200);
    let mut lines = 0u64;
    while let Some(chunk) = response.chunk().await.expect("chunk") {
        lines += chunk.iter().filter(|b| **b == b'\n').count() as u64;
    }
    let export_time = started.elapsed();
    let peak = status_kb("VmHWM");
    let rows = lines.saturating_sub(1);
    let rate = rows as f64 / export_time.as_secs_f64();
    let extra_mb = peak.saturating_sub(rss_before) as f64 / 1024.0;

    let _ = shutdown.send(());
    let _ = task.await;

    let line = |name: &str, (p50, worst): (Duration, Duration), target: f64| {
        println!(
            "{backend:<10} {name:<28} p50 {:>7.1} ms  worst {:>7.1} ms  (target ≤ {target} ms)",
            ms(p50),
            ms(worst)
        );
        ms(p50) <= target
    };
    let overview_ok = line("overview, 30 days", overview, 150.0);
    let first_ok = line("payments page 1 (filtered)", first, 30.0);
    let page500_ok = line("payments page 500 (filtered)", page500, 30.0);
    println!(
        "{backend:<10} {:<28} {rows} rows in {:.2} s = {:.0} rows/s, peak +{extra_mb:.1} MB RSS (target ≥ 100000 rows/s, ≤ 50 MB)",
        "CSV export",
        export_time.as_secs_f64(),
        rate
    );
    let export_ok = rate >= 100_000.0 && extra_mb <= 50.0;
    let verdict = |ok: bool| if ok { "MET" } else { "MISSED" };
    format!(
        "{backend}: overview {}, page 1 {}, page 500 {}, export {}",
        verdict(overview_ok),
        verdict(first_ok),
        verdict(page500_ok),
        verdict(export_ok)
    )
}

async fn login(http: &reqwest::Client, dashboard: &str) -> String {
    let response = http
        .post(format!("{dashboard}/login"))
        .header("Origin", dashboard)
        .form(&[("email", EMAIL), ("password", PASSWORD)])
        .send()
        .await
        .expect("login");
    assert_eq!(response.status(), 303, "login");
    let cookie = response
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .expect("session cookie");
    cookie.split(';').next().expect("name=value").to_owned()
}

/// Runs `once` `n` times after one untimed warm-up; p50 and worst.
async fn timed<F, Fut>(n: usize, once: F) -> (Duration, Duration)
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = (Duration, String)>,
{
    once().await;
    let mut samples = Vec::with_capacity(n);
    for _ in 0..n {
        samples.push(once().await.0);
    }
    samples.sort();
    (samples[samples.len() / 2], samples[samples.len() - 1])
}

/// The `rel="next"` link of a payments page.
fn next_link(body: &str) -> Option<String> {
    let anchor = body.find("rel=\"next\"")?;
    let start = body[..anchor].rfind("href=\"")? + 6;
    let end = start + body[start..].find('"')?;
    Some(body[start..end].replace("&amp;", "&"))
}

/// A `/proc/self/status` field in kB.
fn status_kb(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status.lines().find_map(|line| {
                let rest = line.strip_prefix(field)?.strip_prefix(':')?;
                rest.trim().trim_end_matches("kB").trim().parse().ok()
            })
        })
        .unwrap_or(0)
}
