//! What events to the shop cost and how fast they go, on SQLite and on Postgres
//! (`TEST_DATABASE_URL_POSTGRES`; skipped with a notice when unset):
//!
//! 1. **Deliveries per second**: `--events` events (saved cards, each of its own customer, so
//!    no object's order holds another back) are delivered by one worker (`events::deliver`, its
//!    defaults: 32 sends at once, 16 per endpoint) to a local receiver that verifies each
//!    signature with the standardwebhooks crate and answers 204. Timed from the worker's start
//!    (fan-out included) until the receiver has every event. Target ≥ 2,000/s on 2 cores.
//! 2. **What the outbox adds to a pay call**: two servers side by side with a real gateway (the
//!    emulator on its own port), one on a database with the event triggers, one on a copy
//!    with them dropped (the dashboard rollup's triggers stay in both: `pay_latency` measures
//!    those); token pay calls alternate between them (sessions created untimed),
//!    and the p50s are compared. Target ≤ +0.3 ms p50.
//!
//! Run: `cargo bench -p checkout-server --bench webhooks [-- --events 5000 --payments 400]`.
//! Runs on a 2-thread runtime, as on the 2-core machines it is judged on.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use checkout_sandbox::{Sandbox, SandboxConfig};
use checkout_server::config::{Config, EmulatorDefaults};
use checkout_server::events::deliver::Deliverer;
use checkout_server::events::run;
use checkout_server::events::services::DeliveryServices;
use checkout_server::store::Store;
use checkout_server::store::prelude::*;
use checkout_server::store::sealed::KeyRing;
use checkout_server::webhook_rules::secret::new_secret;
use secrecy::{ExposeSecret as _, SecretString};
use tokio_util::sync::CancellationToken;

#[path = "support/pay_server.rs"]
#[allow(dead_code)] // `BenchServer::cards`, `pays_per_second`: no shoppers pay at once here
mod pay_server;

#[path = "support/cli.rs"]
mod cli;

#[path = "support/databases.rs"]
mod databases;

use cli::ms;
use databases::{Database, drop_triggers};
use pay_server::{Series, start_server, store_card};

const POSTGRES_ENV: &str = "TEST_DATABASE_URL_POSTGRES";

struct Options {
    events: usize,
    payments: usize,
    warmup: usize,
}

impl Options {
    fn from_args() -> Self {
        Self {
            events: cli::number("--events", 5_000, 100),
            payments: cli::number("--payments", 400, 10),
            warmup: cli::number("--warmup", 50, 0),
        }
    }
}

fn main() {
    let options = Options::from_args();
    cli::run_on(2, run(options));
}

async fn run(options: Options) {
    let dir = tempfile::tempdir().expect("temp dir");
    let postgres = std::env::var(POSTGRES_ENV).ok();
    let sandbox = Sandbox::start(SandboxConfig::default())
        .await
        .expect("emulator starts");
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client");
    let token = store_card(&http, &sandbox).await;
    println!(
        "events to the shop: {} deliveries to a local receiver; pay p50 with and without the outbox ({} alternating calls after {} warm-up each)",
        options.events, options.payments, options.warmup
    );
    println!(
        "{:<10} {:>12} {:>10} {:>12} {:>12} {:>10} {:>10}",
        "backend", "deliveries/s", "seconds", "pay p50 ms", "no-outbox ms", "+p50 ms", "+p90 ms"
    );
    let mut verdicts = Vec::new();
    let mut backends: Vec<(&str, Option<&str>)> = vec![("sqlite", None)];
    if let Some(url) = postgres.as_deref() {
        backends.push(("postgres", Some(url)));
    }
    for (backend, postgres) in backends {
        let delivery_db = Database::new(dir.path(), "delivery", postgres).await;
        let (rate, seconds) = deliveries_per_second(&delivery_db.url, options.events).await;
        delivery_db.drop().await;
        let with = Database::new(dir.path(), "outbox", postgres).await;
        let without = Database::new(dir.path(), "plain", postgres).await;
        let (outbox, plain) =
            pay_latency(&with.url, &without.url, &sandbox, &token, &options).await;
        with.drop().await;
        without.drop().await;
        let added_p50 = ms(outbox.quantile(0.5)) - ms(plain.quantile(0.5));
        let added_p90 = ms(outbox.quantile(0.9)) - ms(plain.quantile(0.9));
        println!(
            "{backend:<10} {rate:>12.0} {seconds:>10.2} {:>12.3} {:>12.3} {added_p50:>+10.3} {added_p90:>+10.3}",
            ms(outbox.quantile(0.5)),
            ms(plain.quantile(0.5)),
        );
        verdicts.push((backend, rate >= 2_000.0, added_p50 <= 0.3));
    }
    if postgres.is_none() {
        println!(
            "postgres   SKIPPED: set {POSTGRES_ENV} (scripts/postgres.sh prints a URL) to measure it"
        );
    }
    println!("\nload after: {}", cli::load_average());
    for (backend, rate_ok, p50_ok) in verdicts {
        println!(
            "{backend}: deliveries/s {} (target ≥ 2,000), outbox's added pay p50 {} (target ≤ +0.3 ms)",
            if rate_ok { "MET" } else { "MISSED" },
            if p50_ok { "MET" } else { "MISSED" }
        );
    }
}

