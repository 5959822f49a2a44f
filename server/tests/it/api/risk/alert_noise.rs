//! The card-testing alert counts the attack, not the noise (issue 47, item 1): tries the block
//! list refuses are already stopped, so however many a bot sends they neither raise the alert
//! nor count in the tally of one a real attack raised.

use serde_json::json;
use time::OffsetDateTime;

use super::alert::{SETTINGS, assert_quiet, bot_session, raised};
use super::block_lists::block;
use super::{Db, assert_blocked, risk_suite, session, start, try_card};
use checkout_server::risk::AlertReview;
use checkout_server::risk::blocks::BlockKind;

risk_suite!(block_listed_tries_neither_raise_nor_feed_the_alert);

/// The BIN the bot's cards share, on the block list.
const BLOCKED_BIN: &str = "555555";

async fn block_listed_tries_neither_raise_nor_feed_the_alert(db: Db) {
    let Some(h) = start(db, &SETTINGS).await else {
        return;
    };
    let risk = h.state.payments.risk();
    block(&h, BlockKind::Bin, BLOCKED_BIN).await;
    // Eight checkouts, each refused by the block list: every try blocked, where a tenth of
    // five raises the alert.
    for _ in 0..8 {
        let bot = session(&h, json!({})).await;
        let reply = try_card(&h, &bot, "5555555555554444").await;
        assert_blocked(&h, &bot, &reply, "blocklist_bin", 0).await;
    }
    let review = risk
        .review_alert(OffsetDateTime::now_utc())
        .await
        .expect("review");
    assert_eq!(
        review,
        AlertReview::Quiet,
        "block-listed tries are no attack"
    );
    assert_quiet(&h).await;
    // A real attack raises it, and its tally holds the attack's tries alone.
    bot_session(&h).await;
    let open = raised(&h).await;
    assert_eq!((open.tally.tries, open.tally.blocked), (5, 1), "{open:?}");
    h.finish().await;
}
