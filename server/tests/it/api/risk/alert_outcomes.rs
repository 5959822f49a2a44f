//! The card-testing alert weighs tries by checkout and outcome, not rows (issue 47, item 1): a
//! checkout that paid adds no decline to its share, so shoppers who mistype and then pay
//! raise nothing; and the alert is seen when its attack's newest try was, so its hold runs
//! from the bot's last new try, not from the last review while the window still holds the
//! bot's older tries.

use std::time::Duration;

use serde_json::json;
use time::OffsetDateTime;

use super::alert::{DEAD_CARDS, assert_quiet, raised};
use super::shared_addresses::paid;
use super::{Db, declined, risk_suite, session, start, visa};
use checkout_server::risk::AlertReview;
use checkout_server::store::card_testing::AlertCause;

risk_suite!(
    shoppers_who_mistype_and_then_pay_raise_no_alert,
    the_hold_runs_from_the_attacks_last_try,
);

/// An alert from five tries, half of them declined; a window longer than the hold, so the
/// bot's tries are still in it when the hold has passed. Blocks, changes of card and the
/// surge never raise it here.
const SETTINGS: [(&str, &str); 7] = [
    ("RISK_ALERT_MIN_TRIES", "5"),
    ("RISK_ALERT_BLOCKED_PERCENT", "100"),
    ("RISK_ALERT_DECLINED_PERCENT", "50"),
    ("RISK_ALERT_SWITCHED_PERCENT", "100"),
    ("RISK_ALERT_WINDOW_SECONDS", "3600"),
    ("RISK_ALERT_HOLD_SECONDS", "60"),
    ("RISK_ALERT_SURGE_TIMES", "0"),
];

/// Six shoppers each have a card declined and then pay with another: 12 rows, half declined,
/// which raised the alert when it counted rows.
async fn shoppers_who_mistype_and_then_pay_raise_no_alert(db: Db) {
    let Some(h) = start(db, &SETTINGS).await else {
        return;
    };
    for n in 0..6 {
        let shopper = session(&h, json!({})).await;
        declined(&h, &shopper, DEAD_CARDS[n % DEAD_CARDS.len()]).await;
        paid(&h, &shopper, &visa(n as u16 + 1)).await;
    }
    let review = h
        .state
        .payments
        .risk()
        .review_alert(OffsetDateTime::now_utc())
        .await
        .expect("review");
    assert_eq!(review, AlertReview::Quiet);
    assert_quiet(&h).await;
    h.finish().await;
}

/// Six bot checkouts declined raise the alert; a shopper pays after them. Ninety seconds
/// later (past the hold of sixty) the bot's tries are still in the window and its share still
/// holds, but nothing new of it came: the alert ends.
async fn the_hold_runs_from_the_attacks_last_try(db: Db) {
    let Some(h) = start(db, &SETTINGS).await else {
        return;
    };
    for n in 0..6 {
        let bot = session(&h, json!({})).await;
        declined(&h, &bot, DEAD_CARDS[n % DEAD_CARDS.len()]).await;
    }
    let open = raised(&h).await;
    assert_eq!(open.cause, Some(AlertCause::Declined), "{open:?}");
    // The review that raised it may have run while the last try was recorded and not yet
    // declined: every other try it counted is a decline.
    let in_flight = open.tally.tries - open.tally.declined;
    assert!(open.tally.declined >= 5 && in_flight <= 1, "{open:?}");
    let shopper = session(&h, json!({})).await;
    paid(&h, &shopper, &visa(1)).await;

    let risk = h.state.payments.risk();
    let later = OffsetDateTime::now_utc() + Duration::from_secs(90);
    let review = risk.review_alert(later).await.expect("review");
    assert!(matches!(review, AlertReview::Ended(_)), "{review:?}");
    assert_quiet(&h).await;
    h.finish().await;
}
