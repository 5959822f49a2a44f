//! The card-testing rules end to end (issue 33, phase A): each rule fires at its threshold and
//! not before, a blocked try never reaches the gateway, the shopper sees one generic refusal,
//! the merchant sees `blocked` with the rule and a `payment.blocked` event, two instances on
//! one database count the same tries, and an ordinary shopper is never blocked. The block
//! lists (item 3): each kind on the pay path, and their merchant API.
//!
//! The harness lifts every rule (`support.rs`); each test sets the thresholds it tests.

mod alert;
mod alert_noise;
mod alert_outcomes;
mod block_lists;
mod blocks_api;
mod counts_unread;
mod instances;
mod parallel_tries;
mod returning;
mod session_rules;
mod shared_addresses;
mod shopper_rules;
mod soft_rules;

use serde_json::{Value, json};
use std::time::Duration;

use checkout::contract::PaymentState;

use super::support::{Harness, Reply, TestSession, eventually, pay_body};

/// Runs each scenario `name(db)` as `sqlite::<name>` and `postgres::<name>` (skipped, loudly,
/// without `TEST_DATABASE_URL_POSTGRES`).
macro_rules! risk_suite {
    ($($name:ident),+ $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::$name(crate::api::risk::Db::Sqlite).await;
                }
            )+
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::$name(crate::api::risk::Db::Postgres).await;
                }
            )+
        }
    };
}
pub(crate) use risk_suite;

/// Which database a scenario runs on.
#[derive(Clone, Copy, Debug)]
pub enum Db {
    Sqlite,
    Postgres,
}

/// A server on `db` with `pairs` (the rules' thresholds), or `None` when Postgres is not set.
pub async fn start(db: Db, pairs: &[(&str, &str)]) -> Option<Harness> {
    match db {
        Db::Sqlite => Some(Harness::start_with(super::support::Backend::Sqlite, pairs).await),
        Db::Postgres => Harness::start_postgres_with(pairs).await,
    }
}

/// A Luhn-valid Visa number no test card names (the emulator approves it), one per `n`.
pub fn visa(n: u16) -> String {
    let body = format!("424242424242{:03}", n % 1000);
    let sum: u32 = body
        .bytes()
        .rev()
        .enumerate()
        .map(|(i, b)| {
            let d = u32::from(b - b'0');
            if i % 2 == 0 {
                let twice = d * 2;
                if twice > 9 { twice - 9 } else { twice }
            } else {
                d
            }
        })
        .sum();
    format!("{body}{}", (10 - sum % 10) % 10)
}

/// A pay call with the typed card `number`.
/// Pays `session` with `number` as the card frame does: during a card-testing alert the first
/// answer asks for a proof of work, which is solved and sent with the same request.
pub async fn try_card(h: &Harness, session: &TestSession, number: &str) -> Reply {
    let mut body = pay_body(number, "123");
    let reply = h.pay(session, &body, None).await;
    if reply.status != 428 {
        return reply;
    }
    body["proof_of_work"] = json!(solved(&reply));
    h.pay(session, &body, None).await
}

/// The answer to the challenge of a `proof_of_work_required` reply.
pub fn solved(reply: &Reply) -> checkout::contract::ProofOfWork {
    assert_eq!(reply.status, 428, "{}", reply.text);
    assert_eq!(reply.json["error"]["code"], "proof_of_work_required");
    let challenge =
        serde_json::from_value(reply.json["error"]["challenge"].clone()).expect("a challenge");
    checkout_server::risk::proof::solve(&challenge).expect("solvable")
}

/// Asserts a try of `number` on `session` without a proof of work is asked for one (`428`),
/// naming no rule, and that nothing of it reached the gateway (`charges` before).
pub async fn assert_asked(h: &Harness, session: &TestSession, number: &str, charges: usize) {
    let asked = h.pay(session, &pay_body(number, "123"), None).await;
    assert_eq!(asked.status, 428, "a puzzle, not a refusal: {}", asked.text);
    assert_eq!(asked.json["error"]["code"], "proof_of_work_required");
    for word in ["risk", "rule", "blocked", "address"] {
        assert!(!asked.text.contains(word), "{}", asked.text);
    }
    assert_eq!(h.gateway_charges(&session.reference), charges);
}

