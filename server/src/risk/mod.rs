//! The card-testing defence, a service beside `payments/`: it fingerprints cards, counts what
//! a try's session, card, address, customer and e-mail did before, and answers
//! [`Verdict::Allow`] or [`Verdict::Block`] with the rule that fired. `payments/` asks it
//! before every gateway call; it never imports `api/` or `dashboard/`.
//!
//! Files: [`fingerprint`] (the keyed card fingerprint), [`address`] (an address's key),
//! [`rules`] (the block-list and velocity rules and their order), [`blocks`] (block-list
//! entries: kinds and normalised values), [`block_list`] (adding, listing and removing them).
//! The counts, the matching entry and the step to `blocked` are the store's (`store::risk`),
//! the entries' keeping too (`store::blocks`).

pub mod address;
pub mod block_list;
pub mod blocks;
pub mod fingerprint;
pub mod rules;

use std::net::IpAddr;
use std::sync::Arc;

use checkout::card::CardNumber;
use time::OffsetDateTime;

pub use fingerprint::{CardFingerprint, Fingerprinter};
pub use rules::{Rule, TryKind};

use crate::config::{CardFingerprintKey, RiskSettings};
use crate::store::Store;
use crate::store::error::StoreResult;
use crate::store::model::{Payment, RiskFacts, Session};
use crate::store::risk::{BlockProbe, RiskCountQuery};

/// The answer for one try.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Send it to the gateway.
    Allow,
    /// Refuse it before the gateway: `Rule` fired.
    Block(Rule),
}

/// The card-testing service. Cloning is one `Arc` increment.
#[derive(Clone)]
pub struct RiskService {
    store: Arc<dyn Store>,
    fingerprinter: Fingerprinter,
    settings: RiskSettings,
}

impl std::fmt::Debug for RiskService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RiskService")
            .field("settings", &self.settings)
            .finish_non_exhaustive()
    }
}

impl RiskService {
    /// The service over `store`, fingerprinting under `key`, with `settings`' thresholds.
    pub fn new(store: Arc<dyn Store>, key: CardFingerprintKey, settings: RiskSettings) -> Self {
        Self {
            store,
            fingerprinter: Fingerprinter::new(key),
            settings,
        }
    }

    /// The thresholds and windows in force.
    pub fn settings(&self) -> &RiskSettings {
        &self.settings
    }

    /// The keyed fingerprint of `number`.
    pub fn fingerprint(&self, number: &CardNumber) -> CardFingerprint {
        self.fingerprinter.of(number)
    }

    /// What a payment of `session` by a shopper at `client` records for the rules; `card` is
    /// the fingerprint of the card used, when one is known.
    pub fn facts(
        &self,
        session: &Session,
        card: Option<CardFingerprint>,
        client: IpAddr,
    ) -> RiskFacts {
        RiskFacts {
            card_fingerprint: card.map(CardFingerprint::into_string),
            client_key: Some(address::stored_address_key(client)),
            shopper_email: session
                .email
                .as_deref()
                .map(str::trim)
                .filter(|email| !email.is_empty())
                .map(str::to_lowercase),
        }
    }

    /// Judges `payment`, just recorded `pending` with `facts` by a shopper at `client`, by the
    /// block lists, then every velocity rule that applies to `kind`; the matching entry and the
    /// counts are one statement.
    pub async fn check(
        &self,
        payment: &Payment,
        facts: &RiskFacts,
        kind: TryKind,
        client: IpAddr,
    ) -> StoreResult<Verdict> {
        let counts = self
            .store
            .risk_counts(&self.query(payment, facts, kind, client))
            .await?;
        Ok(rules::first_broken(&counts, &self.settings, kind)
            .map_or(Verdict::Allow, Verdict::Block))
    }

    /// Records `payment_id` (still `pending`) as blocked by `rule`; `None` when it was no
    /// longer pending.
    pub async fn block(&self, payment_id: &str, rule: Rule) -> StoreResult<Option<Payment>> {
        self.store
            .block_payment(payment_id, rule.name(), OffsetDateTime::now_utc())
            .await
    }

    /// The counts `kind` needs: a saved card's try leaves out address, customer and e-mail
    /// (no velocity rule of it reads them), so those subqueries find nothing at once; the block
    /// lists see every try whole.
    fn query(
        &self,
        payment: &Payment,
        facts: &RiskFacts,
        kind: TryKind,
        client: IpAddr,
    ) -> RiskCountQuery {
        let now = OffsetDateTime::now_utc();
        let since = |window: std::time::Duration| {
            now.saturating_sub(time::Duration::try_from(window).unwrap_or(time::Duration::ZERO))
        };
        let typed = kind == TryKind::TypedCard;
        let s = &self.settings;
        RiskCountQuery {
            session_id: payment.session_id.clone(),
            card_fingerprint: facts.card_fingerprint.clone(),
            client_key: facts.client_key.clone().filter(|_| typed),
            customer_id: payment.customer_id.clone().filter(|_| typed),
            shopper_email: facts.shopper_email.clone().filter(|_| typed),
            client_since: since(s.address_window),
            customer_since: since(s.customer_window),
            email_since: since(s.email_window),
            card_declines_since: since(s.card_declines_window),
            blocks: BlockProbe {
                bin: payment
                    .card
                    .as_ref()
                    .and_then(|card| card.bin.as_ref())
                    .map(|bin| bin.as_str().to_owned()),
                address: Some(address::hex(client)),
                email: facts.shopper_email.clone(),
                email_domain: facts
                    .shopper_email
                    .as_deref()
                    .and_then(blocks::email_domain)
                    .map(str::to_owned),
                customer_id: payment.customer_id.clone(),
            },
        }
    }
}
