//! The card-testing defence, a service beside `payments/`: it fingerprints cards, counts what
//! a try's session, card, address, customer and e-mail did before, and answers
//! [`Verdict::Allow`] or [`Verdict::Block`] with the rule that fired. `payments/` asks it
//! before every gateway call; it never imports `api/` or `dashboard/`.
//!
//! Files: [`fingerprint`] (the keyed card fingerprint), [`address`] (an address's key),
//! [`rules`] (the block-list and velocity rules and their order), [`blocks`] (block-list
//! entries: kinds and normalised values), [`block_list`] (adding, listing and removing them),
//! [`attack`] (when the store's tries look like card testing, and the tightened thresholds
//! then), [`alert`] (the alert as an instance follows it), [`proof`] (the proof of work a pay
//! call needs while the alert is open), [`overrides`] (thresholds an admin set in the
//! dashboard). The counts, the matching entry and the step to `blocked` are the
//! store's (`store::risk`), the entries' keeping too (`store::blocks`), the alert's tally and
//! rows too (`store::card_testing`).

pub mod address;
pub mod alert;
pub mod attack;
pub mod block_list;
pub mod blocks;
pub mod fingerprint;
pub mod overrides;
pub mod proof;
pub mod returning;
pub mod rules;

use std::net::IpAddr;
use std::sync::{Arc, PoisonError, RwLock};

use checkout::card::CardNumber;
use checkout::contract::{ProofChallenge, ProofOfWork};
use time::OffsetDateTime;

pub use alert::{AlertReview, AlertWatch};
pub use fingerprint::{CardFingerprint, Fingerprinter};
pub use rules::{Rule, TryKind};

use crate::config::ProofOfWork as ProofOfWorkMode;
use crate::config::{CardFingerprintKey, RiskSettings};
use crate::store::Store;
use crate::store::error::StoreResult;
use crate::store::model::{CardSummary, NewPayment, Payment, RiskFacts, Session};
use crate::store::risk::{BlockProbe, RiskCountQuery, RiskCounts};
use crate::store::risk_overrides::RiskOverride;

/// The answer for one try.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Send it to the gateway.
    Allow,
    /// Refuse it before the gateway: `Rule` fired.
    Block(Rule),
    /// Only a soft rule fired (`risk::returning`), or during an alert only a tightened
    /// threshold: the try goes on with a proof of work.
    Challenge(Rule),
}

/// The card-testing service. Cloning is one `Arc` increment.
#[derive(Clone)]
pub struct RiskService {
    store: Arc<dyn Store>,
    fingerprinter: Fingerprinter,
    /// The configuration file's thresholds and windows.
    configured: RiskSettings,
    /// What applies now: the configured thresholds with the dashboard's overrides.
    limits: Arc<RwLock<Limits>>,
    watch: Arc<AlertWatch>,
    proof: proof::ProofKey,
}

/// The thresholds in force, ordinarily and while a card-testing alert is open.
#[derive(Clone, Copy, Debug)]
struct Limits {
    ordinary: RiskSettings,
    /// [`attack::tightened`] of `ordinary`.
    tightened: RiskSettings,
}

impl Limits {
    fn of(ordinary: RiskSettings) -> Self {
        Self {
            ordinary,
            tightened: attack::tightened(&ordinary),
        }
    }
}

impl std::fmt::Debug for RiskService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RiskService")
            .field("configured", &self.configured)
            .finish_non_exhaustive()
    }
}

impl RiskService {
    /// The service over `store`, fingerprinting under `key`, with `settings`' thresholds
    /// (until [`refresh_overrides`](Self::refresh_overrides) reads the dashboard's).
    pub fn new(store: Arc<dyn Store>, key: CardFingerprintKey, settings: RiskSettings) -> Self {
        Self {
            store,
            proof: proof::ProofKey::derive(&key),
            fingerprinter: Fingerprinter::new(key),
            configured: settings,
            limits: Arc::new(RwLock::new(Limits::of(settings))),
            watch: Arc::default(),
        }
    }

    fn limits(&self) -> Limits {
        *self.limits.read().unwrap_or_else(PoisonError::into_inner)
    }

    /// The thresholds and windows of the configuration file.
    pub fn configured(&self) -> &RiskSettings {
        &self.configured
    }

    /// The thresholds that apply without an alert: the configured ones, with those an admin
    /// set in the dashboard.
    pub fn settings(&self) -> RiskSettings {
        self.limits().ordinary
    }

    /// The thresholds judged while a card-testing alert is open.
    pub fn tightened_settings(&self) -> RiskSettings {
        self.limits().tightened
    }

    /// The thresholds judged now: the tightened ones while an alert is open.
    pub fn settings_in_force(&self) -> RiskSettings {
        let limits = self.limits();
        if self.watch.is_open() {
            limits.tightened
        } else {
            limits.ordinary
        }
    }

    /// Applies `overrides` (the dashboard's thresholds) over the configured ones.
    pub fn apply_overrides(&self, overrides: &[RiskOverride]) {
        let ordinary = overrides::applied(&self.configured, overrides);
        *self.limits.write().unwrap_or_else(PoisonError::into_inner) = Limits::of(ordinary);
    }

    /// Reads the dashboard's thresholds from the store and applies them (every reconciler
    /// pass, and after an admin changed one); returns them.
    pub async fn refresh_overrides(&self) -> StoreResult<Vec<RiskOverride>> {
        let overrides = self.store.risk_overrides().await?;
        self.apply_overrides(&overrides);
        Ok(overrides)
    }

    /// The keyed fingerprint of `number`.
    pub fn fingerprint(&self, number: &CardNumber) -> CardFingerprint {
        self.fingerprinter.of(number)
    }

