//! The ordinary shoppers beside the attack ([`super::crowd`]: alone, behind a carrier's NAT,
//! in an office, in a family, mistyping twice, returning with a saved card). They arrive
//! spread over the run and pay as the checkout frame does, solving the proof of work when
//! asked, finishing 3-D Secure (the emulator's page passes a random card straight through)
//! and reading the result.
//!
//! A shopper who mistypes types the numbers the bank declines first, then their own card,
//! in the same session. One who pays twice comes back in a second session with the same
//! card. A returning customer saved their card before the attack ([`save_cards`]) and pays
//! with it. A refused call (a rate limit, a payment still in progress) is clicked again after
//! a pause, twice at most.

use std::collections::HashSet;
use std::net::IpAddr;
use std::time::Duration;

use super::checkout::{self, Method, PayAnswer, Session, SessionFields, Solves, TypedCard};
use super::crowd::{Kind, Shopper};

/// One pay try of a shopper, as it ended.
#[derive(Debug, Clone)]
pub struct ShopperTry {
    pub shopper: usize,
    pub kind: Kind,
    /// The shopper's own card (not a mistyped one).
    pub own_card: bool,
    /// Whether the server asked this try for a proof of work.
    pub asked: bool,
    pub payment_id: Option<String>,
    /// The final state the browser saw, or what refused the call.
    pub outcome: String,
}

/// What the shoppers did.
#[derive(Default, Debug)]
pub struct ShopperLog {
    pub references: HashSet<String>,
    pub tries: Vec<ShopperTry>,
    /// Payments the shoppers meant to make (one per session with their own card), by shopper.
    pub intended: Vec<(usize, Kind)>,
    pub sessions_failed: usize,
}

/// Runs `shoppers` arriving over `span` against the server at `base`.
pub async fn run(base: &str, shoppers: Vec<Shopper>, span: Duration) -> ShopperLog {
    let count = shoppers.len();
    let mut running = tokio::task::JoinSet::new();
    for (n, shopper) in shoppers.into_iter().enumerate() {
        // Interleaved, so every kind arrives all along the run.
        let slot = (n * 7919) % count.max(1);
        let arrival = span.mul_f64(slot as f64 / count.max(1) as f64);
        let base = base.to_owned();
        running.spawn(async move {
            tokio::time::sleep(arrival).await;
            shop(&base, &shopper).await
        });
    }
    let mut log = ShopperLog::default();
    while let Some(done) = running.join_next().await {
        let Ok(one) = done else { continue };
        log.references.extend(one.references);
        log.tries.extend(one.tries);
        log.intended.extend(one.intended);
        log.sessions_failed += one.sessions_failed;
    }
    log
}

/// Before the run: every returning customer pays once with their card and saves it. Returns
/// the shoppers whose card was not saved.
pub async fn save_cards(base: &str, shoppers: &[Shopper]) -> usize {
    let mut unsaved = 0;
    for shopper in shoppers.iter().filter(|s| s.kind == Kind::Returning) {
        let Ok(browser) = browser(shopper.address) else {
            unsaved += 1;
            continue;
        };
        let Some(session) = open(&browser, base, shopper).await else {
            unsaved += 1;
            continue;
        };
        let card = typed(shopper);
        let method = Method::Typed {
            card: &card,
            save: true,
        };
        let ended = attempt(&browser, base, shopper, &session, &method, true).await;
        if ended.outcome != "captured" {
            unsaved += 1;
        }
    }
    unsaved
}

/// A shopper's session, as the shop's back end opens it.
async fn open(browser: &reqwest::Client, base: &str, shopper: &Shopper) -> Option<Session> {
    let reference = format!("order-{}", &uuid::Uuid::new_v4().simple().to_string()[..16]);
    let fields = SessionFields {
        reference: &reference,
        amount: 1_000 + 500 * (shopper.index as u64 % 30),
        email: Some(&shopper.email),
        customer_id: shopper.customer_id.as_deref(),
    };
    checkout::create_session(browser, base, &fields).await.ok()
}