/// A try that goes to the gateway: answered with the 3-D Secure redirect.
pub async fn sent(h: &Harness, session: &TestSession, number: &str) -> String {
    let reply = try_card(h, session, number).await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_eq!(
        reply.json["next_action"], "redirect",
        "not sent: {}",
        reply.text
    );
    reply.json["redirect_url"]
        .as_str()
        .expect("redirect_url")
        .to_owned()
}

/// Pays `session` with the declining test card `number` and waits until it is declined.
pub async fn declined(h: &Harness, session: &TestSession, number: &str) {
    let redirect = sent(h, session, number).await;
    h.complete_3ds(&redirect, "approve").await;
    eventually("the decline", Duration::from_secs(5), || async {
        let newest = h.stored_payment(session).await;
        (newest.state == PaymentState::Declined).then_some(())
    })
    .await;
}

/// A one-off session of 1000 JPY with `extra` fields.
pub async fn session(h: &Harness, extra: Value) -> TestSession {
    h.session(1000, extra).await
}

/// Asserts `reply` answered a try the rule `rule` blocked: the shopper sees the one generic
/// refusal, `blocked` without a decline code or the rule (also on `/result`), nothing reached the gateway for it (`charges` is the
/// session's count before), the merchant sees `blocked` with the rule, and its
/// `payment.blocked` event carries the rule.
pub async fn assert_blocked(
    h: &Harness,
    session: &TestSession,
    reply: &Reply,
    rule: &str,
    charges: usize,
) {
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_eq!(
        reply.json,
        json!({"next_action": "none", "result": {
            "payment_id": reply.json["result"]["payment_id"],
            "state": "blocked",
            "amount": reply.json["result"]["amount"],
            "currency": reply.json["result"]["currency"],
        }}),
        "the shopper's answer is the one generic refusal: no decline, no rule"
    );
    for word in ["decline", "risk", rule] {
        assert!(!reply.text.contains(word), "{}", reply.text);
    }
    let result = h.result(session).await;
    assert_eq!(result["state"], "blocked", "{result}");
    assert_eq!(result.get("decline"), None, "{result}");
    assert_eq!(
        h.gateway_charges(&session.reference),
        charges,
        "a blocked try never reaches the gateway"
    );
    let id = reply.json["result"]["payment_id"].as_str().expect("id");
    let merchant = h.payment(id).await;
    assert_eq!(merchant["state"], "blocked", "{merchant}");
    assert_eq!(merchant["risk_rule"], rule, "{merchant}");
    let stored = h.stored_payment(session).await;
    assert_eq!(
        (
            stored.id.as_str(),
            stored.state,
            stored.risk_rule.as_deref()
        ),
        (id, PaymentState::Blocked, Some(rule))
    );
    assert_eq!(
        stored.next_check_at, None,
        "nothing left for the reconciler"
    );
    let events = Reply::read(
        h.merchant(
            reqwest::Method::GET,
            &format!("/v1/events?type=payment.blocked&object_id={id}"),
        )
        .send()
        .await
        .expect("sent"),
    )
    .await;
    assert_eq!(events.status, 200, "{}", events.text);
    let events = events.json["data"].as_array().expect("events").clone();
    assert_eq!(events.len(), 1, "one payment.blocked event: {events:?}");
    assert_eq!(events[0]["data"]["object"]["state"], "blocked");
    assert_eq!(events[0]["data"]["object"]["risk_rule"], rule);
}

#[test]
fn generated_numbers_pass_luhn_and_differ() {
    let a = checkout::card::CardNumber::parse(&visa(1)).expect("valid");
    let b = checkout::card::CardNumber::parse(&visa(2)).expect("valid");
    assert_ne!(a.last4(), b.last4());
}
