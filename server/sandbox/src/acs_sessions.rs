//! ACS sessions: one per 3DS payment, found by an unguessable token in the `redirect_url`,
//! decided at most once.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::changes::ChangeCounter;
use crate::charge_card::{ChargeCard, ChargePurpose};
use crate::faults::Fault;
use checkout::wire::ReturnUrl;

/// A 3DS payment waiting for (or past) the cardholder's visit. An undecided one is kept in the
/// sealed state file (its card number included), without its faults.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AcsSession {
    /// The pending transaction.
    pub transaction_id: Uuid,
    /// The card to charge once authenticated (no CVC).
    pub(crate) card: ChargeCard,
    /// Why it is charged.
    pub purpose: ChargePurpose,
    /// True: show the Approve/Reject page. False: frictionless, decided on the first visit.
    pub challenge: bool,
    /// Where the cardholder and the webhook go.
    pub return_url: ReturnUrl,
    /// Store the card on approval.
    pub store_payment_method: bool,
    /// Webhook and page faults the starting call asked for (not kept across restarts).
    #[serde(skip)]
    pub webhook_faults: Vec<Fault>,
    /// True once approved or rejected.
    pub decided: bool,
}

/// Why a session cannot be decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecisionRefused {
    /// No session has this token.
    Unknown,
    /// It was already approved or rejected.
    AlreadyDecided,
}

/// The open and decided sessions, by token.
#[derive(Debug, Default)]
pub struct AcsSessions {
    sessions: Mutex<HashMap<String, AcsSession>>,
    changes: ChangeCounter,
}

impl AcsSessions {
    /// No sessions yet; opening and deciding count in `changes`.
    pub fn with_changes(changes: ChangeCounter) -> Self {
        Self {
            sessions: Mutex::default(),
            changes,
        }
    }

    /// The sessions still waiting for the cardholder, by token (for the state file).
    pub fn undecided(&self) -> Vec<(String, AcsSession)> {
        self.lock()
            .iter()
            .filter(|(_, session)| !session.decided)
            .map(|(token, session)| (token.clone(), session.clone()))
            .collect()
    }

    /// Puts restored sessions back under their tokens.
    pub fn restore(&self, sessions: impl IntoIterator<Item = (String, AcsSession)>) {
        self.lock().extend(sessions);
        self.changes.mark();
    }

    /// Keeps `session` and returns its token: 32 random bytes, base64url (43 characters).
    pub fn open(&self, session: AcsSession) -> String {
        let token = URL_SAFE_NO_PAD.encode(rand::random::<[u8; 32]>());
        self.lock().insert(token.clone(), session);
        self.changes.mark();
        token
    }

    /// The session with this token.
    pub fn get(&self, token: &str) -> Option<AcsSession> {
        self.lock().get(token).cloned()
    }

    /// The addresses the payment of `transaction_id` named when its 3DS started (what the
    /// merchant's server told the gateway, the webhook's path secret included).
    pub fn return_url_of(&self, transaction_id: Uuid) -> Option<ReturnUrl> {
        self.lock()
            .values()
            .find(|session| session.transaction_id == transaction_id)
            .map(|session| session.return_url.clone())
    }

    /// Marks the session decided and returns it, exactly once per token.
    pub fn begin_decision(&self, token: &str) -> Result<AcsSession, DecisionRefused> {
        let mut sessions = self.lock();
        let session = sessions.get_mut(token).ok_or(DecisionRefused::Unknown)?;
        if session.decided {
            return Err(DecisionRefused::AlreadyDecided);
        }
        session.decided = true;
        self.changes.mark();
        Ok(session.clone())
    }

    /// Sessions not yet decided.
    pub fn open_count(&self) -> usize {
        self.lock()
            .values()
            .filter(|session| !session.decided)
            .count()
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, AcsSession>> {
        // Inserts and single-entry edits only: a poisoned map is still consistent.
        self.sessions.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
