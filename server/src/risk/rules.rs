//! The rules: the block lists (one rule a list kind, judged first: an entry matching the try,
//! read with the counts) and the velocity rules (which count each one reads, its threshold),
//! and the order they are judged in. A rule answers from counts the store read in one statement
//! (`store::risk::RiskCounts`), so judging is pure and needs no I/O.
//!
//! Card counts include the try being judged (its card counts once, and only if it is new), so
//! a card rule fires when the count goes *above* its threshold: `RISK_MAX_CARDS_PER_SESSION =
//! 4` lets a session try four cards and blocks the fifth new one, while any of the four may
//! be tried again. Decline counts are of earlier tries, so a decline rule fires once the count
//! *reaches* its threshold: after four declines of a card, its next try is blocked.

use std::time::Duration;

use crate::config::RiskSettings;
use crate::store::model::BlockKind;
use crate::store::risk::RiskCounts;

/// A card-testing rule; its [`name`](Rule::name) is what a blocked payment records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// The card (its fingerprint) is on the block list.
    BlocklistCard,
    /// The card's first six digits are on the block list.
    BlocklistBin,
    /// The client's address is in a blocked range.
    BlocklistAddress,
    /// The session's e-mail is on the block list.
    BlocklistEmail,
    /// The domain of the session's e-mail is on the block list.
    BlocklistEmailDomain,
    /// The session's customer is on the block list.
    BlocklistCustomer,
    /// Too many declines in one checkout session.
    DeclinesPerSession,
    /// Too many distinct cards in one checkout session.
    CardsPerSession,
    /// Too many declines of one card in its window.
    DeclinesPerCard,
    /// Too many distinct cards from one address (IPv4, or IPv6 /64) in its window.
    CardsPerAddress,
    /// Too many distinct cards of one customer id in its window.
    CardsPerCustomer,
    /// Too many distinct cards with one e-mail in its window.
    CardsPerEmail,
}

impl Rule {
    /// Every rule, in the order they are judged.
    pub const ALL: [Rule; 12] = [
        Rule::BlocklistCard,
        Rule::BlocklistBin,
        Rule::BlocklistAddress,
        Rule::BlocklistEmail,
        Rule::BlocklistEmailDomain,
        Rule::BlocklistCustomer,
        Rule::DeclinesPerSession,
        Rule::CardsPerSession,
        Rule::DeclinesPerCard,
        Rule::CardsPerAddress,
        Rule::CardsPerCustomer,
        Rule::CardsPerEmail,
    ];

