//! The merchant API's shape of a saved card: enough to recognise it, nothing to charge it with.

use checkout::card::Brand;
use checkout::contract::SavedCard;
use serde::Serialize;

use super::merchant::rfc3339;
use crate::store::model::{CardOnFile, SavedCardRecord};

/// A saved card as the merchant sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CustomerCard {
    /// Card id (the browser sends it back as `saved_card_id`).
    pub id: String,
    /// Card brand.
    pub brand: Brand,
    /// Last four digits.
    pub last4: String,
    /// Expiry month, 1–12.
    pub expiry_month: u8,
    /// Four-digit expiry year.
    pub expiry_year: u16,
    /// When it was saved (RFC 3339).
    pub created_at: String,
}

impl From<&SavedCardRecord> for CustomerCard {
    fn from(record: &SavedCardRecord) -> Self {
        // Through the browser contract's view, so both APIs show exactly the same card fields.
        let SavedCard {
            id,
            brand,
            last4,
            expiry_month,
            expiry_year,
            ..
        } = SavedCard::from(record);
        Self {
            id,
            brand,
            last4,
            expiry_month,
            expiry_year,
            created_at: rfc3339(record.created_at),
        }
    }
}

impl From<&CardOnFile> for CustomerCard {
    fn from(card: &CardOnFile) -> Self {
        Self {
            id: card.id.clone(),
            brand: card.brand,
            last4: card.last4.as_str().to_owned(),
            expiry_month: card.expiry_month,
            expiry_year: card.expiry_year,
            created_at: rfc3339(card.created_at),
        }
    }
}

#[cfg(test)]
mod tests {
    use secrecy::SecretString;
    use time::macros::datetime;

    use super::*;
    use crate::store::model::Last4;

    #[test]
    fn shows_no_token_and_keeps_the_creation_time() {
        let record = SavedCardRecord {
            id: "0b6f4a3e-7c2d-4f59-9a7e-2f3c1d9e8a10".to_owned(),
            customer_id: "cust-1".to_owned(),
            gateway_token: SecretString::from("tok_live_secret".to_owned()),
            brand: Brand::Visa,
            last4: Last4::new("4242").expect("last4"),
            expiry_month: 12,
            expiry_year: 2030,
            created_at: datetime!(2025-01-02 03:04:05.678 UTC),
            card_fingerprint: None,
            billing: None,
            bin: None,
        };
        let card = CustomerCard::from(&record);
        let json = serde_json::to_value(&card).expect("serialises");
        assert_eq!(
            json,
            serde_json::json!({
                "id": "0b6f4a3e-7c2d-4f59-9a7e-2f3c1d9e8a10",
                "brand": "visa",
                "last4": "4242",
                "expiry_month": 12,
                "expiry_year": 2030,
                "created_at": "2025-01-02T03:04:05.678Z",
            })
        );
        assert!(!json.to_string().contains("tok_live"));
    }
}
