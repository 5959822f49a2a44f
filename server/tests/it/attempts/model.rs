//! The model test of the attempt rules (issue 45): seeded random walks, each one session
//! driven through a random sequence of what shoppers, banks, the gateway's webhooks, the
//! merchant and the reconciler do, against the sandbox's ledger. During the walk, a pay sent
//! to a session already paid must be refused (a recharge otherwise). After each walk settles,
//! the invariants ([`super::model_check`]) must hold: at most one live charge per session at
//! the gateway (any other in front of staff, in review with its reason), and it is the
//! session's keeper's; `session.completed` once, naming the keeper; the shop's order, made by
//! the backend samples' own rule from the events, matches the ledger.
//!
//! `make test` runs a short seeded run on SQLite and PostgreSQL. By hand, longer:
//! `ATTEMPT_MODEL_WALKS=300 cargo test -p checkout-server --test it attempts::model`, or one
//! walk again with `ATTEMPT_MODEL_SEED=<seed>` (a failure names its seed and its steps).

use serde_json::{Value, json};

use super::model_check::check;
use super::support::{back_from_the_bank, bank_decides_unseen};
use crate::api::customer_cards::{new_customer, pay_with_saved, save_card_by_paying};
use crate::api::support::{Harness, TestSession, cards, pay_body};
use crate::ops::support::{arm, in_seconds, ops_suite, reconciler, second_instance, send};
use checkout_server::reconcile::Reconciler;
use checkout_server::web::AppState;

const CONFIG: &[(&str, &str)] = &[("PAYMENT_REVIEW_AFTER_SECONDS", "600")];

ops_suite!(random_walks_keep_one_charge_per_session);

/// Walks a run makes unless `ATTEMPT_MODEL_WALKS` says otherwise.
const DEFAULT_WALKS: u64 = 10;
/// Steps of one walk before it settles.
const STEPS: u32 = 12;

async fn random_walks_keep_one_charge_per_session(h: &Harness) {
    let seeds: Vec<u64> = match std::env::var("ATTEMPT_MODEL_SEED") {
        Ok(seed) => vec![seed.parse().expect("ATTEMPT_MODEL_SEED is a number")],
        Err(_) => {
            let walks = std::env::var("ATTEMPT_MODEL_WALKS")
                .ok()
                .and_then(|n| n.parse().ok())
                .unwrap_or(DEFAULT_WALKS);
            (1..=walks).collect()
        }
    };
    let second = second_instance(h).await;
    let customer = new_customer();
    let saved = save_card_by_paying(h, &customer).await;
    for seed in seeds {
        let mut walk = Walk::start(h, &second, seed, &customer, &saved["id"]).await;
        walk.run().await;
        walk.settle().await;
        let settled = match walk.broken.first() {
            Some(broken) => Err(broken.clone()),
            None => check(h, &walk.session, walk.amount).await,
        };
        if let Err(broken) = settled {
            panic!("seed {seed}: {broken}\nsteps:\n  {}", walk.log.join("\n  "));
        }
    }
}

/// A small deterministic generator (xorshift64*): the same seed walks the same way.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// A 3-D Secure attempt whose shopper is at the bank: its redirect, and whether the bank
/// shows a challenge (a frictionless or declined card decides when the page is opened).
struct AtTheBank {
    redirect: String,
    challenge: bool,
}

/// One session's walk.
struct Walk<'a> {
    h: &'a Harness,
    second: &'a AppState,
    rng: Rng,
    session: TestSession,
    amount: u64,
    capture: bool,
    saved_card: &'a Value,
    at_the_bank: Vec<AtTheBank>,
    log: Vec<String>,
    /// What broke during the walk itself (a pay a paid session took).
    broken: Vec<String>,
}

