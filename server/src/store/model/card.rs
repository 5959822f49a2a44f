//! What the store may know about a card: brand, first six, last four and expiry. There is no
//! way to hand it a full number or a security code: [`Bin`] and [`Last4`] hold exactly six and
//! four digits, and [`CardSummary::from_card`] takes the parsed number only to copy those.

use checkout::card::{Brand, CardNumber, Expiry};
use checkout::contract::SavedCard;
use checkout::wire::Address;
use secrecy::SecretString;
use time::OffsetDateTime;

use crate::store::error::{StoreError, StoreResult};

/// The first six digits of a card number (the issuer identification number).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bin(String);

/// The last four digits of a card number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Last4(String);

impl Bin {
    /// Exactly six ASCII digits.
    pub fn new(digits: &str) -> StoreResult<Self> {
        exact_digits(digits, 6, "card_bin").map(Self)
    }

    /// The digits.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Last4 {
    /// Exactly four ASCII digits.
    pub fn new(digits: &str) -> StoreResult<Self> {
        exact_digits(digits, 4, "card_last4").map(Self)
    }

    /// The digits.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

fn exact_digits(digits: &str, len: usize, field: &'static str) -> StoreResult<String> {
    if digits.len() == len && digits.bytes().all(|b| b.is_ascii_digit()) {
        Ok(digits.to_owned())
    } else {
        Err(StoreError::Invalid {
            field,
            reason: "wrong number of digits",
        })
    }
}

/// The card a payment was made with, as far as the store keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardSummary {
    /// Scheme.
    pub brand: Brand,
    /// First six digits; unknown for a payment with a card saved before migration 0023.
    pub bin: Option<Bin>,
    /// Last four digits.
    pub last4: Last4,
    /// Expiry month, 1–12.
    pub expiry_month: u8,
    /// Four-digit expiry year.
    pub expiry_year: u16,
}

impl CardSummary {
    /// Keeps brand, first six, last four and expiry of a parsed card; nothing else.
    pub fn from_card(number: &CardNumber, expiry: Expiry) -> Self {
        Self {
            brand: number.brand(),
            bin: Some(Bin(number.bin().to_owned())),
            last4: Last4(number.last4().to_owned()),
            expiry_month: expiry.month(),
            expiry_year: expiry.year(),
        }
    }

    /// The summary of a payment made with a saved card.
    pub fn from_saved(card: &SavedCardRecord) -> Self {
        Self {
            brand: card.brand,
            bin: card.bin.clone(),
            last4: card.last4.clone(),
            expiry_month: card.expiry_month,
            expiry_year: card.expiry_year,
        }
    }
}

/// A card to save for a customer after a payment that stored it at the gateway.
#[derive(Debug)]
pub struct NewSavedCard {
    /// Owner.
    pub customer_id: String,
    /// The gateway's `stored_payment_method_id`; charges the card, so it stays wrapped.
    pub gateway_token: SecretString,
    /// Scheme.
    pub brand: Brand,
    /// Last four digits.
    pub last4: Last4,
    /// Expiry month, 1–12.
    pub expiry_month: u8,
    /// Four-digit expiry year.
    pub expiry_year: u16,
    /// The keyed fingerprint of the payment it was saved from (migration 0018).
    pub card_fingerprint: Option<String>,
    /// The payment it is saved from: the billing address that payment was made with is
    /// kept with the card (migration 0021).
    pub saved_from: Option<String>,
}

/// A saved card as stored.
#[derive(Clone, Debug)]
pub struct SavedCardRecord {
    /// Card id (what the browser sends back as `saved_card_id`).
    pub id: String,
    /// Owner.
    pub customer_id: String,
    /// The gateway token for the token form of `/payment`.
    pub gateway_token: SecretString,
    /// Scheme.
    pub brand: Brand,
    /// Last four digits.
    pub last4: Last4,
    /// Expiry month, 1–12.
    pub expiry_month: u8,
    /// Four-digit expiry year.
    pub expiry_year: u16,
    /// When it was saved.
    pub created_at: OffsetDateTime,
    /// The keyed fingerprint of the payment it was saved from; `None` for a card saved before
    /// migration 0018. Never shown to the browser.
    pub card_fingerprint: Option<String>,
    /// The billing address it was saved with; `None` for a card saved before migration 0021.
    /// A payment with the card fills what the form did not ask for from it.
    pub billing: Option<Box<Address>>,
    /// The first six digits of the payment it was saved from, so the BIN block list judges a
    /// payment with it too; `None` for a card saved before migration 0023 whose payment is
    /// gone. Never shown to the browser.
    pub bin: Option<Bin>,
}

impl From<&SavedCardRecord> for SavedCard {
    fn from(card: &SavedCardRecord) -> Self {
        SavedCard {
            id: card.id.clone(),
            brand: card.brand,
            last4: card.last4.as_str().to_owned(),
            expiry_month: card.expiry_month,
            expiry_year: card.expiry_year,
            // Whether the kept address covers a session's fields is the pay path's call
            // (`api::checkout`).
            billing_on_file: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use checkout::card::YearMonth;

    #[test]
    fn digits_must_fit_exactly() {
        assert!(Bin::new("400000").is_ok());
        assert!(Bin::new("4000002500003155").is_err());
        assert!(Bin::new("40000a").is_err());
        assert!(Last4::new("3155").is_ok());
        assert!(Last4::new("03155").is_err());
        assert!(Last4::new("").is_err());
    }

    #[test]
    fn summary_keeps_only_six_and_four() {
        let number = CardNumber::parse("4000 0025 0000 3155").expect("test card parses");
        let today = YearMonth::new(2025, 1).expect("valid month");
        let expiry = Expiry::parse("12", "30", today).expect("expiry parses");
        let summary = CardSummary::from_card(&number, expiry);
        assert_eq!(summary.bin.as_ref().map(Bin::as_str), Some("400000"));
        assert_eq!(summary.last4.as_str(), "3155");
        assert_eq!((summary.expiry_month, summary.expiry_year), (12, 2030));
        assert!(!format!("{summary:?}").contains("4000002500003155"));
    }
}