    /// The stored name (`risk_rule`), also shown to the merchant.
    pub fn name(self) -> &'static str {
        match self {
            Rule::BlocklistCard => "blocklist_card",
            Rule::BlocklistBin => "blocklist_bin",
            Rule::BlocklistAddress => "blocklist_address",
            Rule::BlocklistEmail => "blocklist_email",
            Rule::BlocklistEmailDomain => "blocklist_email_domain",
            Rule::BlocklistCustomer => "blocklist_customer",
            Rule::DeclinesPerSession => "declines_per_session",
            Rule::CardsPerSession => "cards_per_session",
            Rule::DeclinesPerCard => "declines_per_card",
            Rule::CardsPerAddress => "cards_per_address",
            Rule::CardsPerCustomer => "cards_per_customer",
            Rule::CardsPerEmail => "cards_per_email",
        }
    }

    /// Whether the rule applies to a try with a saved card: the block lists and the decline
    /// rules do (the card is the customer's own, already charged once; it adds no new card to
    /// any count).
    pub fn judges_saved_cards(self) -> bool {
        self.block_kind().is_some() || self.counts_declines()
    }

    /// The block list this rule reads, if it is one.
    pub fn block_kind(self) -> Option<BlockKind> {
        BlockKind::ALL
            .into_iter()
            .find(|kind| Rule::for_block(*kind) == self)
    }

    /// The rule a try matching an entry of `kind` is blocked by.
    pub fn for_block(kind: BlockKind) -> Rule {
        match kind {
            BlockKind::Card => Rule::BlocklistCard,
            BlockKind::Bin => Rule::BlocklistBin,
            BlockKind::Address => Rule::BlocklistAddress,
            BlockKind::Email => Rule::BlocklistEmail,
            BlockKind::EmailDomain => Rule::BlocklistEmailDomain,
            BlockKind::Customer => Rule::BlocklistCustomer,
        }
    }

    /// The velocity rules (those with a threshold), in the order they are judged.
    pub fn velocity() -> impl Iterator<Item = Rule> {
        Rule::ALL
            .into_iter()
            .filter(|rule| rule.block_kind().is_none())
    }

    /// The rule of a stored [`name`](Rule::name).
    pub fn from_name(name: &str) -> Option<Rule> {
        Rule::ALL.into_iter().find(|rule| rule.name() == name)
    }

    /// What the rule counts or matches, in the merchant's words.
    pub fn meaning(self) -> &'static str {
        match self {
            Rule::BlocklistCard => "the card is on the block list",
            Rule::BlocklistBin => "the card's first six digits are on the block list",
            Rule::BlocklistAddress => "the shopper's address is in a blocked range",
            Rule::BlocklistEmail => "the e-mail is on the block list",
            Rule::BlocklistEmailDomain => "the e-mail's domain is on the block list",
            Rule::BlocklistCustomer => "the customer id is on the block list",
            Rule::DeclinesPerSession => "declines in one checkout session",
            Rule::CardsPerSession => "distinct cards tried in one checkout session",
            Rule::DeclinesPerCard => "declines of one card",
            Rule::CardsPerAddress => "distinct cards from one address (IPv4, or IPv6 /64)",
            Rule::CardsPerCustomer => "distinct cards of one customer id",
            Rule::CardsPerEmail => "distinct cards with one e-mail",
        }
    }

    /// A velocity rule's threshold under `limits` and the window counted over (`None`: the
    /// session's whole life); `None` for a block list, which has no threshold.
    pub fn limit(self, limits: &RiskSettings) -> Option<(u32, Option<Duration>)> {
        Some(match self {
            Rule::BlocklistCard
            | Rule::BlocklistBin
            | Rule::BlocklistAddress
            | Rule::BlocklistEmail
            | Rule::BlocklistEmailDomain
            | Rule::BlocklistCustomer => return None,
            Rule::DeclinesPerSession => (limits.max_declines_per_session, None),
            Rule::CardsPerSession => (limits.max_cards_per_session, None),
            Rule::DeclinesPerCard => (
                limits.max_declines_per_card,
                Some(limits.card_declines_window),
            ),
            Rule::CardsPerAddress => (limits.max_cards_per_address, Some(limits.address_window)),
            Rule::CardsPerCustomer => (limits.max_cards_per_customer, Some(limits.customer_window)),
            Rule::CardsPerEmail => (limits.max_cards_per_email, Some(limits.email_window)),
        })
    }

    /// Sets a velocity rule's threshold in `limits` to `max`; a block list has none (nothing
    /// changes).
    pub fn set_limit(self, limits: &mut RiskSettings, max: u32) {
        let slot = match self {
            Rule::BlocklistCard
            | Rule::BlocklistBin
            | Rule::BlocklistAddress
            | Rule::BlocklistEmail
            | Rule::BlocklistEmailDomain
            | Rule::BlocklistCustomer => return,
            Rule::DeclinesPerSession => &mut limits.max_declines_per_session,
            Rule::CardsPerSession => &mut limits.max_cards_per_session,
            Rule::DeclinesPerCard => &mut limits.max_declines_per_card,
            Rule::CardsPerAddress => &mut limits.max_cards_per_address,
            Rule::CardsPerCustomer => &mut limits.max_cards_per_customer,
            Rule::CardsPerEmail => &mut limits.max_cards_per_email,
        };
        *slot = max;
    }

    /// Whether the rule counts declines (it fires once the count *reaches* its threshold)
    /// rather than cards (it fires when the count goes *above* it).
    pub fn counts_declines(self) -> bool {
        matches!(self, Rule::DeclinesPerSession | Rule::DeclinesPerCard)
    }

    /// The count a velocity rule reads (0 for a block list).
    fn count(self, counts: &RiskCounts) -> u64 {
        match self {
            Rule::DeclinesPerSession => counts.session_declines,
            Rule::CardsPerSession => counts.session_cards,
            Rule::DeclinesPerCard => counts.card_declines,
            Rule::CardsPerAddress => counts.client_cards,
            Rule::CardsPerCustomer => counts.customer_cards,
            Rule::CardsPerEmail => counts.email_cards,
            _ => 0,
        }
    }

    /// Whether `counts` break this rule under `limits`: a block list when its entry matched,
    /// a velocity rule by its count and threshold.
    fn is_broken(self, counts: &RiskCounts, limits: &RiskSettings) -> bool {
        if let Some(kind) = self.block_kind() {
            return counts.blocked == Some(kind);
        }
        let Some((max, _)) = self.limit(limits) else {
            return false;
        };
        let count = self.count(counts);
        if self.counts_declines() {
            count >= u64::from(max)
        } else {
            count > u64::from(max)
        }
    }
}

/// What kind of try is judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TryKind {
    /// A card typed now: every rule.
    TypedCard,
    /// A saved card: the block lists and the decline rules only ([`Rule::judges_saved_cards`]).
    SavedCard,
}

