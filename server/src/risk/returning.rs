//! Whom the proof of work is for (issue 47, items 2 and 4): traffic that looks new, not a
//! shopper the shop already knows.
//!
//! During a card-testing alert (`RISK_PROOF_OF_WORK=alert`) these pay calls are never asked
//! for a proof of work:
//! - a saved card (the shop's backend named its customer, and the card paid once to be saved);
//! - a returning customer: the checkout's customer id (set by the shop's backend) has paid
//!   before;
//! - a checkout that already passed: it has a try the gateway answered (declined, failed or
//!   paid), such as a shopper's second card after a decline. A try still waiting at the bank's
//!   3-D Secure page, or replaced while it waited there, is no answer: a card tester takes
//!   that page as proof a number is live and moves on to the next in the same checkout, so
//!   its checkouts opened before the alert are asked too once it is open;
//! - a typed card that has paid from the same address (IPv4, or IPv6 /64) before.
//!
//! Every other pay call is asked: a new checkout with a card never seen paying from its
//! address. With `always` every call is asked, with `off` none.
//!
//! Two rules count what a stranger can aim at a victim: `cards_per_email` counts an e-mail a
//! guest types unverified, `declines_per_card` the declines of a card number an attacker may
//! hold. Without the shop's own customer id on the checkout they are soft ([`is_soft`]): a
//! try that breaks only them is asked for a proof of work and then goes on, where a bot must
//! solve a puzzle for every card; with a customer id (the shop vouches for its customer) they
//! refuse as the other rules do. `cards_per_address` is always soft: a carrier's NAT, an
//! office or a family's router puts many shoppers' cards behind one address, and a card
//! tester's among theirs cannot be told from them by the address; the address's hard cap is
//! its failed pay calls (`web::protect::failure_budget`), what only a bot piles up.

use std::net::IpAddr;

use checkout::contract::{ProofChallenge, ProofOfWork};
use time::OffsetDateTime;

use super::{CardFingerprint, RiskService, Rule, address};
use crate::config::ProofOfWork as ProofOfWorkMode;
use crate::store::model::{Payment, Session};
use crate::store::risk::KnownShopperQuery;

/// Whether `rule` only asks `payment`'s try for a proof of work instead of refusing it: the
/// address's cards always, the e-mail and per-card decline rules on a checkout without the
/// shop's customer id.
pub fn is_soft(rule: Rule, payment: &Payment) -> bool {
    rule == Rule::CardsPerAddress
        || (payment.customer_id.is_none()
            && matches!(rule, Rule::CardsPerEmail | Rule::DeclinesPerCard))
}

/// The card a pay call pays with, as the proof of work looks at it.
#[derive(Debug, Clone)]
pub enum ProofCard {
    /// A card saved for the session's customer, by its id.
    Saved(String),
    /// A typed card, by its fingerprint.
    Typed(CardFingerprint),
}

impl ProofCard {
    /// What a challenge is handed out for: the fingerprint, or `saved:` and the card's id.
    fn subject(&self) -> String {
        match self {
            Self::Saved(id) => format!("saved:{id}"),
            Self::Typed(fingerprint) => fingerprint.as_str().to_owned(),
        }
    }
}

impl RiskService {
    /// Whether a pay call of `session` with `card` from `client` must bring a proof of work
    /// now: while an alert is open, unless it is a known shopper's (see the module's header;
    /// a store that cannot be read asks, logged); always or never as configured otherwise.
    pub async fn asks_proof_of(&self, session: &Session, card: &ProofCard, client: IpAddr) -> bool {
        match self.configured.alert.proof_of_work {
            ProofOfWorkMode::Off => false,
            ProofOfWorkMode::Always => true,
            ProofOfWorkMode::Alert if !self.alert_open() => false,
            ProofOfWorkMode::Alert => match card {
                ProofCard::Saved(_) => false,
                ProofCard::Typed(fingerprint) => {
                    let shopper = KnownShopperQuery {
                        session_id: session.id.clone(),
                        customer_id: session.customer_id.clone(),
                        client_key: address::stored_address_key(client),
                        card_fingerprint: fingerprint.as_str().to_owned(),
                    };
                    match self.store.known_shopper(&shopper).await {
                        Ok(known) => !known,
                        Err(error) => {
                            tracing::warn!(%error, "cannot read whether the shopper is known; a proof of work is asked");
                            true
                        }
                    }
                }
            },
        }
    }

    /// [`require_proof`](Self::require_proof) for a pay call of `session` with `card` from
    /// `client`, when [`asks_proof_of`](Self::asks_proof_of) says it is asked.
    pub async fn require_proof_of(
        &self,
        session: &Session,
        card: &ProofCard,
        proof: Option<&ProofOfWork>,
        client: IpAddr,
        now: OffsetDateTime,
    ) -> Result<(), Box<ProofChallenge>> {
        if !self.asks_proof_of(session, card, client).await {
            return Ok(());
        }
        self.require_proof(&session.id, &card.subject(), proof, now)
    }
}
