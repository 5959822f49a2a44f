//! Whom the proof of work is for (issue 47, items 2 and 4): traffic that looks new, not a
//! shopper the shop already knows.
//!
//! During a card-testing alert (`RISK_PROOF_OF_WORK=alert`) a saved card (the shop's backend
//! named its customer, and the card paid once to be saved) and a typed card that has paid from
//! the same address before are never asked for a proof; every other pay call is. With
//! `always` every call is asked, with `off` none.
//!
//! Two rules count what a stranger can aim at a victim: `cards_per_email` counts an e-mail a
//! guest types unverified, `declines_per_card` the declines of a card number an attacker may
//! hold. Without the shop's own customer id on the checkout they are soft ([`is_soft`]): a
//! try that breaks only them is asked for a proof of work and then goes on, where a bot must
//! solve a puzzle for every card; with a customer id (the shop vouches for its customer) they
//! refuse as the other rules do.

use std::net::IpAddr;

use checkout::contract::{ProofChallenge, ProofOfWork};
use time::OffsetDateTime;

use super::{CardFingerprint, RiskService, Rule, address};
use crate::config::ProofOfWork as ProofOfWorkMode;
use crate::store::model::Payment;

/// Whether `rule` only asks `payment`'s try for a proof of work instead of refusing it: the
/// e-mail and per-card decline rules, on a checkout without the shop's customer id.
pub fn is_soft(rule: Rule, payment: &Payment) -> bool {
    payment.customer_id.is_none() && matches!(rule, Rule::CardsPerEmail | Rule::DeclinesPerCard)
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
    /// Whether a pay call with `card` from `client` must bring a proof of work now: while an
    /// alert is open, unless the card is saved or has paid from `client`'s address before (a
    /// count that cannot be read asks, logged); always or never as configured otherwise.
    pub async fn asks_proof_of(&self, card: &ProofCard, client: IpAddr) -> bool {
        match self.configured.alert.proof_of_work {
            ProofOfWorkMode::Off => false,
            ProofOfWorkMode::Always => true,
            ProofOfWorkMode::Alert if !self.alert_open() => false,
            ProofOfWorkMode::Alert => match card {
                ProofCard::Saved(_) => false,
                ProofCard::Typed(fingerprint) => {
                    let key = address::stored_address_key(client);
                    match self.store.card_paid_from(&key, fingerprint.as_str()).await {
                        Ok(paid) => !paid,
                        Err(error) => {
                            tracing::warn!(%error, "cannot read whether the card paid from this address; a proof of work is asked");
                            true
                        }
                    }
                }
            },
        }
    }

    /// [`require_proof`](Self::require_proof) for a pay call of `session_id` with `card` from
    /// `client`, when [`asks_proof_of`](Self::asks_proof_of) says it is asked.
    pub async fn require_proof_of(
        &self,
        session_id: &str,
        card: &ProofCard,
        proof: Option<&ProofOfWork>,
        client: IpAddr,
        now: OffsetDateTime,
    ) -> Result<(), Box<ProofChallenge>> {
        if !self.asks_proof_of(card, client).await {
            return Ok(());
        }
        self.require_proof(session_id, &card.subject(), proof, now)
    }
}