impl<'a> Walk<'a> {
    async fn start(
        h: &'a Harness,
        second: &'a AppState,
        seed: u64,
        customer: &str,
        saved_card: &'a Value,
    ) -> Walk<'a> {
        let mut rng = Rng::new(seed);
        let capture = !rng.chance(25);
        let amount = 1000 + seed % 1000;
        let session = h
            .session(amount, json!({"customer_id": customer, "capture": capture}))
            .await;
        Walk {
            h,
            second,
            rng,
            session,
            amount,
            capture,
            saved_card,
            at_the_bank: Vec::new(),
            broken: Vec::new(),
            log: vec![format!("session {} capture={capture}", json!(amount))],
        }
    }

    async fn run(&mut self) {
        for _ in 0..STEPS {
            match self.rng.below(100) {
                0..=17 => self.pay_typed(cards::CHALLENGE, true).await,
                18..=27 => self.pay_typed(cards::FRICTIONLESS, false).await,
                28..=32 => self.pay_typed(cards::DO_NOT_HONOUR, false).await,
                33..=39 => self.pay_saved().await,
                40..=64 => self.bank().await,
                65..=74 => {
                    self.log.push("back from the bank".into());
                    back_from_the_bank(self.h, &self.session).await;
                }
                75..=82 => self.merchant_reverses().await,
                _ => {
                    let late = self.rng.chance(40);
                    let both = self.rng.chance(50);
                    self.reconcile(late, both).await;
                }
            }
        }
    }

    /// Whatever is still open ends: each attempt at the bank is decided or abandoned, then
    /// both instances pass after every deadline, twice (a reversal found by the first).
    async fn settle(&mut self) {
        while !self.at_the_bank.is_empty() {
            if self.rng.chance(30) {
                let left = self.at_the_bank.remove(0);
                self.log
                    .push(format!("abandoned {}", short(&left.redirect)));
            } else {
                self.bank().await;
            }
        }
        self.reconcile(true, true).await;
        self.reconcile(true, true).await;
    }

    async fn pay_typed(&mut self, number: &str, challenge: bool) {
        self.pay(
            &format!("pay {number}"),
            &pay_body(number, "123"),
            challenge,
        )
        .await;
    }

    async fn pay_saved(&mut self) {
        self.pay("pay saved card", &pay_with_saved(self.saved_card), false)
            .await;
    }

    /// Pays with `body`. A session already paid when the pay is sent must refuse it: that is
    /// a recharge, whatever happens to the charge later.
    async fn pay(&mut self, what: &str, body: &Value, challenge: bool) {
        let paid_before = self
            .h
            .state
            .payments
            .is_paid(&self.session.id)
            .await
            .expect("keeper");
        let reply = self.h.pay(&self.session, body, None).await;
        if paid_before && reply.status != 409 {
            self.broken.push(format!(
                "{what} on a paid session was taken: {} {}",
                reply.status, reply.text
            ));
        }
        self.answered(what, reply, challenge);
    }

    /// Notes a pay's answer: a redirect to the bank, a result, or a refusal the rules allow.
    fn answered(&mut self, what: &str, reply: crate::api::support::Reply, challenge: bool) {
        let outcome = match (reply.status, reply.json["next_action"].as_str()) {
            (200, Some("redirect")) => {
                let redirect = reply.json["redirect_url"].as_str().expect("url").to_owned();
                self.at_the_bank.push(AtTheBank {
                    redirect: redirect.clone(),
                    challenge,
                });
                format!("→ at the bank {}", short(&redirect))
            }
            (200, _) => format!("→ {}", reply.json["result"]["state"]),
            (409, _) => format!("→ 409 {}", reply.json["error"]["code"]),
            _ => panic!(
                "{what}: unexpected {} {}\n{}",
                reply.status,
                reply.text,
                self.log.join("\n")
            ),
        };
        self.log.push(format!("{what} {outcome}"));
    }

    /// The bank decides one attempt: approve or reject, with the shopper coming back or not,
    /// its webhook lost or sent twice.
    async fn bank(&mut self) {
        if self.at_the_bank.is_empty() {
            return;
        }
        let index = self.rng.below(self.at_the_bank.len() as u64) as usize;
        let attempt = self.at_the_bank.remove(index);
        let approve = self.rng.chance(60);
        let decision = if approve { "approve" } else { "reject" };
        let returns = !attempt.challenge || self.rng.chance(50);
        let fault = self.rng.below(4);
        if fault == 0 && returns {
            arm(self.h, "webhook=duplicate-webhook*1");
        }
        let lose = fault == 1 && !returns;
        self.log.push(format!(
            "bank {decision} {} returns={returns} webhook={}",
            short(&attempt.redirect),
            match (fault, returns) {
                (0, true) => "twice",
                (1, false) => "lost",
                _ => "sent",
            }
        ));
        if returns {
            self.h.complete_3ds(&attempt.redirect, decision).await;
        } else {
            bank_decides_unseen(self.h, &attempt.redirect, decision, lose).await;
        }
    }

    /// The merchant refunds (or voids) the payment that paid the session, if it can.
    async fn merchant_reverses(&mut self) {
        let Some(keeper) = self
            .h
            .state
            .payments
            .keeper(&self.session.id)
            .await
            .expect("keeper")
        else {
            return;
        };
        let action = if self.capture { "refund" } else { "void" };
        let reply = send(self.h.merchant(
            reqwest::Method::POST,
            &format!("/v1/payments/{}/{action}", keeper.payment_id),
        ))
        .await;
        self.log
            .push(format!("merchant {action}s the keeper → {}", reply.status));
    }

    async fn reconcile(&mut self, late: bool, both: bool) {
        let at = if late { in_seconds(601) } else { in_seconds(0) };
        let first = reconciler(self.h);
        if both {
            let other = Reconciler::new(self.second.reconciler_services());
            tokio::join!(first.run_once_at(at), other.run_once_at(at));
        } else {
            first.run_once_at(at).await;
        }
        self.log.push(format!(
            "reconciler late={late} instances={}",
            1 + usize::from(both)
        ));
    }
}

/// The last characters of a redirect, enough to tell attempts apart in a log.
fn short(url: &str) -> &str {
    &url[url.len().saturating_sub(8)..]
}
