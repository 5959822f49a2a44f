//! The shoppers' side of the figures, for every kind of shopper ([`Kind`]): who was refused
//! (a try with their own card that did not end captured: blocked by a rule, rate limited, or
//! anything else), how many payments went through, who was asked for a proof of work, and
//! what became of the mistyped tries.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::crowd::Kind;
use super::shoppers::{ShopperLog, ShopperTry};
use super::tally::Blocked;

/// One kind's figures.
#[derive(Default)]
pub struct KindSummary {
    /// Shoppers of the kind.
    pub shoppers: usize,
    /// Shoppers with a try of their own card that did not end captured.
    pub refused: usize,
    /// Shoppers a rule refused a try of their own card.
    pub blocked: usize,
    /// Payments with their own card that ended captured, and those meant.
    pub paid: usize,
    pub intended: usize,
    /// Shoppers asked for a proof of work on their own card.
    pub asked: usize,
    /// Own-card tries that did not end captured, by how they ended.
    pub unpaid: BTreeMap<String, usize>,
    /// Mistyped tries, and how many of them a rule blocked.
    pub mistyped: usize,
    pub mistyped_blocked: usize,
    /// Blocked tries by rule (`mistype ` before the rule for a mistyped try).
    pub rules: BTreeMap<String, usize>,
}

/// Every kind's figures of `log` given the server's `blocked` payments.
pub fn by_kind(
    log: &ShopperLog,
    blocked: &HashMap<String, Blocked>,
) -> BTreeMap<Kind, KindSummary> {
    let rule_of = |t: &ShopperTry| t.payment_id.as_ref().and_then(|id| blocked.get(id));
    let mut kinds: BTreeMap<Kind, KindSummary> = BTreeMap::new();
    let mut shoppers: BTreeMap<Kind, BTreeSet<usize>> = BTreeMap::new();
    let mut refused: BTreeMap<Kind, BTreeSet<usize>> = BTreeMap::new();
    let mut blocked_shoppers: BTreeMap<Kind, BTreeSet<usize>> = BTreeMap::new();
    let mut asked: BTreeMap<Kind, BTreeSet<usize>> = BTreeMap::new();
    for (shopper, kind) in &log.intended {
        kinds.entry(*kind).or_default().intended += 1;
        shoppers.entry(*kind).or_default().insert(*shopper);
    }
    for t in &log.tries {
        let summary = kinds.entry(t.kind).or_default();
        if let Some(b) = rule_of(t) {
            let prefix = if t.own_card { "" } else { "mistype " };
            *summary
                .rules
                .entry(format!("{prefix}{}", b.rule))
                .or_default() += 1;
            if t.own_card {
                blocked_shoppers
                    .entry(t.kind)
                    .or_default()
                    .insert(t.shopper);
            } else {
                summary.mistyped_blocked += 1;
            }
        }
        if !t.own_card {
            summary.mistyped += 1;
            continue;
        }
        if t.asked {
            asked.entry(t.kind).or_default().insert(t.shopper);
        }
        if t.outcome == "captured" {
            summary.paid += 1;
        } else {
            *summary.unpaid.entry(t.outcome.clone()).or_default() += 1;
            refused.entry(t.kind).or_default().insert(t.shopper);
        }
    }
    for (kind, summary) in &mut kinds {
        let count =
            |sets: &BTreeMap<Kind, BTreeSet<usize>>| sets.get(kind).map_or(0, BTreeSet::len);
        summary.shoppers = count(&shoppers);
        summary.refused = count(&refused);
        summary.blocked = count(&blocked_shoppers);
        summary.asked = count(&asked);
    }
    kinds
}
