//! The card-testing benchmark's attacker in miniature (`benches/card_testing.rs`): its bot,
//! shoppers and counts run here against a real server and emulator, so the bench keeps
//! compiling and its counting stays right: every try of the bot either reached the gateway
//! (the emulator's ledger), was blocked by a rule (the server's payments) or, once the
//! card-testing alert is open, was refused for want of a proof of work, and the shoppers
//! beside it (who solve it, as the frame does) all pay.

#[allow(dead_code)]
#[path = "../../../benches/card_testing/bot.rs"]
mod bot;
#[allow(dead_code)]
#[path = "../../../benches/card_testing/cards.rs"]
mod cards;
#[allow(dead_code)]
#[path = "../../../benches/card_testing/checkout.rs"]
mod checkout;
#[allow(dead_code)]
#[path = "../../../benches/card_testing/crowd.rs"]
mod crowd;
#[allow(dead_code)]
#[path = "../../../benches/card_testing/shoppers.rs"]
mod shoppers;
#[allow(dead_code)]
#[path = "../../../benches/card_testing/summary.rs"]
mod summary;
#[allow(dead_code)]
#[path = "../../../benches/card_testing/tally.rs"]
mod tally;
#[allow(dead_code)]
#[path = "../../../benches/card_testing/target.rs"]
mod target;

use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_attack_try_reached_the_gateway_or_was_blocked_and_shoppers_pay() {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!("sqlite://{}", dir.path().join("attack.db").display());
    let target = target::Target::start(&url).await.expect("server starts");
    let http = reqwest::Client::new();
    // Six sessions at 4 tries a second: a session's tries are 1.5 s apart (a pay sooner after
    // a 3-D Secure redirect is the same click again, answered `payment_in_progress`).
    let attack = bot::Attack {
        tries: 30,
        sessions: 6,
        addresses: 30,
        rate: 4,
        solves: checkout::Solves::No,
    };
    // Eight shoppers alone, four behind the carrier's NAT, a family of two.
    let mut taken = std::collections::BTreeMap::<crowd::Kind, usize>::new();
    let crowd: Vec<crowd::Shopper> = crowd::population(8)
        .into_iter()
        .filter(|s| {
            let wanted = match s.kind {
                crowd::Kind::Alone => 8,
                crowd::Kind::CarrierNat => 4,
                crowd::Kind::Family => 2,
                _ => 0,
            };
            let n = taken.entry(s.kind).or_default();
            *n += 1;
            *n <= wanted
        })
        .collect();
    let visits = crowd
        .iter()
        .map(|s| 1 + usize::from(s.pays_twice))
        .sum::<usize>();
    let bot = bot::Bot::issue_33(attack);
    let (bot_log, shopper_log) = tokio::join!(
        bot::run(&http, &target.base, &bot),
        shoppers::run(&target.base, crowd, Duration::from_secs(4))
    );
    let blocked = tally::blocked_payments(&http, &target.base)
        .await
        .expect("listed");
    let reached = tally::gateway_charges(&target.sandbox, &bot_log.references);
    let by_rule = tally::by_rule(&blocked, &bot_log.session_ids);
    let blocked_tries: usize = by_rule.values().sum();
    // During an alert a try without a proof of work is refused before anything is recorded.
    let unproven = bot_log
        .answers
        .get("refused 428 proof_of_work_required")
        .copied()
        .unwrap_or(0);
    assert_eq!(
        reached + blocked_tries + unproven,
        attack.tries,
        "{:?} {by_rule:?}",
        bot_log.answers
    );
    assert!(
        blocked_tries + unproven > 0,
        "six sessions of five new cards: {by_rule:?} {:?}",
        bot_log.answers
    );
    let kinds = summary::by_kind(&shopper_log, &blocked);
    assert_eq!(kinds.len(), 3, "alone, behind a NAT, a family");
    for (kind, summary) in &kinds {
        assert_eq!(summary.refused, 0, "{kind:?} {:?}", summary.unpaid);
        assert_eq!(summary.blocked, 0, "{kind:?} {:?}", summary.rules);
        assert_eq!(
            summary.paid, summary.intended,
            "{kind:?} {:?}",
            summary.unpaid
        );
    }
    let intended: usize = kinds.values().map(|s| s.intended).sum();
    assert_eq!(intended, visits, "fourteen shoppers, some of them twice");
    target.stop().await;
}