/// The shopper's own card as typed.
fn typed(shopper: &Shopper) -> TypedCard<'_> {
    TypedCard {
        number: &shopper.card,
        expiry: (&shopper.expiry.0, &shopper.expiry.1),
        cvc: &shopper.cvc,
        name: "HANAKO SATO",
    }
}

/// One shopper's visits.
async fn shop(base: &str, shopper: &Shopper) -> ShopperLog {
    let mut log = ShopperLog::default();
    let Ok(browser) = browser(shopper.address) else {
        log.sessions_failed += 1;
        return log;
    };
    let visits = if shopper.pays_twice { 2 } else { 1 };
    for visit in 0..visits {
        if visit > 0 {
            tokio::time::sleep(Duration::from_secs(5)).await;
        }
        let Some(session) = open(&browser, base, shopper).await else {
            log.sessions_failed += 1;
            continue;
        };
        log.references.insert(session.reference.clone());
        log.intended.push((shopper.index, shopper.kind));
        for wrong in shopper.mistypes.iter().filter(|_| visit == 0) {
            let typed = TypedCard {
                number: wrong,
                expiry: ("12", "2030"),
                cvc: "123",
                name: "HANAKO SATO",
            };
            let method = Method::Typed {
                card: &typed,
                save: false,
            };
            let ended = attempt(&browser, base, shopper, &session, &method, false).await;
            log.tries.push(ended);
            tokio::time::sleep(Duration::from_secs(3)).await;
        }
        let card = typed(shopper);
        let saved = if shopper.kind == Kind::Returning {
            checkout::saved_cards(&browser, base, &session, shopper.address).await
        } else {
            Vec::new()
        };
        let method = match saved.first() {
            Some(id) => Method::Saved(id),
            None => Method::Typed {
                card: &card,
                save: false,
            },
        };
        log.tries
            .push(attempt(&browser, base, shopper, &session, &method, true).await);
    }
    log
}

/// A shopper's browser: follows redirects (the bank's page and back) and comes from the
/// shopper's address.
fn browser(address: IpAddr) -> anyhow::Result<reqwest::Client> {
    let mut headers = reqwest::header::HeaderMap::new();
    headers.insert("X-Forwarded-For", address.to_string().parse()?);
    Ok(reqwest::Client::builder()
        .default_headers(headers)
        .redirect(reqwest::redirect::Policy::limited(10))
        .build()?)
}

/// One pay try to its end: 3-D Secure finished and the result read.
async fn attempt(
    browser: &reqwest::Client,
    base: &str,
    shopper: &Shopper,
    session: &Session,
    method: &Method<'_>,
    own_card: bool,
) -> ShopperTry {
    let mut ended = ShopperTry {
        shopper: shopper.index,
        kind: shopper.kind,
        own_card,
        asked: false,
        payment_id: None,
        outcome: "not sent".to_owned(),
    };
    for click in 0..3 {
        if click > 0 {
            tokio::time::sleep(Duration::from_secs(2)).await;
        }
        let (answer, asked) =
            checkout::pay_with(browser, base, session, method, shopper.address, Solves::Yes).await;
        ended.asked |= asked;
        match answer {
            PayAnswer::Redirect(url) => {
                let _ = browser.get(&url).send().await;
                let (id, state) = settled(browser, base, session, shopper.address).await;
                ended.payment_id = id;
                ended.outcome = state;
                return ended;
            }
            PayAnswer::Result { payment_id, state } => {
                ended.payment_id = Some(payment_id);
                ended.outcome = state;
                return ended;
            }
            PayAnswer::Refused { status, code } => {
                ended.outcome = format!("refused {status} {code}")
            }
            PayAnswer::Failed => ended.outcome = "call failed".to_owned(),
        }
    }
    ended
}

/// The session's result once it is no longer pending (10 s at most).
async fn settled(
    browser: &reqwest::Client,
    base: &str,
    session: &Session,
    address: IpAddr,
) -> (Option<String>, String) {
    let mut last = (None, "no result".to_owned());
    for _ in 0..100 {
        if let Some((id, state)) = checkout::result(browser, base, session, address).await {
            let done = !matches!(state.as_str(), "pending" | "processing");
            last = (Some(id), state);
            if done {
                break;
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    last
}
