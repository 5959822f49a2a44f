//! The card of a 3-D Secure session as the sealed state file keeps it: number (digits, see
//! [`super::fields::card_digits`]), expiry, masked snapshot and the token it came from. Its
//! test-card behaviour is not written: it follows from the number, and is worked out again
//! when the session is read back, so it always matches the current test-card table.

use std::sync::Arc;

use checkout::card::{CardNumber, Expiry};
use serde::{Deserialize, Serialize};

use crate::card_check::CardSnapshot;
use crate::charge::ChargeCard;
use crate::test_cards::behaviour_of;

/// `ChargeCard`'s persisted form.
#[derive(Serialize, Deserialize)]
pub(crate) struct SavedChargeCard {
    #[serde(with = "super::fields::card_digits")]
    number: CardNumber,
    #[serde(with = "super::fields::expiry_date")]
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
