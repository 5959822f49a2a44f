//! A card ready to be charged (`ChargeCard`) and why it is charged ([`ChargePurpose`]): what a
//! 3-D Secure session holds while the cardholder decides, below the charge path that fills it
//! (`crate::charge`, which also resolves a token into one).
//!
//! The sealed state file keeps the card as `SavedChargeCard`: number (digits, see
//! [`crate::snapshot_fields::card_digits`]), expiry, masked snapshot and the token it came
//! from. Its test-card behaviour is not written: it follows from the number, and is worked out
//! again when the session is read back, so it always matches the current test-card table.

use std::sync::Arc;

use checkout::card::{CardNumber, Expiry};
use serde::{Deserialize, Serialize};

use crate::card_check::CardSnapshot;
use crate::test_cards::{CardBehaviour, behaviour_of};

/// Why the card is charged; a card may behave differently on later subscription cycles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ChargePurpose {
    /// A payment or authorization request (and a subscription's creation charge).
    Payment,
    /// A subscription billing cycle, numbered from 1.
    SubscriptionCycle {
        /// The cycle number.
        cycle: u32,
    },
}

/// A card ready to be charged: number and expiry, the masked snapshot, and the token it came
/// from. Holds no CVC, so it may wait in a 3DS session (and in the sealed state file, as
/// [`SavedChargeCard`]).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(from = "SavedChargeCard", into = "SavedChargeCard")]
pub(crate) struct ChargeCard {
    pub number: CardNumber,
    pub expiry: Expiry,
    pub snapshot: Arc<CardSnapshot>,
    pub token_used: Option<String>,
    pub behaviour: CardBehaviour,
}

/// `ChargeCard`'s persisted form.
#[derive(Serialize, Deserialize)]
pub(crate) struct SavedChargeCard {
    #[serde(with = "crate::snapshot_fields::card_digits")]
    number: CardNumber,
    #[serde(with = "crate::snapshot_fields::expiry_date")]
    expiry: Expiry,
    snapshot: Arc<CardSnapshot>,
    token_used: Option<String>,
}

impl From<ChargeCard> for SavedChargeCard {
    fn from(card: ChargeCard) -> Self {
        Self {
            number: card.number,
            expiry: card.expiry,
            snapshot: card.snapshot,
            token_used: card.token_used,
        }
    }
}

impl From<SavedChargeCard> for ChargeCard {
    fn from(saved: SavedChargeCard) -> Self {
        Self {
            behaviour: behaviour_of(saved.number.secret().expose()),
            number: saved.number,
            expiry: saved.expiry,
            snapshot: saved.snapshot,
            token_used: saved.token_used,
        }
    }
}
