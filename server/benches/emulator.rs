//! Emulator throughput: starts the emulator on loopback, drives `POST /payment` (approved
//! Visa, card form) from N concurrent keep-alive clients for a fixed number of payments, and
//! prints payments per second with p50/p99/max latency.
//!
//! Run: `CARGO_PROFILE_RELEASE_PANIC=unwind cargo bench -p checkout-server --bench emulator
//! [-- --clients 32 --payments 50000 --threads 2]` (the override: the workspace release profile
//! aborts on panic, which makes cargo build the library twice under one name; docs/sandbox.md).
//! Client and emulator share the machine (and this process), so the figure is a floor.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use checkout_sandbox::{DEFAULT_API_KEY, DEFAULT_X_API_KEY, Sandbox, SandboxConfig};
use serde_json::json;

#[path = "support/cli.rs"]
mod cli;

/// Benchmark parameters from the command line.
struct Options {
    clients: usize,
    payments: usize,
    warmup: usize,
    worker_threads: usize,
}

impl Options {
    fn from_args() -> Self {
        Self {
            clients: cli::number("--clients", 32, 1),
            payments: cli::number("--payments", 50_000, 1),
            warmup: cli::number("--warmup", 2_000, 0),
            worker_threads: cli::number("--threads", 2, 1),
        }
    }
}

fn main() {
    let options = Options::from_args();
    cli::run_on(options.worker_threads, run(options));
}

async fn run(options: Options) {
    let sandbox = Sandbox::start(SandboxConfig::default())
        .await
        .expect("emulator starts");
    let url = sandbox.api_url("payment");
    let body = serde_json::to_vec(&json!({
        "amount": "1000",
        "currency": "JPY",
        "card": {"cvc": "123", "expiry_month": "12", "expiry_year": "39", "name": "Bench Mark", "number": "4242424242424242"},
        "merchant_id": "bench-merchant",
        "billing_address": {"country": "JP", "city": "Tokyo", "postal_code": "100-0001"},
        "merchant_txn_ref": "bench-order",
        "customer_ip": "203.0.113.7",
        "time_zone": "Asia/Tokyo",
    }))
    .expect("json");
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(options.clients)
        .build()
        .expect("client");
    let authorization = format!("Basic {}", STANDARD.encode(DEFAULT_API_KEY));
    let shot = Shot {
        client,
        url,
        body: body.into(),
        authorization,
    };

    drive(&shot, options.clients, options.warmup).await;
    let started = Instant::now();
    let mut latencies = drive(&shot, options.clients, options.payments).await;
    let elapsed = started.elapsed();

    latencies.sort_unstable();
    let percentile = |p: f64| {
        let rank = ((latencies.len() as f64 - 1.0) * p).round() as usize;
        latencies[rank.min(latencies.len() - 1)]
    };
    let rate = options.payments as f64 / elapsed.as_secs_f64();
    println!(
        "emulator /payment: {} payments, {} keep-alive clients, {} worker threads",
        options.payments, options.clients, options.worker_threads
    );
    println!("  elapsed     {:.2} s", elapsed.as_secs_f64());
    println!("  throughput  {rate:.0} payments/s");
    println!("  latency p50 {:.2} ms", cli::ms(percentile(0.50)));
    println!("  latency p99 {:.2} ms", cli::ms(percentile(0.99)));
    println!("  latency max {:.2} ms", cli::ms(percentile(1.0)));
    println!("  load        {}", cli::load_average());
}

/// One prepared request.
struct Shot {
    client: reqwest::Client,
    url: String,
    /// Cheap to clone for every request.
    body: Bytes,
    authorization: String,
}

/// Sends `total` payments from `clients` concurrent tasks; returns every latency.
async fn drive(shot: &Shot, clients: usize, total: usize) -> Vec<Duration> {
    let next = Arc::new(AtomicUsize::new(0));
    let mut tasks = Vec::with_capacity(clients);
    for _ in 0..clients {
        let next = Arc::clone(&next);
        let client = shot.client.clone();
        let url = shot.url.clone();
        let body = shot.body.clone();
        let authorization = shot.authorization.clone();
        tasks.push(tokio::spawn(async move {
            let mut latencies = Vec::new();
            while next.fetch_add(1, Ordering::Relaxed) < total {
                let started = Instant::now();
                let response = client
                    .post(&url)
                    .header("Authorization", &authorization)
                    .header("x-api-key", DEFAULT_X_API_KEY)
                    .header("content-type", "application/json")
                    .body(body.clone())
                    .send()
                    .await
                    .expect("payment answered");
                assert_eq!(response.status().as_u16(), 201, "payment approved");
                response.bytes().await.expect("body read");
                latencies.push(started.elapsed());
            }
            latencies
        }));
    }
    let mut all = Vec::with_capacity(total);
    for task in tasks {
        all.extend(task.await.expect("client task"));
    }
    all
}
