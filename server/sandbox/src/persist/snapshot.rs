//! What of the emulator's state survives a restart, as one serializable value: the ledger
//! (every transaction and the next reference, so refs keep increasing), the token vault (stored
//! cards, full numbers included: the snapshot is only ever written sealed), the subscription
//! book, the clock's offset and the 3-D Secure sessions still waiting for the cardholder.
//!
//! Taken from and put back into a running state by `crate::state` (`StateSnapshot::capture`,
//! `restore_into`).
//!
//! Not kept (each starts empty, as documented in docs/sandbox.md): armed faults, the velocity
//! rule's recent card uses, the webhook log, and decided 3-D Secure sessions.

use secrecy::zeroize::Zeroizing;
use serde::{Deserialize, Serialize};

use crate::acs_sessions::AcsSession;
use crate::ledger::TransactionRecord;
use crate::subscriptions::SandboxSubscription;
use crate::tokens::StoredCard;

/// The persisted part of one emulator's state.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StateSnapshot {
    /// How far the sandbox clock was moved ahead of real time, in nanoseconds.
    pub clock_offset_nanos: i64,
    /// The reference the next transaction gets.
    pub next_reference: u64,
    /// Every recorded transaction, oldest first.
    pub transactions: Vec<TransactionRecord>,
    /// Stored cards by token.
    pub stored_cards: Vec<(String, StoredCard)>,
    /// Subscriptions in creation order.
    pub subscriptions: Vec<SandboxSubscription>,
    /// 3-D Secure sessions not yet decided, by token.
    pub acs_sessions: Vec<(String, AcsSession)>,
}

impl StateSnapshot {
    /// The serialized snapshot (JSON), zeroed when dropped: it holds full card numbers, so it
    /// goes nowhere but into [`super::seal`].
    pub fn to_bytes(&self) -> Result<Zeroizing<Vec<u8>>, serde_json::Error> {
        serde_json::to_vec(self).map(Zeroizing::new)
    }

    /// Reads a snapshot written by [`StateSnapshot::to_bytes`]. The error names the field
    /// but not serde's message, which may quote the value (a card number).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, String> {
        let mut reader = serde_json::Deserializer::from_slice(bytes);
        serde_path_to_error::deserialize(&mut reader)
            .map_err(|error| format!("its contents are not a valid state (at `{}`)", error.path()))
    }
}
