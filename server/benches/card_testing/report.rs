//! The bench's printed lines: each bot's tries stopped before the gateway, the alerts'
//! timeline, and the shoppers' table by kind (refused, asked for a proof of work, paid).

use std::collections::HashMap;

use serde_json::json;

use super::bot::BotLog;
use super::crowd::Kind;
use super::shoppers::ShopperLog;
use super::summary;
use super::tally::{self, Blocked};
use super::target::{MERCHANT_KEY, Target};
use super::timeline::{AlertTimes, offset};

/// One labelled line.
pub fn row(label: &str, value: String) {
    println!("  {label:<42} {value}");
}

/// `met` or `NOT MET`.
pub fn verdict(met: bool) -> &'static str {
    if met { "met" } else { "NOT MET" }
}

/// Puts `range` on the address block list through the merchant API.
pub async fn block_range(http: &reqwest::Client, base: &str, range: &str) {
    let added = http
        .post(format!("{base}/v1/risk/blocks"))
        .bearer_auth(MERCHANT_KEY)
        .json(&json!({"kind": "address", "value": range, "note": "bench"}))
        .send()
        .await
        .map(|response| response.status().as_u16());
    row("block-listed range", format!("{range} ({added:?})"));
}

/// One bot's lines; the share of its `tries` stopped before the gateway.
pub fn bot(
    name: &str,
    target: &Target,
    blocked: &HashMap<String, Blocked>,
    log: &BotLog,
    tries: usize,
) -> f64 {
    let reached = tally::gateway_charges(&target.sandbox, &log.references);
    let stopped = tries.saturating_sub(reached);
    let share = stopped as f64 / tries.max(1) as f64;
    println!("  {name}:");
    row("  answers", format!("{:?}", log.answers));
    if log.sessions_failed > 0 {
        row("  sessions not opened", log.sessions_failed.to_string());
    }
    row(
        "  tries that reached the gateway",
        format!("{reached} of {tries} (emulator ledger)"),
    );
    row(
        "  stopped before the gateway",
        format!("{:.1} %", share * 100.0),
    );
    let rules = tally::by_rule(blocked, &log.session_ids);
    row("  blocked, by rule", format!("{rules:?}"));
    share
}

/// The alerts' lines: when each was raised and last seen, against when the attacks' last new
/// try and the block-listed bot's last try were sent (ms since the epoch).
pub fn alerts(
    alerts: &[AlertTimes],
    run_start: i64,
    attacks_end: Option<i64>,
    holding_end: Option<i64>,
) {
    let at = |time: Option<i64>| time.map_or("-".to_owned(), |t| offset(t, run_start));
    row(
        "attacks' last try / block-listed bot's",
        format!("{} / {}", at(attacks_end), at(holding_end)),
    );
    if alerts.is_empty() {
        row("card-testing alerts raised", "none".to_owned());
    }
    for alert in alerts {
        let held = match attacks_end {
            Some(end) if alert.last_seen_at > end + 1_000 => "seen after the attacks' traffic",
            Some(_) => "not seen after the attacks' traffic: met",
            None => "",
        };
        row(
            "card-testing alert",
            format!(
                "cause {}, raised {}, last seen {} ({held}), ended {}",
                alert.cause.as_deref().unwrap_or("?"),
                offset(alert.started_at, run_start),
                offset(alert.last_seen_at, run_start),
                at(alert.ended_at),
            ),
        );
    }
}

/// The shoppers' table, one line a kind, and what refused them.
pub fn shoppers(target: &Target, blocked: &HashMap<String, Blocked>, log: &ShopperLog) {
    let kinds = summary::by_kind(log, blocked);
    println!(
        "  {:<38} {:>8} {:>8} {:>8} {:>9} {:>8} {:>10}",
        "shoppers", "count", "refused", "blocked", "paid", "asked", "mistyped"
    );
    let mut refused = 0;
    for kind in Kind::ALL {
        let Some(s) = kinds.get(&kind) else { continue };
        refused += s.refused;
        println!(
            "  {:<38} {:>8} {:>8} {:>8} {:>9} {:>8} {:>10}",
            kind.name(),
            s.shoppers,
            s.refused,
            s.blocked,
            format!("{}/{}", s.paid, s.intended),
            s.asked,
            format!("{} ({} bl.)", s.mistyped, s.mistyped_blocked),
        );
        if !s.unpaid.is_empty() {
            row("    own-card tries not paid", format!("{:?}", s.unpaid));
        }
        if !s.rules.is_empty() {
            row("    tries blocked, by rule", format!("{:?}", s.rules));
        }
    }
    row(
        "ordinary shoppers refused",
        format!("{refused} (target 0: {})", verdict(refused == 0)),
    );
    let asked = kinds.get(&Kind::Returning).map_or(0, |s| s.asked);
    row(
        "returning customers asked for a proof",
        format!("{asked} (target 0: {})", verdict(asked == 0)),
    );
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
