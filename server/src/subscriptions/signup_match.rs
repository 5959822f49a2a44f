//! Which subscription of the gateway's list a sign-up whose answer was lost made, if any: a
//! pure decision over the list's unknown subscriptions (docs/operations.md, "Subscriptions the
//! shop did not see", says the same in words).
//!
//! 1. Candidates: subscriptions the store lacks, on the sign-up's plan (every term), created
//!    within the sign-up's window: from [`CLOCK_SKEW`] before its call to the call's time
//!    limit and [`CLOCK_SKEW`] after (a subscription whose start the list does not show is
//!    kept).
//! 2. A candidate with a first charge is the sign-up's only if that charge's status lookup
//!    names the sign-up's reference and currency ([`Evidence::Ours`]); one naming another is
//!    dropped; one whose lookup failed makes the decision wait.
//! 3. Exactly one proven candidate: that one. More: ambiguous (a person decides).
//! 4. None proven: one candidate without any charge yet (a trial not over: the list cannot
//!    prove whose it is) is the sign-up's only if no other open sign-up to the plan could have
//!    made it; otherwise, or with several, ambiguous.
//! 5. No candidate at all: the gateway made no subscription for this sign-up.

use std::collections::HashMap;

use time::OffsetDateTime;

use super::listed::ListedSubscription;

/// How far the gateway's clock and this server's may differ (the window around a sign-up's
/// call in which its subscription may have been created).
pub const CLOCK_SKEW: time::Duration = time::Duration::minutes(10);

/// What a status lookup of a candidate's first charge said.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Evidence {
    /// The charge names the sign-up's reference and currency.
    Ours,
    /// It names another reference (or currency), or the gateway does not know it.
    NotOurs,
    /// The lookup failed: ask again later.
    Unknown,
}

/// The decision for one sign-up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The sign-up made this subscription (its gateway id); `proven` when its first charge
    /// names the sign-up's reference.
    Made {
        /// The gateway's id.
        gateway_id: String,
        /// Whether a charge proves it (otherwise it is the only one it can be).
        proven: bool,
    },
    /// More than one subscription could be the sign-up's: their gateway ids.
    Ambiguous(Vec<String>),
    /// No subscription in the list can be the sign-up's.
    Absent,
    /// A lookup failed: decide on a later pass.
    Wait,
}

/// The sign-up's side of the decision.
#[derive(Debug, Clone, Copy)]
pub struct SignupWindow {
    /// When its gateway call started.
    pub called_at: OffsetDateTime,
    /// The call's time limit (the gateway may have created the subscription until then).
    pub call_limit: time::Duration,
}

impl SignupWindow {
    /// Whether a subscription started at `started_at` may be this sign-up's.
    pub fn contains(&self, started_at: Option<OffsetDateTime>) -> bool {
        let Some(at) = started_at else {
            return true;
        };
        let from = self.called_at.saturating_sub(CLOCK_SKEW);
        let until = self
            .called_at
            .saturating_add(self.call_limit)
            .saturating_add(CLOCK_SKEW);
        (from..=until).contains(&at)
    }

    /// Whether a subscription could fall in both windows (two sign-ups could each have made
    /// it).
    pub fn overlaps(&self, other: &SignupWindow) -> bool {
        let start = |w: &SignupWindow| w.called_at.saturating_sub(CLOCK_SKEW);
        let end = |w: &SignupWindow| {
            w.called_at
                .saturating_add(w.call_limit)
                .saturating_add(CLOCK_SKEW)
        };
        start(self) <= end(other) && start(other) <= end(self)
    }
}

/// Decides among `candidates` (the list's unknown subscriptions on the sign-up's plan, inside
/// its window) with the `evidence` of their first charges' lookups (by transaction id);
/// `rivals` says whether another open sign-up to the plan could have made one of them.
pub fn decide(
    candidates: &[&ListedSubscription],
    evidence: &HashMap<String, Evidence>,
    rivals: bool,
) -> Verdict {
    let mut proven = Vec::new();
    let mut chargeless = Vec::new();
    for candidate in candidates {
        match &candidate.first_charge {
            None => chargeless.push(candidate.gateway_id.clone()),
            Some(charge) => match evidence.get(&charge.transaction_id) {
                Some(Evidence::Ours) => proven.push(candidate.gateway_id.clone()),
                Some(Evidence::NotOurs) => {}
                Some(Evidence::Unknown) | None => return Verdict::Wait,
            },
        }
    }
    match (proven.len(), chargeless.len()) {
        (1, _) => Verdict::Made {
            gateway_id: proven.remove(0),
            proven: true,
        },
        (0, 0) => Verdict::Absent,
        (0, 1) if !rivals => Verdict::Made {
            gateway_id: chargeless.remove(0),
            proven: false,
        },
        (0, _) => Verdict::Ambiguous(chargeless),
        _ => Verdict::Ambiguous(proven),
    }
}

