//! The ordinary shoppers beside the attack: each has one address of their own, an e-mail,
//! one card, and in two of five cases a customer id (a signed-in account). They arrive spread
//! over the attack's span and pay as the checkout frame does, finishing 3-D Secure (the
//! emulator's page passes a random card straight through) and reading the result.
//!
//! Some mistype (one in seven): their first try is a card the emulator declines (its
//! declining test cards, taken in turn), then they pay with their own card in the same
//! session. Some pay again the same day (one in ten): a second session, the same card.
//! A refused call (a rate limit, a payment still in progress) is clicked again after a pause,
//! twice at most.

use std::collections::HashSet;
use std::net::IpAddr;
use std::time::Duration;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::cards;
use super::checkout::{self, PayAnswer, Session, SessionFields, Solves, TypedCard};

/// One pay try of a shopper, as it ended.
#[derive(Debug, Clone)]
pub struct ShopperTry {
    pub shopper: usize,
    /// The shopper's own card (not the mistyped one).
    pub own_card: bool,
    pub payment_id: Option<String>,
    /// The final state the browser saw, or what refused the call.
    pub outcome: String,
}

/// What the shoppers did.
#[derive(Default, Debug)]
pub struct ShopperLog {
    pub references: HashSet<String>,
    pub tries: Vec<ShopperTry>,
    /// Payments the shoppers meant to make (one per session with their own card).
    pub intended: usize,
    pub sessions_failed: usize,
}

/// Who one shopper is.
struct Shopper {
    index: usize,
    address: IpAddr,
    email: String,
    customer_id: Option<String>,
    card: String,
    expiry: (String, String),
    cvc: String,
    mistype: Option<&'static str>,
    pays_twice: bool,
}

/// Runs `count` shoppers arriving over `span` against the server at `base`.
pub async fn run(base: &str, count: usize, span: Duration) -> ShopperLog {
    let mut rng = StdRng::seed_from_u64(7);
    let addresses = cards::addresses(count, 126, 0x5a0e, 20);
    let declining = cards::declining_test_cards();
    let mut shoppers = tokio::task::JoinSet::new();
    for (index, address) in addresses.into_iter().enumerate() {
        let shopper = Shopper {
            index,
            address,
            email: format!("shopper{index}@example.jp"),
            customer_id: rng.random_bool(0.4).then(|| format!("cust-{index:05}")),
            card: cards::random_card(&mut rng),
            expiry: cards::random_expiry(&mut rng),
            cvc: format!("{:03}", rng.random_range(0..1000)),
            mistype: (index % 7 == 3 && !declining.is_empty())
                .then(|| declining[(index / 7) % declining.len()]),
            pays_twice: index % 10 == 5,
        };
        let arrival = span.mul_f64(index as f64 / count.max(1) as f64);
        let base = base.to_owned();
        shoppers.spawn(async move {
            tokio::time::sleep(arrival).await;
            shop(&base, &shopper).await
        });
    }
    let mut log = ShopperLog::default();
    while let Some(done) = shoppers.join_next().await {
        let Ok(one) = done else { continue };
        log.references.extend(one.references);
        log.tries.extend(one.tries);
        log.intended += one.intended;
        log.sessions_failed += one.sessions_failed;
    }
    log
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
        let reference = format!("order-{}", &uuid::Uuid::new_v4().simple().to_string()[..16]);
        let fields = SessionFields {
            reference: &reference,
            amount: 1_000 + 500 * (shopper.index as u64 % 30),
            email: Some(&shopper.email),
            customer_id: shopper.customer_id.as_deref(),
        };
        let Ok(session) = checkout::create_session(&browser, base, &fields).await else {
            log.sessions_failed += 1;
            continue;
        };
        log.references.insert(reference);
        log.intended += 1;
        if let Some(wrong) = shopper.mistype.filter(|_| visit == 0) {
            let typed = TypedCard {
                number: wrong,
                expiry: ("12", "2030"),
                cvc: "123",
                name: "HANAKO SATO",
            };
            log.tries
                .push(attempt(&browser, base, shopper, &session, &typed, false).await);
            tokio::time::sleep(Duration::from_secs(3)).await;
        }
        let typed = TypedCard {
            number: &shopper.card,
            expiry: (&shopper.expiry.0, &shopper.expiry.1),
            cvc: &shopper.cvc,
            name: "HANAKO SATO",
        };
        log.tries
            .push(attempt(&browser, base, shopper, &session, &typed, true).await);
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
    card: &TypedCard<'_>,
    own_card: bool,
) -> ShopperTry {
    let mut ended = ShopperTry {
        shopper: shopper.index,
        own_card,
        payment_id: None,
        outcome: "not sent".to_owned(),
    };
    for click in 0..3 {
        if click > 0 {
            tokio::time::sleep(Duration::from_secs(2)).await;
        }
        match checkout::pay(browser, base, session, card, shopper.address, Solves::Yes).await {
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
