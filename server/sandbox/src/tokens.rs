//! Stored payment methods: a payment with `payment_method.store_payment_method: true` keeps
//! its card here under a new token (`stored_payment_method_id`), and a token-form payment
//! charges it again. The CVC is never stored.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};

use checkout::card::{CardNumber, Expiry};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use uuid::Uuid;

use super::card_check::CardSnapshot;
use crate::changes::ChangeCounter;

/// A stored card: enough to charge it again, nothing to show but its snapshot. It serializes
/// with the full number, for the sealed state file only (`snapshot_fields::card_digits`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StoredCard {
    /// The number (masks itself).
    #[serde(with = "crate::snapshot_fields::card_digits")]
    pub number: CardNumber,
    /// The expiry, checked again at each use.
    #[serde(with = "crate::snapshot_fields::expiry_date")]
    pub expiry: Expiry,
    /// The masked card for responses.
    pub snapshot: CardSnapshot,
    /// When it was stored (sandbox clock).
    pub stored_at: OffsetDateTime,
}

/// Tokens → stored cards.
#[derive(Debug, Default)]
pub struct TokenVault {
    cards: Mutex<HashMap<String, StoredCard>>,
    changes: ChangeCounter,
}

impl TokenVault {
    /// An empty vault whose changes count in `changes`.
    pub fn with_changes(changes: ChangeCounter) -> Self {
        Self {
            cards: Mutex::default(),
            changes,
        }
    }

    /// Every stored card with its token (for the state file).
    pub fn entries(&self) -> Vec<(String, StoredCard)> {
        self.lock()
            .iter()
            .map(|(token, card)| (token.clone(), card.clone()))
            .collect()
    }

    /// Puts restored cards back under their tokens.
    pub fn restore(&self, entries: impl IntoIterator<Item = (String, StoredCard)>) {
        self.lock().extend(entries);
        self.changes.mark();
    }

    /// Stores a card and returns its new token (a UUID string, 36 characters).
    pub fn store(
        &self,
        number: &CardNumber,
        expiry: Expiry,
        snapshot: &CardSnapshot,
        now: OffsetDateTime,
    ) -> String {
        let token = Uuid::new_v4().to_string();
        let stored = StoredCard {
            number: number.clone(),
            expiry,
            snapshot: snapshot.clone(),
            stored_at: now,
        };
        self.lock().insert(token.clone(), stored);
        self.changes.mark();
        token
    }

    /// The card stored under `token`.
    pub fn get(&self, token: &str) -> Option<StoredCard> {
        self.lock().get(token).cloned()
    }

    /// Number of stored cards.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// True when nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, StoredCard>> {
        // Inserts and reads only: a poisoned map is still consistent.
        self.cards.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use checkout::card::YearMonth;

    use super::*;

    #[test]
    fn stores_and_finds_cards_by_token() {
        let today = YearMonth::new(2026, 1).expect("valid");
        let number = CardNumber::parse("4242424242424242").expect("valid");
        let expiry = Expiry::parse("05", "30", today).expect("valid");
        let snapshot = CardSnapshot {
            masked_number: number.to_string(),
            name: "Jane Doe".into(),
            exp_month: "05".into(),
            exp_year: "30".into(),
            scheme: "VISA".into(),
        };
        let vault = TokenVault::default();
        let store = || vault.store(&number, expiry, &snapshot, OffsetDateTime::UNIX_EPOCH);
        let token = store();
        assert_eq!(token.len(), 36);
        let stored = vault.get(&token).expect("stored");
        assert_eq!(stored.snapshot.masked_number, "424242******4242");
        assert!(!format!("{stored:?}").contains("4242424242424242"));
        assert!(vault.get("unknown").is_none());
        assert_ne!(store(), token);
        assert_eq!(vault.len(), 2);
    }
}