#[cfg(test)]
mod tests {
    use checkout::contract::{CycleUnit, PlanTerms};

    use super::*;
    use crate::subscriptions::listed::FirstCharge;

    fn listed(id: &str, charge: Option<&str>) -> ListedSubscription {
        ListedSubscription {
            gateway_id: id.into(),
            terms: PlanTerms {
                id: String::new(),
                name: "Pro".into(),
                description: String::new(),
                amount: 980,
                currency: "EUR".into(),
                cycle_unit: CycleUnit::Months,
                cycle_interval: 1,
                trial_days: None,
                discount: None,
                max_cycles: 12,
            },
            started_at: None,
            first_charge: charge.map(|id| FirstCharge {
                transaction_id: id.into(),
                successful: true,
            }),
        }
    }

    #[test]
    fn a_charge_naming_the_reference_proves_the_subscription() {
        let (ours, theirs) = (listed("a", Some("t-a")), listed("b", Some("t-b")));
        let evidence = HashMap::from([
            ("t-a".to_owned(), Evidence::Ours),
            ("t-b".to_owned(), Evidence::NotOurs),
        ]);
        assert_eq!(
            decide(&[&ours, &theirs], &evidence, true),
            Verdict::Made {
                gateway_id: "a".into(),
                proven: true
            }
        );
        let twice = HashMap::from([
            ("t-a".to_owned(), Evidence::Ours),
            ("t-b".to_owned(), Evidence::Ours),
        ]);
        assert_eq!(
            decide(&[&ours, &theirs], &twice, false),
            Verdict::Ambiguous(vec!["a".into(), "b".into()])
        );
        let failed = HashMap::from([("t-a".to_owned(), Evidence::Unknown)]);
        assert_eq!(decide(&[&ours], &failed, false), Verdict::Wait);
        let none_ours = HashMap::from([("t-b".to_owned(), Evidence::NotOurs)]);
        assert_eq!(decide(&[&theirs], &none_ours, false), Verdict::Absent);
        assert_eq!(decide(&[], &HashMap::new(), false), Verdict::Absent);
    }

    #[test]
    fn a_trial_not_over_is_taken_only_when_nothing_else_could_have_made_it() {
        let trial = listed("t", None);
        assert_eq!(
            decide(&[&trial], &HashMap::new(), false),
            Verdict::Made {
                gateway_id: "t".into(),
                proven: false
            }
        );
        assert_eq!(
            decide(&[&trial], &HashMap::new(), true),
            Verdict::Ambiguous(vec!["t".into()])
        );
        let other = listed("u", None);
        assert_eq!(
            decide(&[&trial, &other], &HashMap::new(), false),
            Verdict::Ambiguous(vec!["t".into(), "u".into()])
        );
    }

    #[test]
    fn the_window_allows_for_the_call_and_the_clocks() {
        let called_at = OffsetDateTime::UNIX_EPOCH + time::Duration::days(20_000);
        let window = SignupWindow {
            called_at,
            call_limit: time::Duration::seconds(30),
        };
        assert!(window.contains(None));
        assert!(window.contains(Some(called_at - time::Duration::minutes(9))));
        assert!(window.contains(Some(called_at + time::Duration::minutes(10))));
        assert!(!window.contains(Some(called_at - time::Duration::minutes(11))));
        assert!(!window.contains(Some(called_at + time::Duration::minutes(11))));
        let later = |minutes| SignupWindow {
            called_at: called_at + time::Duration::minutes(minutes),
            ..window
        };
        assert!(
            window.overlaps(&later(20)),
            "20 minutes apart: both windows reach 10:15"
        );
        assert!(!window.overlaps(&later(21)));
        assert!(later(-20).overlaps(&window));
    }
}
