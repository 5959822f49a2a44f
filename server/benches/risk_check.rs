//! What the card-testing check adds to a pay call with a typed card (issue 33's target, kept
//! by issue 47: +0.3 ms p50), on a store of 100,000 payments (a busy shop's, typed cards
//! carrying their fingerprint, address and e-mail, every index in place), on SQLite and on
//! PostgreSQL (`TEST_DATABASE_URL_POSTGRES`; skipped with a notice when unset).
//!
//! The pay call reads the check's counts in the round trip that records its payment (the
//! session's claim and the `pending` payment: `store::sql::counted_claim`). There is no
//! switch to turn the check off, so what is timed, in-process, is that recording with the
//! counts against the same recording without them, each try in a checkout of its own (a free
//! claim, as a first try's): with them, the card's keyed fingerprint
//! ([`RiskService::fingerprint`]), the counts read as the payment is recorded
//! (`RiskStore::claim_create_and_count`: the statement's own work and, on PostgreSQL, the
//! locks on the try's keys, never waited on here: one try at a time) and the rules
//! ([`RiskService::judge`]); without, `PaymentStore::claim_and_create_pending_payment` of the
//! same payment, facts included. The series run in turn, one try of each per round, so the
//! machine's drift falls on all of them; the added figures are the differences of their
//! quantiles. Beside them, the same for a saved card's counts (the decline rules only), and a
//! bare round trip (`SELECT 1`), the floor under any statement on that database and machine,
//! which the check no longer pays, and the pay path as it was before (the same recording, then
//! [`RiskService::check`] reading the counts by a statement of their own). Not timed: the
//! payment row's three extra columns and the rules' partial indexes on its insert (in every
//! series).
//!
//! Run: `cargo bench -p checkout-server --bench risk_check [-- --rows 100000 --checks 2000]`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use checkout::card::CardNumber;
use checkout_server::config::{CardFingerprintKey, RiskSettings};
use checkout_server::risk::{RiskService, TryKind, Verdict};
use checkout_server::store::Store;
use checkout_server::store::model::{Payment, RiskFacts};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

#[path = "support/cli.rs"]
mod cli;
use cli::ms;
#[path = "support/seed.rs"]
mod seed;

#[allow(dead_code)] // `drop_triggers`: no trigger is compared here
#[path = "support/databases.rs"]
mod databases;

#[path = "risk_check/facts.rs"]
mod facts;
#[path = "risk_check/tries.rs"]
mod tries;

const POSTGRES_ENV: &str = "TEST_DATABASE_URL_POSTGRES";
/// The target for the added p50, in milliseconds.
const TARGET_P50_MS: f64 = 0.3;
/// The series timed in turn: recording a try without counts, with a typed card's, with a
/// saved card's, and recording it then checking it apart (the pay path before issue 47).
const SERIES: usize = 4;

struct Options {
    rows: u64,
    checks: usize,
    warmup: usize,
}

impl Options {
    fn tries(&self) -> usize {
        self.warmup + self.checks
    }
}

fn main() {
    let options = Options {
        rows: cli::number("--rows", 100_000, 1_000) as u64,
        checks: cli::number("--checks", 2_000, 10),
        warmup: cli::number("--warmup", 200, 0),
    };
    cli::run_on(2, run(options));
}