/// The first rule (in [`Rule::ALL`]'s order) that `counts` break, if any.
pub fn first_broken(counts: &RiskCounts, limits: &RiskSettings, kind: TryKind) -> Option<Rule> {
    first_broken_of(counts, limits, kind, |_| true)
}

/// The first rule among those `among` picks that `counts` break, if any.
pub fn first_broken_of(
    counts: &RiskCounts,
    limits: &RiskSettings,
    kind: TryKind,
    among: impl Fn(Rule) -> bool,
) -> Option<Rule> {
    Rule::ALL
        .into_iter()
        .filter(|rule| (kind == TryKind::TypedCard || rule.judges_saved_cards()) && among(*rule))
        .find(|rule| rule.is_broken(counts, limits))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> RiskSettings {
        RiskSettings::default()
    }

    #[test]
    fn card_rules_fire_above_their_threshold_decline_rules_at_it() {
        let at = |counts: RiskCounts| first_broken(&counts, &limits(), TryKind::TypedCard);
        let ordinary = RiskCounts {
            session_cards: 2,
            session_declines: 2,
            card_declines: 1,
            client_cards: 2,
            customer_cards: 2,
            email_cards: 2,
            blocked: None,
        };
        assert_eq!(at(ordinary), None, "a shopper who mistyped twice");
        let cases = [
            (
                Rule::CardsPerSession,
                RiskCounts {
                    session_cards: 5,
                    ..ordinary
                },
            ),
            (
                Rule::DeclinesPerSession,
                RiskCounts {
                    session_declines: 6,
                    ..ordinary
                },
            ),
            (
                Rule::DeclinesPerCard,
                RiskCounts {
                    card_declines: 4,
                    ..ordinary
                },
            ),
            (
                Rule::CardsPerAddress,
                RiskCounts {
                    client_cards: 6,
                    ..ordinary
                },
            ),
            (
                Rule::CardsPerCustomer,
                RiskCounts {
                    customer_cards: 6,
                    ..ordinary
                },
            ),
            (
                Rule::CardsPerEmail,
                RiskCounts {
                    email_cards: 6,
                    ..ordinary
                },
            ),
        ];
        for (rule, counts) in cases {
            assert_eq!(at(counts), Some(rule), "{rule:?}");
        }
        let just_below = [
            RiskCounts {
                session_cards: 4,
                ..ordinary
            },
            RiskCounts {
                session_declines: 5,
                ..ordinary
            },
            RiskCounts {
                card_declines: 3,
                ..ordinary
            },
            RiskCounts {
                client_cards: 5,
                ..ordinary
            },
            RiskCounts {
                customer_cards: 5,
                ..ordinary
            },
            RiskCounts {
                email_cards: 5,
                ..ordinary
            },
        ];
        for counts in just_below {
            assert_eq!(at(counts), None, "{counts:?}");
        }
    }

    #[test]
    fn saved_cards_are_judged_by_the_block_lists_and_decline_rules_only() {
        let many_cards = RiskCounts {
            session_cards: 50,
            client_cards: 50,
            customer_cards: 50,
            email_cards: 50,
            ..RiskCounts::default()
        };
        assert_eq!(
            first_broken(&many_cards, &limits(), TryKind::SavedCard),
            None
        );
        let declined = RiskCounts {
            card_declines: 4,
            ..many_cards
        };
        assert_eq!(
            first_broken(&declined, &limits(), TryKind::SavedCard),
            Some(Rule::DeclinesPerCard)
        );
    }

    #[test]
    fn a_block_list_entry_wins_over_every_count_for_both_kinds_of_try() {
        let counts = RiskCounts {
            card_declines: 40,
            blocked: Some(BlockKind::EmailDomain),
            ..RiskCounts::default()
        };
        for kind in [TryKind::TypedCard, TryKind::SavedCard] {
            assert_eq!(
                first_broken(&counts, &limits(), kind),
                Some(Rule::BlocklistEmailDomain)
            );
        }
        for kind in BlockKind::ALL {
            assert_eq!(Rule::for_block(kind).block_kind(), Some(kind));
        }
    }

    #[test]
    fn names_are_distinct_snake_case_and_read_back() {
        for rule in Rule::ALL {
            assert_eq!(Rule::from_name(rule.name()), Some(rule));
        }
        assert_eq!(Rule::from_name("cards"), None);
        let names: std::collections::BTreeSet<_> = Rule::ALL.iter().map(|r| r.name()).collect();
        assert_eq!(names.len(), Rule::ALL.len());
        assert!(
            names
                .iter()
                .all(|n| n.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'))
        );
    }
}
