//! The card-testing alert (issue 33, phase B): a burst of blocked tries raises it on its own,
//! every instance then judges by the tightened thresholds (a third card in a session is
//! blocked where four passed before), the shop receives `card_testing.suspected`, `/metrics`
//! and the dashboard say so, and once the trigger has stopped holding for the hold time it
//! ends with `card_testing.ended` and the configured limits apply again.

use std::time::Duration;

use serde_json::{Value, json};
use time::OffsetDateTime;

use super::{
    Db, assert_asked, assert_blocked, declined, risk_suite, sent, session, solved, start, try_card,
    visa,
};
use crate::api::support::{Harness, Reply, cards, eventually, pay_body};
use crate::dashboard::support::Browser;
use checkout_server::risk::AlertReview;
use checkout_server::store::card_testing::{AlertCause, CardTestingAlert};
use checkout_server::store::prelude::*;

risk_suite!(
    a_pay_during_the_alert_needs_a_proof_of_work,
    blocked_tries_raise_the_alert_on_every_instance,
    the_alert_ends_after_its_hold,
    checkouts_changing_card_raise_the_alert,
    a_surge_of_tries_raises_the_alert,
);

/// Four cards a session, tightened to two; an alert from five tries with a tenth blocked
/// (declines, changes of card and the surge alone never raise it here: the bot's cards are
/// the declining test cards, one after another, at a test's pace).
pub(super) const SETTINGS: [(&str, &str); 8] = [
    ("RISK_MAX_CARDS_PER_SESSION", "4"),
    ("RISK_ALERT_MIN_TRIES", "5"),
    ("RISK_ALERT_BLOCKED_PERCENT", "10"),
    ("RISK_ALERT_DECLINED_PERCENT", "100"),
    ("RISK_ALERT_SWITCHED_PERCENT", "100"),
    ("RISK_ALERT_WINDOW_SECONDS", "300"),
    ("RISK_ALERT_HOLD_SECONDS", "600"),
    ("RISK_ALERT_SURGE_TIMES", "0"),
];

/// The shop's events of `kind`.
async fn events(h: &Harness, kind: &str) -> Vec<Value> {
    let reply = Reply::read(
        h.merchant(reqwest::Method::GET, &format!("/v1/events?type={kind}"))
            .send()
            .await
            .expect("sent"),
    )
    .await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    reply.json["data"].as_array().expect("events").clone()
}

/// Waits until `h` follows an open alert, and returns it as the store keeps it.
pub(super) async fn raised(h: &Harness) -> CardTestingAlert {
    eventually("the alert", Duration::from_secs(5), || async {
        h.state.payments.risk().alert_open().then_some(())
    })
    .await;
    h.store()
        .open_card_testing_alert()
        .await
        .expect("read")
        .expect("open")
}

/// Asserts no alert is open, in `h`'s memory or in the store.
pub(super) async fn assert_quiet(h: &Harness) {
    assert!(!h.state.payments.risk().alert_open());
    let open = h.store().open_card_testing_alert().await.expect("read");
    assert!(open.is_none(), "{open:?}");
}

/// The declining test cards a bot runs through one session.
pub(super) const DEAD_CARDS: [&str; 4] = [
    cards::DO_NOT_HONOUR,
    cards::INSUFFICIENT_FUNDS,
    cards::EXPIRED,
    cards::LOST_OR_STOLEN,
];

/// A bot's session: four cards declined, the fifth new one blocked by the configured limit;
/// the block starts the alert's review.
pub(super) async fn bot_session(h: &Harness) {
    let bot = session(h, json!({})).await;
    for card in DEAD_CARDS {
        declined(h, &bot, card).await;
    }
    let reply = try_card(h, &bot, &visa(1)).await;
    assert_blocked(h, &bot, &reply, "cards_per_session", 4).await;
}