async fn run(options: Options) {
    println!(
        "card-testing check on a typed-card pay: recording the try with its counts against \
         without, {} timed after {} warm-up, on {} payments; load {}",
        options.checks,
        options.warmup,
        options.rows,
        cli::load_average()
    );
    println!(
        "{:<10} {:<30} {:>9} {:>9} {:>9} {:>9}",
        "backend", "step", "p50 ms", "p90 ms", "p99 ms", "max ms"
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let mut verdicts = Vec::new();
    let sqlite = databases::Database::new(dir.path(), "risk", None).await;
    verdicts.push(measure("sqlite", &sqlite.url, &options).await);
    match std::env::var(POSTGRES_ENV) {
        Ok(url) => {
            let postgres = databases::Database::new(dir.path(), "risk", Some(&url)).await;
            verdicts.push(measure("postgres", &postgres.url, &options).await);
            postgres.drop().await;
        }
        Err(_) => println!(
            "postgres   SKIPPED: set {POSTGRES_ENV} (scripts/postgres.sh prints a URL) to measure it"
        ),
    }
    println!("load after: {}", cli::load_average());
    for (backend, p50, p99) in verdicts {
        println!(
            "{backend}: typed-card check adds p50 {p50:+.3} ms, p99 {p99:+.3} ms (target p50 ≤ \
             +{TARGET_P50_MS} ms: {})",
            if p50 <= TARGET_P50_MS {
                "MET"
            } else {
                "MISSED"
            }
        );
    }
}

/// The timed series of one backend.
#[derive(Default)]
struct Series {
    plain: Vec<Duration>,
    typed: Vec<Duration>,
    saved: Vec<Duration>,
    /// Recorded, then its typed card checked by a statement of its own.
    apart: Vec<Duration>,
    /// Typed-card tries the rules did not allow (an ordinary try is allowed).
    not_allowed: usize,
}

/// Seeds `database_url`, times the series and prints them; returns the typed card's added
/// p50 and p99 (ms).
async fn measure(
    backend: &'static str,
    database_url: &str,
    options: &Options,
) -> (&'static str, f64, f64) {
    let store = checkout_server::store::connect(
        database_url,
        Arc::new(checkout_server::store::sealed::KeyRing::generate()),
    )
    .await
    .expect("store opens");
    let (id, sessions) = seed_and_fill(backend, database_url, options).await;
    let payment = store
        .get_payment(&id)
        .await
        .expect("read")
        .expect("a seeded payment");
    let risk = RiskService::new(
        Arc::clone(&store),
        CardFingerprintKey::generate(),
        RiskSettings::default(),
    );
    let series = series(&store, &risk, &payment, sessions, options).await;
    let floor = round_trips(database_url, options).await;
    print_row(backend, "record, no counts", &series.plain);
    print_row(backend, "record + typed card's check", &series.typed);
    print_row(backend, "record + saved card's check", &series.saved);
    print_row(backend, "record, then check apart", &series.apart);
    print_row(backend, "round trip (SELECT 1)", &floor);
    let added = |with: &[Duration], q| ms(quantile(with, q)) - ms(quantile(&series.plain, q));
    let typed = (added(&series.typed, 0.5), added(&series.typed, 0.99));
    let saved = (added(&series.saved, 0.5), added(&series.saved, 0.99));
    let apart = (added(&series.apart, 0.5), added(&series.apart, 0.99));
    println!(
        "{backend:<10} added: typed card p50 {:+.3} ms, p99 {:+.3} ms; saved card p50 {:+.3} \
         ms, p99 {:+.3} ms; checked apart p50 {:+.3} ms, p99 {:+.3} ms; typed tries not \
         allowed: {}",
        typed.0, typed.1, saved.0, saved.1, apart.0, apart.1, series.not_allowed
    );
    store.close().await;
    (backend, typed.0, typed.1)
}

/// Seeds the payments, fills their facts in, opens a checkout for each try to come and
/// refreshes the statistics; returns the id of a typed-card payment and the checkouts.
async fn seed_and_fill(backend: &str, url: &str, options: &Options) -> (String, Vec<String>) {
    let started = Instant::now();
    let sessions = options.tries() * SERIES;
    let filled = if url.starts_with("sqlite") {
        let pool = sqlx::SqlitePool::connect(url).await.expect("sqlite");
        fill(backend, &pool, options.rows, sessions).await
    } else {
        let pool = sqlx::PgPool::connect(url).await.expect("postgres");
        fill(backend, &pool, options.rows, sessions).await
    };
    println!(
        "{backend:<10} facts filled in, ready in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    filled
}

/// [`seed_and_fill`] on `pool`, which it closes.
async fn fill<DB: sqlx::Database>(
    backend: &str,
    pool: &sqlx::Pool<DB>,
    rows: u64,
    sessions: usize,
) -> (String, Vec<String>)
where
    for<'c> &'c mut DB::Connection: sqlx::Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: sqlx::IntoArguments<'q, DB>,
    for<'r> (String,): sqlx::FromRow<'r, DB::Row>,
{
    seed::seed_into(backend, pool, rows, "ANALYZE").await;
    for statement in facts::fill_statements()
        .into_iter()
        .chain([tries::sessions_sql(sessions), "ANALYZE".to_owned()])
    {
        sqlx::query::<DB>(&statement)
            .execute(pool)
            .await
            .expect("facts");
    }
    let (id,): (String,) = sqlx::query_as::<DB, (String,)>(FIRST_TYPED)
        .fetch_one(pool)
        .await
        .expect("id");
    let sessions = sqlx::query_as::<DB, (String,)>(tries::SESSIONS)
        .fetch_all(pool)
        .await
        .expect("sessions");
    pool.close().await;
    (id, sessions.into_iter().map(|(id,)| id).collect())
}

const FIRST_TYPED: &str = "SELECT id FROM payments WHERE kind = 'payment_v2' LIMIT 1";

/// `options.tries()` rounds (the first `warmup` not kept), each recording four tries like
/// `template`, each in a checkout of its own from `sessions`: without counts, with a typed
/// card's, with a saved card's, and without, then checked apart. A customer of the seed in two of five, that customer's
/// address and e-mail, and a card seen before (the customer's) or new, fingerprinted inside
/// the typed card's timing.
async fn series(
    store: &Arc<dyn Store>,
    risk: &RiskService,
    template: &Payment,
    sessions: Vec<String>,
    options: &Options,
) -> Series {
    let mut rng = StdRng::seed_from_u64(33);
    let mut sessions = sessions.into_iter();
    let mut next_session = || sessions.next().expect("a checkout for each try");
    let recorder = tries::Recorder::new(store, risk);
    let mut series = Series::default();
    for n in 0..options.tries() {
        let keep = n >= options.warmup;
        let customer = rng.random_range(0..50_000u64);
        let (seen, client_key, email) = facts::of_customer(customer);
        let customer_id = rng.random_bool(0.4).then(|| format!("cust-{customer}"));
        let number = CardNumber::parse(&tries::random_number(&mut rng)).expect("valid number");
        let seen_before = rng.random_bool(0.5);
        let client = std::net::IpAddr::from(
            customer.to_be_bytes()[4..]
                .try_into()
                .unwrap_or([198, 51, 100, 1]),
        );
        let try_of = |session_id: String, card_fingerprint: String| {
            let facts = RiskFacts {
                card_fingerprint: Some(card_fingerprint),
                client_key: Some(client_key.clone()),
                shopper_email: Some(email.clone()),
            };
            tries::like(template, session_id, customer_id.clone(), facts)
        };
        let card = risk.fingerprint(&number).into_string();
        let card = if seen_before { seen.clone() } else { card };
        // The typed card's fingerprint, inside the timing of the series that check it.
        let typed_try = |session: String| {
            let typed = risk.fingerprint(&number).into_string();
            try_of(session, if seen_before { seen.clone() } else { typed })
        };

        let new = try_of(next_session(), card.clone());
        let started = Instant::now();
        recorder.plain(new).await;
        keep.then(|| series.plain.push(started.elapsed()));

        let session = next_session();
        let started = Instant::now();
        let verdict = recorder
            .counted(typed_try(session), TryKind::TypedCard, client)
            .await;
        keep.then(|| series.typed.push(started.elapsed()));
        series.not_allowed += usize::from(keep && verdict != Verdict::Allow);

        let new = try_of(next_session(), card);
        let started = Instant::now();
        recorder.counted(new, TryKind::SavedCard, client).await;
        keep.then(|| series.saved.push(started.elapsed()));

        let session = next_session();
        let started = Instant::now();
        recorder.apart(typed_try(session), client).await;
        keep.then(|| series.apart.push(started.elapsed()));
    }
    for samples in [
        &mut series.plain,
        &mut series.typed,
        &mut series.saved,
        &mut series.apart,
    ] {
        samples.sort();
    }
    series
}

/// `checks` timed `SELECT 1` on a pool of its own (after the warm-up): what any statement
/// costs on this database and machine, the floor under the check's.
async fn round_trips(url: &str, options: &Options) -> Vec<Duration> {
    let mut samples = Vec::with_capacity(options.checks);
    macro_rules! time_on {
        ($pool:expr) => {{
            let pool = $pool;
            for n in 0..options.warmup + options.checks {
                let started = Instant::now();
                sqlx::query("SELECT 1")
                    .execute(&pool)
                    .await
                    .expect("select 1");
                if n >= options.warmup {
                    samples.push(started.elapsed());
                }
            }
            pool.close().await;
        }};
    }
    if url.starts_with("sqlite") {
        time_on!(sqlx::SqlitePool::connect(url).await.expect("sqlite"));
    } else {
        time_on!(sqlx::PgPool::connect(url).await.expect("postgres"));
    }
    samples.sort();
    samples
}

fn quantile(sorted: &[Duration], q: f64) -> Duration {
    let index = ((sorted.len() as f64 - 1.0) * q).round() as usize;
    sorted
        .get(index.min(sorted.len().saturating_sub(1)))
        .copied()
        .unwrap_or_default()
}

fn print_row(backend: &str, label: &str, sorted: &[Duration]) {
    println!(
        "{backend:<10} {label:<22} {:>9.3} {:>9.3} {:>9.3} {:>9.3}",
        ms(quantile(sorted, 0.5)),
        ms(quantile(sorted, 0.9)),
        ms(quantile(sorted, 0.99)),
        ms(quantile(sorted, 1.0)),
    );
}