    /// Whether a pay call needs a proof of work now (`RISK_PROOF_OF_WORK`: while an alert is
    /// open, always, or never).
    pub fn asks_proof(&self) -> bool {
        match self.configured.alert.proof_of_work {
            ProofOfWorkMode::Off => false,
            ProofOfWorkMode::Alert => self.alert_open(),
            ProofOfWorkMode::Always => true,
        }
    }

    /// When [`asks_proof`](Self::asks_proof), a pay call of `session_id` with `subject` (the
    /// card's fingerprint, or the saved card) goes ahead only with a `proof` of work answering
    /// a challenge handed out for both; without one (or with a wrong or stale one) the answer
    /// is a fresh challenge. Otherwise every call goes ahead.
    pub fn require_proof(
        &self,
        session_id: &str,
        subject: &str,
        proof: Option<&ProofOfWork>,
        now: OffsetDateTime,
    ) -> Result<(), Box<ProofChallenge>> {
        if !self.asks_proof() {
            return Ok(());
        }
        self.answered(session_id, subject, proof, now)
    }

    /// Whether `proof` answers a challenge for `session_id` and `subject`; a fresh challenge
    /// when it does not (counted in the proofs' metric either way).
    pub fn answered(
        &self,
        session_id: &str,
        subject: &str,
        proof: Option<&ProofOfWork>,
        now: OffsetDateTime,
    ) -> Result<(), Box<ProofChallenge>> {
        if proof.is_some_and(|proof| self.proof.accepts(session_id, subject, proof, now)) {
            crate::metrics::card_testing::proof("accepted");
            return Ok(());
        }
        crate::metrics::card_testing::proof(if proof.is_some() { "refused" } else { "asked" });
        Err(Box::new(self.proof.challenge(session_id, subject, now)))
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
    /// counts are one statement, read here ([`judge`](Self::judge) is for counts read with the
    /// payment's insert).
    pub async fn check(
        &self,
        payment: &Payment,
        facts: &RiskFacts,
        kind: TryKind,
        client: IpAddr,
    ) -> StoreResult<Verdict> {
        let query = self.query(
            &payment.session_id,
            payment.customer_id.as_ref(),
            payment.card.as_ref(),
            facts,
            kind,
            client,
        );
        let counts = self.store.risk_counts(&query).await?;
        self.judge(payment, &counts, kind).await
    }

    /// Judges `payment`, recorded `pending`, by `counts` (its block list and counts, read once
    /// it was recorded: [`count_query`](Self::count_query)).
    ///
    /// A hard rule refuses at its ordinary threshold. What breaks only a soft rule
    /// (`returning::is_soft`), or, while an alert is open, only a tightened threshold (the
    /// halved limit, still within the ordinary one), asks for a proof of work instead: a
    /// shopper who mistypes with two different wrong numbers pays with the third card during
    /// an alert. Past a tightened threshold a checkout with a try left at the bank's 3-D
    /// Secure page (a card tester notes the number live there and moves on; a shopper's wrong
    /// number is declined) is refused as before.
    pub async fn judge(
        &self,
        payment: &Payment,
        counts: &RiskCounts,
        kind: TryKind,
    ) -> StoreResult<Verdict> {
        let soft = |rule| returning::is_soft(rule, payment);
        let in_force = self.settings_in_force();
        if let Some(rule) =
            rules::first_broken_of(counts, &self.settings(), kind, |rule| !soft(rule))
        {
            return Ok(Verdict::Block(rule));
        }
        // The limits in force are never looser than the ordinary ones: what they break now is
        // a soft rule, or a hard one only tightened.
        if let Some(rule) = rules::first_broken_of(counts, &in_force, kind, |rule| !soft(rule))
            && self.store.left_at_the_bank(&payment.session_id).await?
        {
            return Ok(Verdict::Block(rule));
        }
        Ok(rules::first_broken(counts, &in_force, kind).map_or(Verdict::Allow, Verdict::Challenge))
    }

    /// The counts a try of `kind` with `new` (about to be recorded) by a shopper at `client`
    /// is judged by, for the store to read as it records `new`.
    pub fn count_query(&self, new: &NewPayment, kind: TryKind, client: IpAddr) -> RiskCountQuery {
        self.query(
            &new.session_id,
            new.customer_id.as_ref(),
            new.card.as_ref(),
            &new.risk,
            kind,
            client,
        )
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
        session_id: &str,
        customer_id: Option<&String>,
        card: Option<&CardSummary>,
        facts: &RiskFacts,
        kind: TryKind,
        client: IpAddr,
    ) -> RiskCountQuery {
        let now = OffsetDateTime::now_utc();
        let since = |window: std::time::Duration| {
            now.saturating_sub(time::Duration::try_from(window).unwrap_or(time::Duration::ZERO))
        };
        let typed = kind == TryKind::TypedCard;
        let s = &self.configured;
        RiskCountQuery {
            session_id: session_id.to_owned(),
            card_fingerprint: facts.card_fingerprint.clone(),
            client_key: facts.client_key.clone().filter(|_| typed),
            customer_id: customer_id.cloned().filter(|_| typed),
            shopper_email: facts.shopper_email.clone().filter(|_| typed),
            client_since: since(s.address_window),
            customer_since: since(s.customer_window),
            email_since: since(s.email_window),
            card_declines_since: since(s.card_declines_window),
            blocks: BlockProbe {
                bin: card
                    .and_then(|card| card.bin.as_ref())
                    .map(|bin| bin.as_str().to_owned()),
                address: Some(address::hex(client)),
                email: facts.shopper_email.clone(),
                email_domain: facts
                    .shopper_email
                    .as_deref()
                    .and_then(blocks::email_domain)
                    .map(str::to_owned),
                customer_id: customer_id.cloned(),
            },
        }
    }
}