/// While the alert is open a pay call is answered with a challenge, and nothing is recorded or
/// sent to the gateway until the call comes back with its answer; an answer for another card
/// (or another checkout) does not count. Without an alert no proof is asked.
async fn a_pay_during_the_alert_needs_a_proof_of_work(db: Db) {
    let Some(h) = start(db, &SETTINGS).await else {
        return;
    };
    let before = session(&h, json!({})).await;
    let reply = h.pay(&before, &pay_body(&visa(7), "123"), None).await;
    assert_eq!(reply.json["next_action"], "redirect", "{}", reply.text);
    bot_session(&h).await;
    raised(&h).await;

    let shopper = session(&h, json!({})).await;
    let mut body = pay_body(&visa(3), "123");
    let asked = h.pay(&shopper, &body, None).await;
    assert_eq!(asked.status, 428, "{}", asked.text);
    let challenge = &asked.json["error"]["challenge"];
    assert_eq!(challenge["algorithm"], "SHA-256", "{challenge}");
    assert_eq!(challenge["maxnumber"], 50_000, "{challenge}");
    for word in ["risk", "card_testing", "blocked"] {
        assert!(!asked.text.contains(word), "{}", asked.text);
    }
    assert!(
        h.stored_payments(&shopper).await.is_empty(),
        "nothing recorded"
    );
    assert_eq!(h.gateway_charges(&shopper.reference), 0);
    let proof = solved(&asked);

    // The answer pays this card in this checkout only.
    let mut other_card = pay_body(&visa(4), "123");
    other_card["proof_of_work"] = json!(proof);
    assert_eq!(h.pay(&shopper, &other_card, None).await.status, 428);
    let elsewhere = session(&h, json!({})).await;
    body["proof_of_work"] = json!(proof);
    assert_eq!(h.pay(&elsewhere, &body, None).await.status, 428);
    let paid = h.pay(&shopper, &body, None).await;
    assert_eq!(paid.json["next_action"], "redirect", "{}", paid.text);
    assert_eq!(h.gateway_charges(&shopper.reference), 1);

    let metrics = checkout_server::metrics::render(h.store().as_ref()).await;
    for outcome in ["asked", "refused", "accepted"] {
        assert!(
            metrics.contains(&format!(
                "checkout_card_testing_proofs_total{{outcome=\"{outcome}\"}}"
            )),
            "{outcome}: {metrics}"
        );
    }
    h.finish().await;
}

async fn blocked_tries_raise_the_alert_on_every_instance(db: Db) {
    let Some(h) = start(db, &SETTINGS).await else {
        return;
    };
    let second = h.beside(&SETTINGS).await;
    assert!(!h.state.payments.risk().alert_open());
    bot_session(&h).await;
    // Five tries, one blocked: the block's review raises the alert.
    let open = raised(&h).await;
    assert_eq!((open.tally.tries, open.tally.blocked), (5, 1));
    assert_eq!(open.cause, Some(AlertCause::Blocked));
    let suspected = events(&h, "card_testing.suspected").await;
    assert_eq!(suspected.len(), 1, "{suspected:?}");
    let object = &suspected[0]["data"]["object"];
    assert_eq!(object["object"], "card_testing", "{object}");
    assert_eq!(object["id"], open.id.as_str());
    assert_eq!(object["status"], "open");
    assert_eq!(object["cause"], "blocked");
    assert_eq!(
        (object["tries"].clone(), object["blocked"].clone()),
        (json!(5), json!(1))
    );
    // The second instance joins it on its next review (a reconciler pass, called here so the
    // test need not wait for its timer) without raising another.
    let review = second
        .state
        .payments
        .risk()
        .review_alert(OffsetDateTime::now_utc())
        .await
        .expect("review");
    assert!(
        matches!(review, AlertReview::Open(ref alert) if alert.id == open.id),
        "{review:?}"
    );
    assert_eq!(events(&h, "card_testing.suspected").await.len(), 1);
    // Tightened on both: a third card in a session (past the halved limit, within the
    // ordinary one) is asked for a proof of work.
    for instance in [&h, &second] {
        let s = session(instance, json!({})).await;
        declined(instance, &s, cards::DO_NOT_HONOUR).await;
        declined(instance, &s, cards::INSUFFICIENT_FUNDS).await;
        assert_asked(instance, &s, &visa(2), 2).await;
    }
    let metrics = checkout_server::metrics::render(h.store().as_ref()).await;
    assert!(
        metrics.contains("checkout_card_testing_suspected 1"),
        "{metrics}"
    );
    // Staff see it on the overview (with the blocked tries by rule) and on /risk.
    let browser = Browser::as_role(&h, "viewer@example.com", StaffRole::Viewer).await;
    let overview = browser.get("/").await;
    assert_eq!(overview.status, 200);
    assert!(
        overview.text.contains("Card testing suspected since"),
        "{}",
        overview.text
    );
    assert!(
        overview
            .text
            .contains("Tries blocked by the card-testing rules")
    );
    assert!(overview.text.contains("<code>cards_per_session</code>"));
    let risk = browser.get("/risk").await;
    assert_eq!(risk.status, 200);
    assert!(risk.text.contains(&open.id), "{}", risk.text);
    assert!(
        risk.text
            .contains("distinct cards tried in one checkout session")
    );
    second.finish().await;
    h.finish().await;
}

