//! What opening the store costs at a busy shop's size, on SQLite and on Postgres
//! (`TEST_DATABASE_URL_POSTGRES`; skipped with a notice when unset): every start of
//! `checkout-server serve` (and every `checkout-server users ...`) opens it, applying the
//! migrations not yet applied and the data conversions that go with them
//! (`store/sql/legacy_tokens.rs`). A program that prints figures, not a timed test:
//!
//! 1. **Seeds** `--rows` payments (default 1,000,000; the dashboard benchmark's seed) and opens
//!    the store once, so what a first start after an upgrade does is done.
//! 2. Times, `--repeat` times (p50 and worst), opening the store on that database (connect,
//!    migrations, conversions, close), beside opening it on an empty one; and, for reference,
//!    the statement that looks for plain webhook tokens over the whole table, run on its own.
//!
//! Target: a start on 1,000,000 payments within 50 ms of a start on none. The load average is
//! printed beside the figures: on a shared machine they are noisy.
//!
//! Run: `cargo bench -p checkout-server --bench start_up [-- --rows 100000 --repeat 5]`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use checkout_server::store::sealed::KeyRing;
use checkout_server::store::{PostgresStore, SqliteStore, Store};

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

const POSTGRES_ENV: &str = "TEST_DATABASE_URL_POSTGRES";
/// The look for plain tokens a start made before it was recorded as done.
const PLAIN_TOKENS: &str =
    "SELECT id, webhook_token_hash FROM payments WHERE length(webhook_token_hash) <> 64";

fn main() {
    let rows = cli::number("--rows", 1_000_000, 1_000) as u64;
    let repeat = cli::number("--repeat", 5, 1);
    cli::run_on(2, run(rows, repeat));
}

async fn run(rows: u64, repeat: usize) {
    println!(
        "start-up bench: {rows} payments over {} days, {repeat} starts each",
        seed::DAYS
    );
    println!("load before: {}", cli::load_average());
    let dir = tempfile::tempdir().expect("temp dir");
    let empty = format!("sqlite://{}", dir.path().join("empty.db").display());
    let full = format!("sqlite://{}", dir.path().join("full.db").display());
    {
        SqliteStore::connect(&empty, Arc::new(KeyRing::generate()))
            .await
            .expect("sqlite")
            .close()
            .await;
        let store = SqliteStore::connect(&full, Arc::new(KeyRing::generate()))
            .await
            .expect("sqlite");
        seed::seed_into("sqlite", store.pool(), rows, "ANALYZE").await;
        store.close().await;
        // The first start after the seed: what an upgrade's first start does, done once.
        SqliteStore::connect(&full, Arc::new(KeyRing::generate()))
            .await
            .expect("sqlite")
            .close()
            .await;
    }
    let mut verdicts = Vec::new();
    let open_sqlite = |url: String| async move {
        let store = SqliteStore::connect(&url, Arc::new(KeyRing::generate()))
            .await
            .expect("sqlite");
        store.close().await;
    };
    let none = timed(repeat, || open_sqlite(empty.clone())).await;
    let busy = timed(repeat, || open_sqlite(full.clone())).await;
    let scan = {
        let store = SqliteStore::connect(&full, Arc::new(KeyRing::generate()))
            .await
            .expect("sqlite");
        let pool = store.pool().clone();
        let scan = timed(repeat, || {
            let pool = pool.clone();
            async move {
                sqlx::query(PLAIN_TOKENS)
                    .fetch_all(&pool)
                    .await
                    .expect("scan");
            }
        })
        .await;
        store.close().await;
        scan
    };
    verdicts.push(report("sqlite", none, busy, scan));

    match std::env::var(POSTGRES_ENV) {
        Ok(url) => verdicts.push(postgres(&url, rows, repeat).await),
        Err(_) => println!(
            "postgres   SKIPPED: set {POSTGRES_ENV} (scripts/postgres.sh prints a URL) to measure it"
        ),
    }
    println!("\nload after: {}", cli::load_average());
    for verdict in verdicts {
        println!("{verdict}");
    }
}

/// The same figures on two fresh schemas of the Postgres database at `url`.
async fn postgres(url: &str, rows: u64, repeat: usize) -> String {
    // Schemas of `url`: the directory is for SQLite files only.
    let unused = std::env::temp_dir();
    let empty_database = Database::new(&unused, "empty", Some(url)).await;
    let full_database = Database::new(&unused, "full", Some(url)).await;
    let (empty, full) = (empty_database.url.clone(), full_database.url.clone());
    PostgresStore::connect(&empty, Arc::new(KeyRing::generate()))
        .await
        .expect("postgres")
        .close()
        .await;
    {
        let store = PostgresStore::connect(&full, Arc::new(KeyRing::generate()))
            .await
            .expect("postgres");
        seed::seed_into("postgres", store.pool(), rows, "VACUUM ANALYZE").await;
        store.close().await;
        PostgresStore::connect(&full, Arc::new(KeyRing::generate()))
            .await
            .expect("postgres")
            .close()
            .await;
    }
    let open = |url: String| async move {
        let store = PostgresStore::connect(&url, Arc::new(KeyRing::generate()))
            .await
            .expect("postgres");
        store.close().await;
    };
    let none = timed(repeat, || open(empty.clone())).await;
    let busy = timed(repeat, || open(full.clone())).await;
    let store = PostgresStore::connect(&full, Arc::new(KeyRing::generate()))
        .await
        .expect("postgres");
    let pool = store.pool().clone();
    let scan = timed(repeat, || {
        let pool = pool.clone();
        async move {
            sqlx::query(PLAIN_TOKENS)
                .fetch_all(&pool)
                .await
                .expect("scan");
        }
    })
    .await;
    store.close().await;
    empty_database.drop().await;
    full_database.drop().await;
    report("postgres", none, busy, scan)
}

/// Prints a backend's lines; returns its verdict.
fn report(
    backend: &str,
    none: (Duration, Duration),
    busy: (Duration, Duration),
    scan: (Duration, Duration),
) -> String {
    let line = |name: &str, (p50, worst): (Duration, Duration)| {
        println!(
            "{backend:<10} {name:<36} p50 {:>8.1} ms  worst {:>8.1} ms",
            ms(p50),
            ms(worst)
        );
    };
    line("open the store, no payments", none);
    line("open the store, seeded payments", busy);
    line("look for plain tokens (all rows)", scan);
    let extra = ms(busy.0) - ms(none.0);
    let verdict = if extra <= 50.0 { "MET" } else { "MISSED" };
    format!(
        "{backend}: a start on the seeded payments takes {extra:.1} ms more than on none (target ≤ 50): {verdict}"
    )
}

/// Runs `once` `n` times after one untimed warm-up; p50 and worst.
async fn timed<F, Fut>(n: usize, once: F) -> (Duration, Duration)
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    once().await;
    let mut samples = Vec::with_capacity(n);
    for _ in 0..n {
        let started = Instant::now();
        once().await;
        samples.push(started.elapsed());
    }
    samples.sort();
    (samples[samples.len() / 2], samples[samples.len() - 1])
}
