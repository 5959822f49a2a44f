//! Issue 33, item 6: a card-testing attack against a running checkout-server, beside ordinary
//! shoppers, and how much of it the card-testing defence stops before the gateway. On SQLite,
//! and on PostgreSQL too when `TEST_DATABASE_URL_POSTGRES` is set.
//!
//! Run: `cargo bench -p checkout-server --bench card_testing [-- --tries 2000 --sessions 400
//! --addresses 500 --rate 20 --shoppers 200 --yesterday N]`. Every server setting the environment sets
//! (`RISK_*`, `PAY_RATE_LIMIT_*`, …) is passed to the server; the bench knows no threshold.
//!
//! What reached the gateway is counted from the emulator's ledger, what was blocked and by
//! which rule from the server's payments (`risk_rule`), never from the answers the bot got.
//! Targets: ≥ 95 % of the attack's tries stopped before the gateway, no ordinary shopper
//! blocked.

use std::time::{Duration, Instant};

#[allow(dead_code)] // `ms`: no figure here is in milliseconds
#[path = "support/cli.rs"]
mod cli;

#[allow(dead_code)] // `drop_triggers`: no trigger is compared here
#[path = "support/databases.rs"]
mod databases;

#[path = "card_testing/bot.rs"]
mod bot;
#[path = "card_testing/cards.rs"]
mod cards;
#[path = "card_testing/checkout.rs"]
mod checkout;
#[path = "card_testing/history.rs"]
mod history;
#[path = "card_testing/shoppers.rs"]
mod shoppers;
#[path = "card_testing/summary.rs"]
mod summary;
#[path = "card_testing/tally.rs"]
mod tally;
#[path = "card_testing/target.rs"]
mod target;

const POSTGRES_ENV: &str = "TEST_DATABASE_URL_POSTGRES";
/// Share of the attack's tries to stop before the gateway.
const STOP_TARGET: f64 = 0.95;

struct Options {
    attack: bot::Attack,
    shoppers: usize,
    /// Tries in the busiest quarter hour of the shop's day before.
    yesterday: usize,
}

impl Options {
    fn from_args() -> Self {
        Self {
            attack: bot::Attack {
                tries: cli::number("--tries", 2_000, 1),
                sessions: cli::number("--sessions", 400, 1),
                addresses: cli::number("--addresses", 500, 1),
                rate: cli::number("--rate", 20, 1),
                solves: if std::env::args().any(|arg| arg == "--bot-solves") {
                    checkout::Solves::Yes
                } else {
                    checkout::Solves::No
                },
            },
            shoppers: cli::number("--shoppers", 200, 0),
            yesterday: 0,
        }
        .with_yesterday()
    }

    /// `--yesterday`, by default the shoppers' own pace over a quarter hour (each tries about
    /// 1.24 times: one in seven mistypes first, one in ten pays twice).
    fn with_yesterday(self) -> Self {
        let span = self.attack.tries as f64 / self.attack.rate as f64;
        let pace = self.shoppers as f64 * (1.0 + 1.0 / 7.0 + 1.0 / 10.0) / span;
        Self {
            yesterday: cli::number("--yesterday", (pace * 900.0).round() as usize, 0),
            ..self
        }
    }
}

fn main() {
    let options = Options::from_args();
    cli::run_on(2, run(options));
}

async fn run(options: Options) {
    explain(&options);
    let dir = tempfile::tempdir().expect("temp dir");
    let sqlite = databases::Database::new(dir.path(), "card_testing", None).await;
    measure("sqlite", &sqlite.url, &options).await;
    match std::env::var(POSTGRES_ENV) {
        Ok(url) => {
            let postgres = databases::Database::new(dir.path(), "card_testing", Some(&url)).await;
            measure("postgres", &postgres.url, &options).await;
            postgres.drop().await;
        }
        Err(_) => println!(
            "\npostgres   SKIPPED: set {POSTGRES_ENV} (scripts/postgres.sh prints a URL) to measure it"
        ),
    }
}

/// The attacker's model, printed first.
fn explain(options: &Options) {
    let a = options.attack;
    println!(
        "card testing (issue 33): a bot checks {tries} card numbers (random, Luhn-valid, each \
         tried once; the emulator approves them all) at {rate} tries/s, open loop, over {sessions} \
         checkout sessions the shop opened for it as a guest (a throw-away e-mail each, no \
         customer id) and {addresses} rotating proxy addresses (IPv4, one in twelve an IPv6 /64 \
         of its own). Try n takes session n mod {sessions} and address n mod {addresses}. It pays \
         as the checkout frame does and takes the bank's 3-D Secure page as proof the number \
         passed the gateway, without finishing 3-D Secure; a decline (blocked or not) marks the \
         number dead; a refusal that says nothing of the card (429, 409) is tried again after 2 s, \
         twice at most. It does not adapt to being blocked. The proof of work the server asks \
         for during a card-testing alert (428) it {proof}.",
        proof = match a.solves {
            checkout::Solves::Yes => "solves, natively (--bot-solves)",
            checkout::Solves::No =>
                "does not solve: it gives the number up (--bot-solves to change)",
        },
        tries = a.tries,
        rate = a.rate,
        sessions = a.sessions,
        addresses = a.addresses,
    );
    println!(
        "beside it: {} ordinary shoppers arriving over the attack, one address each, an e-mail, \
         two in five a customer id; one in seven first mistypes (a card the emulator declines: \
         its declining test cards in turn), then pays with their own card in the same session; \
         one in ten pays again in a second session with the same card. Shoppers finish 3-D Secure.",
        options.shoppers
    );
    println!(
        "the shop's day before: its busiest quarter hour had {} tries (--yesterday; the \
         surge trigger measures the last seconds against that pace)",
        options.yesterday
    );
    let passed = target::passed_settings();
    if passed.is_empty() {
        println!("server settings from the environment: none (the server's defaults)");
    } else {
        let shown: Vec<String> = passed.iter().map(|(k, v)| format!("{k}={v}")).collect();
        println!("server settings from the environment: {}", shown.join(" "));
    }
}

