//! The attacker: a card-testing bot. It has a list of card numbers to check (each tried
//! once), opens `sessions` checkouts at the shop as a guest with a throw-away e-mail each,
//! and sends `tries` pay calls at `rate` a second, open loop (it does not wait for one answer
//! before the next try), through `addresses` rotating proxy addresses. Try `n` takes session
//! `n mod sessions` and address `n mod addresses`: spreading evenly is what a rotating bot
//! does, and the bench knows no rule or threshold of the server.
//!
//! It pays exactly as the checkout frame does. When the server answers with the bank's 3-D
//! Secure page, the number has passed the gateway: the bot notes it as live and moves on
//! without finishing 3-D Secure (a tester does not hold the cardholder's second factor; and
//! the emulator approves every random number, so a bot that finished frictionless 3-D Secure
//! would pay its session on the first hit, which real testers' mostly dead numbers do not).
//! A decline (blocked or not: they look the same) marks the number dead. A refusal that says
//! nothing of the card (429 rate limited, 409 payment in progress) is tried again after a
//! pause, twice at most. The proof of work asked during a card-testing alert (428) the bot
//! solves, natively, when the attack says it [`Solves`]; otherwise it gives the number up.
//!
//! Issue 47 adds bots that differ only in their [`Bot`] settings: one hiding behind the
//! carrier's NAT addresses the shoppers use, one that finishes 3-D Secure and so pays with
//! every number that works (the emulator approves any Luhn-valid one; real testers' cards
//! often work), and one whose tries come from a block-listed range, solving the puzzle, to
//! hold the alert open.

use std::collections::{BTreeMap, HashSet};
use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::cards;
use super::checkout::{self, PayAnswer, Session, SessionFields, Solves, TypedCard};

/// Calls the bot makes for one number when the server refuses it without an answer on the
/// card (a rate limit, a payment still in progress): it comes back after [`PAUSE`].
const ATTEMPTS: usize = 3;
const PAUSE: Duration = Duration::from_secs(2);

/// The attack's size.
#[derive(Clone, Copy, Debug)]
pub struct Attack {
    pub tries: usize,
    pub sessions: usize,
    pub addresses: usize,
    pub rate: usize,
    /// Whether the bot solves the proof of work asked during an alert.
    pub solves: Solves,
}

/// One bot: its attack, where it comes from and how far it goes.
pub struct Bot {
    pub attack: Attack,
    /// Its rotating addresses (the attack's `addresses` is their count for the main bot).
    pub addresses: Vec<IpAddr>,
    /// Whether it finishes 3-D Secure, paying with every number that passes.
    pub finishes: bool,
    /// Its random numbers' seed.
    pub seed: u64,
}

impl Bot {
    /// The issue-33 bot: `attack.addresses` rotating proxy addresses of its own.
    pub fn issue_33(attack: Attack) -> Self {
        Self {
            addresses: cards::addresses(attack.addresses, 45, 0xbad0, 12),
            attack,
            finishes: false,
            seed: 33,
        }
    }
}

/// What the bot saw.
#[derive(Default, Debug)]
pub struct BotLog {
    /// The references of the bot's sessions (the gateway's `merchant_txn_ref`).
    pub references: HashSet<String>,
    /// The ids of the bot's sessions.
    pub session_ids: HashSet<String>,
    /// Sessions the shop would not open.
    pub sessions_failed: usize,
    /// Answers by kind: `3ds page (number live)`, `declined`, `refused 429 rate_limited`, ….
    pub answers: BTreeMap<String, usize>,
    /// When its last try was sent.
    pub last_try: Option<Instant>,
}