async fn the_alert_ends_after_its_hold(db: Db) {
    let Some(h) = start(db, &SETTINGS).await else {
        return;
    };
    let risk = h.state.payments.risk();
    bot_session(&h).await;
    eventually("the alert", Duration::from_secs(5), || async {
        risk.alert_open().then_some(())
    })
    .await;
    let now = OffsetDateTime::now_utc();
    let review = risk.review_alert(now).await.expect("review");
    assert!(
        matches!(review, AlertReview::Raised(_) | AlertReview::Open(_)),
        "{review:?}"
    );
    // Past the window the trigger no longer holds, but the hold keeps the alert.
    let later = now + time::Duration::seconds(400);
    assert!(matches!(
        risk.review_alert(later).await.expect("review"),
        AlertReview::Open(_)
    ));
    assert!(risk.alert_open());
    // Past the hold since the trigger last held: ended.
    let quiet = now + time::Duration::seconds(601);
    let review = risk.review_alert(quiet).await.expect("review");
    let AlertReview::Ended(ended) = review else {
        panic!("not ended: {review:?}");
    };
    assert_quiet(&h).await;
    let ended_events = events(&h, "card_testing.ended").await;
    assert_eq!(ended_events.len(), 1, "{ended_events:?}");
    assert_eq!(ended_events[0]["data"]["object"]["id"], ended.id.as_str());
    assert_eq!(ended_events[0]["data"]["object"]["status"], "ended");
    assert_eq!(
        risk.settings_in_force(),
        risk.settings(),
        "the configured limits again"
    );
    h.finish().await;
}

/// A bot that spreads its numbers over many checkouts is blocked by no rule at first; what
/// gives it away is that its checkouts change card. Three checkouts each change card once:
/// half of six tries, past a third, and nothing blocked or declined past its share.
async fn checkouts_changing_card_raise_the_alert(db: Db) {
    let settings = [
        ("RISK_MAX_CARDS_PER_SESSION", "4"),
        ("RISK_ALERT_MIN_TRIES", "6"),
        ("RISK_ALERT_BLOCKED_PERCENT", "100"),
        ("RISK_ALERT_DECLINED_PERCENT", "100"),
        ("RISK_ALERT_SWITCHED_PERCENT", "30"),
        ("RISK_ALERT_SURGE_TIMES", "0"),
    ];
    let Some(h) = start(db, &settings).await else {
        return;
    };
    for n in 0..3 {
        let s = session(&h, json!({})).await;
        declined(&h, &s, cards::DO_NOT_HONOUR).await;
        sent(&h, &s, &visa(50 + n)).await;
    }
    let open = raised(&h).await;
    assert_eq!(
        (open.tally.tries, open.tally.blocked, open.tally.switched),
        (6, 0, 3)
    );
    assert_eq!(open.cause, Some(AlertCause::Switched));
    let suspected = events(&h, "card_testing.suspected").await;
    assert_eq!(suspected[0]["data"]["object"]["switched"], 3);
    h.finish().await;
}

/// A bot's first number in each checkout looks like a shopper's: no share gives it away, its
/// pace does. Six checkouts paying within a minute are not twenty times the pace of a day
/// whose busiest quarter hour had five tries (6 < 20 × 5 / 15), and are a surge once that day
/// is further back than the last one (no busy quarter hour: the six reach the floor of six).
async fn a_surge_of_tries_raises_the_alert(db: Db) {
    let settings = [
        ("RISK_ALERT_MIN_TRIES", "6"),
        ("RISK_ALERT_BLOCKED_PERCENT", "100"),
        ("RISK_ALERT_DECLINED_PERCENT", "100"),
        ("RISK_ALERT_SWITCHED_PERCENT", "100"),
        ("RISK_ALERT_SURGE_SECONDS", "60"),
        ("RISK_ALERT_SURGE_TIMES", "20"),
    ];
    let Some(h) = start(db, &settings).await else {
        return;
    };
    let risk = h.state.payments.risk();
    let checkouts = |from: u16, count: u16| {
        let h = &h;
        async move {
            for n in from..from + count {
                let s = session(h, json!({})).await;
                sent(h, &s, &visa(70 + n)).await;
            }
        }
    };
    // Yesterday: five tries in one quarter hour (too few to judge by themselves).
    checkouts(0, 5).await;
    h.execute("UPDATE payments SET created_at = created_at - 86400000")
        .await;
    checkouts(5, 6).await;
    let review = risk
        .review_alert(OffsetDateTime::now_utc())
        .await
        .expect("review");
    assert_eq!(review, AlertReview::Quiet, "an ordinary pace for this shop");
    // The same six after a day without a busy quarter hour.
    let hour_ago = (OffsetDateTime::now_utc().unix_timestamp() - 3_600) * 1_000;
    h.execute(&format!(
        "UPDATE payments SET created_at = created_at - 86400000 WHERE created_at < {hour_ago}"
    ))
    .await;
    let review = risk
        .review_alert(OffsetDateTime::now_utc())
        .await
        .expect("review");
    let AlertReview::Raised(open) = review else {
        panic!("not raised: {review:?}");
    };
    assert_eq!(open.cause, Some(AlertCause::Surge));
    assert_eq!((open.tally.tries, open.tally.switched), (6, 0));
    assert!(risk.alert_open());
    let suspected = events(&h, "card_testing.suspected").await;
    assert_eq!(suspected[0]["data"]["object"]["cause"], "surge");
    let browser = Browser::as_role(&h, "viewer@example.com", StaffRole::Viewer).await;
    let overview = browser.get("/").await;
    assert!(
        overview
            .text
            .contains("Raised by a surge of tries past the day"),
        "{}",
        overview.text
    );
    h.finish().await;
}