/// One run on `database_url`, printed.
async fn measure(backend: &str, database_url: &str, options: &Options) {
    let started = Instant::now();
    let target = target::Target::start(database_url)
        .await
        .expect("server starts");
    history::seed_yesterday(database_url, options.yesterday as u64).await;
    println!("\n{backend}: load before {}", cli::load_average());
    println!("  rules in force (server configuration): {:?}", target.risk);
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client");
    let span = Duration::from_secs_f64(options.attack.tries as f64 / options.attack.rate as f64);
    let (bot_log, shopper_log) = tokio::join!(
        bot::run(&http, &target.base, options.attack),
        shoppers::run(&target.base, options.shoppers, span)
    );
    let elapsed = started.elapsed();
    let blocked = tally::blocked_payments(&http, &target.base)
        .await
        .expect("blocked payments listed");
    let reached = tally::gateway_charges(&target.sandbox, &bot_log.references);
    let tries = options.attack.tries;
    let stopped = tries.saturating_sub(reached);
    let share = stopped as f64 / tries.max(1) as f64;
    println!("  the bot's answers: {:?}", bot_log.answers);
    if bot_log.sessions_failed > 0 {
        println!(
            "  sessions the shop would not open for the bot: {}",
            bot_log.sessions_failed
        );
    }
    row("attack tries", tries.to_string());
    row(
        "attack tries that reached the gateway",
        format!("{reached} (emulator ledger)"),
    );
    row(
        "share stopped before the gateway",
        format!(
            "{:.1} % (target ≥ {:.0} %: {})",
            share * 100.0,
            STOP_TARGET * 100.0,
            verdict(share >= STOP_TARGET)
        ),
    );
    row("gateway calls saved", stopped.to_string());
    let rules = tally::by_rule(&blocked, &bot_log.session_ids);
    let by_rules: usize = rules.values().sum();
    row("attack tries blocked, by rule", format!("{rules:?}"));
    row(
        "attack tries stopped otherwise",
        format!(
            "{} (refused before any rule: the proof of work, rate limits, a payment in progress; \
             see the answers)",
            stopped.saturating_sub(by_rules)
        ),
    );
    let alerts = match tally::events(&http, &target.base, "card_testing.suspected").await {
        Some(times) if times.is_empty() => "none".to_owned(),
        Some(times) => format!(
            "{} (card_testing.suspected at {})",
            times.len(),
            times.join(", ")
        ),
        None => "n/a (this server has no such event)".to_owned(),
    };
    row("card-testing alerts raised", alerts);
    let solved = checkout::PROOFS_SOLVED.swap(0, std::sync::atomic::Ordering::Relaxed);
    let nanos = checkout::PROOF_NANOS.swap(0, std::sync::atomic::Ordering::Relaxed);
    row(
        "proofs of work solved (bot and shoppers)",
        format!(
            "{solved}, {:.1} ms each on average, in this process (a dev build hashes far slower \
             than a release build)",
            nanos as f64 / 1e6 / solved.max(1) as f64
        ),
    );
    report_shoppers(&target, &blocked, &shopper_log);
    row("run time", format!("{:.1} s", elapsed.as_secs_f64()));
    println!("  load after {}", cli::load_average());
    target.stop().await;
}

/// The shoppers' lines.
fn report_shoppers(
    target: &target::Target,
    blocked: &std::collections::HashMap<String, tally::Blocked>,
    log: &shoppers::ShopperLog,
) {
    let s = summary::ShopperSummary::of(log, blocked);
    row(
        "ordinary shoppers blocked",
        format!(
            "{} (target 0: {})",
            s.blocked_shoppers,
            verdict(s.blocked_shoppers == 0)
        ),
    );
    row(
        "ordinary payments succeeded",
        format!("{} of {} meant", s.paid, s.intended),
    );
    if !s.unpaid.is_empty() {
        row(
            "shoppers' own-card tries not paid",
            format!("{:?}", s.unpaid),
        );
    }
    row(
        "mistyped tries blocked",
        format!(
            "{} of {} (answered as the decline they would have got; the emulator declines only \
             its few shared test cards, so their declines add up across shoppers)",
            s.mistyped_blocked, s.mistyped
        ),
    );
    if !s.rules.is_empty() {
        row("shoppers' tries blocked, by rule", format!("{:?}", s.rules));
    }
    row(
        "shoppers' calls that reached the gateway",
        tally::gateway_charges(&target.sandbox, &log.references).to_string(),
    );
    if log.sessions_failed > 0 {
        row(
            "shopper sessions not opened",
            log.sessions_failed.to_string(),
        );
    }
}

fn row(label: &str, value: String) {
    println!("  {label:<42} {value}");
}

fn verdict(met: bool) -> &'static str {
    if met { "met" } else { "NOT MET" }
}
