//! What the dashboard rollup's triggers (migration `0008_analytics`) add to a pay call: they
//! run inside every insert and state step of a payment, and concurrent payments of one
//! 15-minute slot and outcome (here: all of them, one currency and kind) update the same
//! rollup rows. Two servers side by side on the same gateway, one on a database with the
//! triggers, one on a copy with them dropped; at each concurrency the two take turns, a round
//! each, `clients` shoppers paying at once (sessions created untimed before each round).
//! Prints p50/p99 of the pay call and payments per second, for both and the difference.

use std::sync::Arc;
use std::time::{Duration, Instant};

use checkout_sandbox::Sandbox;

use super::cli::ms;
use super::databases::{Database, drop_triggers};
use super::pay_server::{BenchServer, Series, start_server};

/// Rounds per server at each concurrency (alternating, so drift in the machine's load falls
/// on both alike).
const ROUNDS: usize = 4;

/// One side's figures at one concurrency.
struct Side {
    series: Series,
    per_second: f64,
}

/// Shoppers paying at once, one level after the other.
const CONCURRENCY: [usize; 4] = [1, 8, 16, 64];

/// Measures the rollup's cost on `backend` (a SQLite file in `dir`, or a schema of the
/// `postgres` server) at each of [`CONCURRENCY`], `--rollup-payments` timed calls per side
/// and level after `--warmup` untimed ones; prints a line per level.
pub async fn compare(
    backend: &str,
    dir: &std::path::Path,
    postgres: Option<&str>,
    sandbox: &Sandbox,
    token: &str,
    options: &super::Options,
) {
    let payments = options.rollup_payments;
    let with = Database::new(dir, "rollup", postgres).await;
    let without = Database::new(dir, "norollup", postgres).await;
    drop_triggers(&without.url, "payment_rollup_update", |name| {
        name.starts_with("payment_rollup")
    })
    .await;
    let rollup = Arc::new(start_server(&with.url, sandbox, token).await);
    let plain = Arc::new(start_server(&without.url, sandbox, token).await);
    for _ in 0..options.warmup {
        rollup.pay_once().await;
        plain.pay_once().await;
    }
    for clients in CONCURRENCY {
        let (mut with_rollup, mut without_rollup) = (Vec::new(), Vec::new());
        let (mut with_time, mut without_time) = (Duration::ZERO, Duration::ZERO);
        let per_round = (payments / ROUNDS).max(clients);
        for round in 0..ROUNDS {
            let order = if round % 2 == 0 {
                [true, false]
            } else {
                [false, true]
            };
            for triggers in order {
                let (server, samples, time) = if triggers {
                    (&rollup, &mut with_rollup, &mut with_time)
                } else {
                    (&plain, &mut without_rollup, &mut without_time)
                };
                let (latencies, took) = round_of(server, clients, per_round).await;
                samples.extend(latencies);
                *time += took;
            }
        }
        let side = |samples: Vec<Duration>, time: Duration| Side {
            per_second: samples.len() as f64 / time.as_secs_f64(),
            series: Series::new(samples),
        };
        print(
            backend,
            clients,
            &side(with_rollup, with_time),
            &side(without_rollup, without_time),
        );
    }
    rollup.stop().await;
    plain.stop().await;
    with.drop().await;
    without.drop().await;
}

/// `clients` shoppers paying `payments` sessions between them at once: every pay call's time,
/// and the round's.
async fn round_of(
    server: &Arc<BenchServer>,
    clients: usize,
    payments: usize,
) -> (Vec<Duration>, Duration) {
    let mut batches = vec![Vec::new(); clients];
    for n in 0..payments {
        batches[n % clients].push(server.session().await);
    }
    let started = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for sessions in batches {
        let server = server.clone();
        tasks.spawn(async move {
            let mut times = Vec::with_capacity(sessions.len());
            for session in &sessions {
                times.push(server.pay(session).await);
            }
            times
        });
    }
    let mut times = Vec::with_capacity(payments);
    while let Some(done) = tasks.join_next().await {
        times.extend(done.expect("client task"));
    }
    (times, started.elapsed())
}

fn print(backend: &str, clients: usize, with: &Side, without: &Side) {
    let p = |side: &Side, q: f64| ms(side.series.quantile(q));
    println!(
        "{backend:<10} {clients:>5} {:>9.3} {:>9.3} {:>8.0} {:>9.3} {:>9.3} {:>8.0} {:>+9.3} {:>+9.3} {:>+7.1}%",
        p(with, 0.5),
        p(with, 0.99),
        with.per_second,
        p(without, 0.5),
        p(without, 0.99),
        without.per_second,
        p(with, 0.5) - p(without, 0.5),
        p(with, 0.99) - p(without, 0.99),
        (with.per_second / without.per_second - 1.0) * 100.0,
    );
}

/// The header of [`compare`]'s lines.
pub fn header() {
    println!(
        "{:<10} {:>5} {:>9} {:>9} {:>8} {:>9} {:>9} {:>8} {:>9} {:>9} {:>8}",
        "backend",
        "conc",
        "p50 ms",
        "p99 ms",
        "pays/s",
        "bare p50",
        "bare p99",
        "pays/s",
        "+p50 ms",
        "+p99 ms",
        "pays/s"
    );
}
