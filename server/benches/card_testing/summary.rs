//! The shoppers' side of the figures: who was blocked (a try with their own card refused by
//! a rule), how many payments went through, what became of the mistyped tries.

use std::collections::{BTreeMap, HashMap, HashSet};

use super::shoppers::{ShopperLog, ShopperTry};
use super::tally::Blocked;

/// The shoppers' figures.
pub struct ShopperSummary {
    /// Shoppers a rule refused a try of their own card.
    pub blocked_shoppers: usize,
    /// Payments with their own card that ended captured.
    pub paid: usize,
    /// Payments they meant to make.
    pub intended: usize,
    /// Own-card tries that did not end captured, by how they ended.
    pub unpaid: BTreeMap<String, usize>,
    /// Mistyped tries, and how many of them a rule blocked.
    pub mistyped: usize,
    pub mistyped_blocked: usize,
    /// Blocked tries by rule (`mistype ` before the rule for a mistyped try).
    pub rules: BTreeMap<String, usize>,
}

impl ShopperSummary {
    /// The figures of `log` given the server's `blocked` payments.
    pub fn of(log: &ShopperLog, blocked: &HashMap<String, Blocked>) -> Self {
        let rule_of = |t: &ShopperTry| t.payment_id.as_ref().and_then(|id| blocked.get(id));
        let mut summary = Self {
            blocked_shoppers: 0,
            paid: 0,
            intended: log.intended,
            unpaid: BTreeMap::new(),
            mistyped: 0,
            mistyped_blocked: 0,
            rules: BTreeMap::new(),
        };
        let mut blocked_shoppers = HashSet::new();
        for t in &log.tries {
            if let Some(b) = rule_of(t) {
                let prefix = if t.own_card { "" } else { "mistype " };
                *summary
                    .rules
                    .entry(format!("{prefix}{}", b.rule))
                    .or_default() += 1;
                if t.own_card {
                    blocked_shoppers.insert(t.shopper);
                } else {
                    summary.mistyped_blocked += 1;
                }
            }
            if !t.own_card {
                summary.mistyped += 1;
            } else if t.outcome == "captured" {
                summary.paid += 1;
            } else {
                *summary.unpaid.entry(t.outcome.clone()).or_default() += 1;
            }
        }
        summary.blocked_shoppers = blocked_shoppers.len();
        summary
    }
}