#[derive(Default)]
struct Tally {
    verified: AtomicUsize,
    refused: AtomicUsize,
}

async fn receive(
    State((tally, secret)): State<(Arc<Tally>, Arc<String>)>,
    headers: HeaderMap,
    body: Bytes,
) -> StatusCode {
    let verified = standardwebhooks::Webhook::new(&secret)
        .map(|webhook| webhook.verify(&body, &headers).is_ok())
        .unwrap_or(false);
    if verified {
        tally.verified.fetch_add(1, Ordering::Relaxed);
        StatusCode::NO_CONTENT
    } else {
        tally.refused.fetch_add(1, Ordering::Relaxed);
        StatusCode::UNAUTHORIZED
    }
}

/// Delivers `events` card events to a local receiver; `(deliveries per second, seconds)`.
async fn deliveries_per_second(database_url: &str, events: usize) -> (f64, f64) {
    let secret = new_secret();
    let tally = Arc::new(Tally::default());
    let app = Router::new()
        .route("/events", post(receive))
        .with_state((tally.clone(), Arc::new(secret.expose_secret().to_owned())));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind the receiver");
    let port = listener.local_addr().expect("address").port();
    let receiver = tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });

    let store: Arc<dyn Store> =
        checkout_server::store::connect(database_url, Arc::new(KeyRing::generate()))
            .await
            .expect("store opens");
    store
        .create_endpoint(NewEndpoint {
            id: format!("we_{}", uuid::Uuid::new_v4().simple()),
            url: format!("http://127.0.0.1:{port}/events"),
            description: None,
            event_types: EventTypes::All,
            secret,
        })
        .await
        .expect("endpoint");
    // The events: one saved card per customer (each write's trigger writes its event).
    let mut writers = tokio::task::JoinSet::new();
    for writer in 0..4 {
        let store = store.clone();
        writers.spawn(async move {
            for n in (writer..events).step_by(4) {
                store
                    .save_card(NewSavedCard {
                        customer_id: format!("bench-customer-{n}"),
                        gateway_token: SecretString::from(format!("tok_{n}")),
                        brand: checkout::card::Brand::Visa,
                        last4: Last4::new("4242").expect("last4"),
                        expiry_month: 12,
                        expiry_year: 2039,
                        card_fingerprint: None,
                        saved_from: None,
                    })
                    .await
                    .expect("card saved");
            }
        });
    }
    while writers.join_next().await.is_some() {}

    let config = Config::from_pairs(
        &[("DATABASE_URL", database_url)],
        &EmulatorDefaults::default(),
    )
    .expect("configuration");
    let services = DeliveryServices::new(store.clone(), &config).expect("client");
    let worker = Deliverer::new(services, "bench");
    let stop = CancellationToken::new();
    let started = Instant::now();
    let running = run::spawn(worker, stop.clone());
    let deadline = started + Duration::from_secs(300);
    while tally.verified.load(Ordering::Relaxed) + tally.refused.load(Ordering::Relaxed) < events {
        assert!(Instant::now() < deadline, "deliveries stalled");
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    let seconds = started.elapsed().as_secs_f64();
    stop.cancel();
    let _ = running.await;
    assert_eq!(
        tally.refused.load(Ordering::Relaxed),
        0,
        "every signature verifies"
    );
    assert!(
        store
            .oldest_pending_delivery()
            .await
            .expect("read")
            .is_none(),
        "every delivery recorded"
    );
    store.close().await;
    receiver.abort();
    (events as f64 / seconds, seconds)
}

/// Pay latencies on a database with the outbox and on one without, calls alternating.
async fn pay_latency(
    with_outbox: &str,
    without_outbox: &str,
    sandbox: &Sandbox,
    token: &str,
    options: &Options,
) -> (Series, Series) {
    // Every trigger but the rollup's (0008, which both keep): all of them write events.
    drop_triggers(without_outbox, "payment_events", |name| {
        !name.starts_with("payment_rollup")
    })
    .await;
    let outbox = start_server(with_outbox, sandbox, token).await;
    let plain = start_server(without_outbox, sandbox, token).await;
    for _ in 0..options.warmup {
        outbox.pay_once().await;
        plain.pay_once().await;
    }
    let (mut with, mut without) = (Vec::new(), Vec::new());
    for n in 0..options.payments {
        if n % 2 == 0 {
            with.push(outbox.pay_once().await);
            without.push(plain.pay_once().await);
        } else {
            without.push(plain.pay_once().await);
            with.push(outbox.pay_once().await);
        }
    }
    outbox.stop().await;
    plain.stop().await;
    (Series::new(with), Series::new(without))
}