/// Runs `bot`'s attack against the server at `base`.
pub async fn run(http: &reqwest::Client, base: &str, bot: &Bot) -> BotLog {
    let attack = bot.attack;
    let mut log = BotLog::default();
    let mut rng = StdRng::seed_from_u64(bot.seed);
    let mut sessions = Vec::with_capacity(attack.sessions);
    for _ in 0..attack.sessions {
        let reference = format!("order-{}", &uuid::Uuid::new_v4().simple().to_string()[..16]);
        let email = format!(
            "{}{}@{}",
            ["kenta", "yui", "mail", "shop", "abc"][rng.random_range(0..5)],
            rng.random_range(100..1_000_000),
            ["example.com", "example.net", "example.org"][rng.random_range(0..3)]
        );
        let fields = SessionFields {
            reference: &reference,
            amount: 300,
            email: Some(&email),
            customer_id: None,
        };
        match checkout::create_session(http, base, &fields).await {
            Ok(session) => {
                log.references.insert(session.reference.clone());
                log.session_ids.insert(session.id.clone());
                sessions.push(session);
            }
            Err(_) => log.sessions_failed += 1,
        }
    }
    if sessions.is_empty() {
        return log;
    }
    let sessions = Arc::new(sessions);
    let addresses = Arc::new(bot.addresses.clone());
    let finishes = bot.finishes;
    let mut ticks = tokio::time::interval(Duration::from_secs_f64(1.0 / attack.rate as f64));
    let mut tries = tokio::task::JoinSet::new();
    for n in 0..attack.tries {
        ticks.tick().await;
        let number = cards::random_card(&mut rng);
        let expiry = cards::random_expiry(&mut rng);
        let cvc = format!("{:03}", rng.random_range(0..1000));
        let (http, base) = (http.clone(), base.to_owned());
        let (sessions, addresses) = (Arc::clone(&sessions), Arc::clone(&addresses));
        tries.spawn(async move {
            let session: &Session = &sessions[n % sessions.len()];
            let client: IpAddr = addresses[n % addresses.len()];
            let card = TypedCard {
                number: &number,
                expiry: (&expiry.0, &expiry.1),
                cvc: &cvc,
                name: "TARO YAMADA",
            };
            let solves = attack.solves;
            let mut answer = checkout::pay(&http, &base, session, &card, client, solves).await;
            if let (true, PayAnswer::Redirect(url)) = (finishes, &answer) {
                return finish(url, client).await;
            }
            for _ in 1..ATTEMPTS {
                let again = match &answer {
                    PayAnswer::Refused { status, .. } => *status != 428,
                    PayAnswer::Failed => true,
                    _ => false,
                };
                if !again {
                    break;
                }
                tokio::time::sleep(PAUSE).await;
                answer = checkout::pay(&http, &base, session, &card, client, solves).await;
            }
            kind(&answer)
        });
    }
    log.last_try = Some(Instant::now());
    while let Some(done) = tries.join_next().await {
        let kind = done.unwrap_or_else(|_| "bot task failed".to_owned());
        *log.answers.entry(kind).or_default() += 1;
    }
    log
}

/// Finishes 3-D Secure on the bank's page at `url` from `client`, as a bot holding the
/// cardholder's second factor (or a card without one) would: the number pays.
async fn finish(url: &str, client: IpAddr) -> String {
    let browser = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::limited(10))
        .build();
    let Ok(browser) = browser else {
        return "3-D Secure not finished".to_owned();
    };
    match browser
        .get(url)
        .header("X-Forwarded-For", client.to_string())
        .send()
        .await
    {
        Ok(_) => "3-D Secure finished (number passed the gateway)".to_owned(),
        Err(_) => "3-D Secure not finished".to_owned(),
    }
}

/// How the bot files an answer.
fn kind(answer: &PayAnswer) -> String {
    match answer {
        PayAnswer::Redirect(_) => "3-D Secure page (number passed the gateway)".to_owned(),
        PayAnswer::Result { state, .. } => format!("answered {state}"),
        PayAnswer::Refused { status, code } => format!("refused {status} {code}"),
        PayAnswer::Failed => "call failed".to_owned(),
    }
}
