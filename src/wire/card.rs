//! The `card` object of a payment request (gateway-interface.md, "Card").
//!
//! The number and CVC are [`CardSecret`]s: `Debug` never shows them, and the raw text is
//! exposed only by the serializer that writes the request body to the gateway.

use serde::{Deserialize, Serialize};

use crate::card::CardSecret;

use super::scalars::lenient;

/// Card details sent with a card-form payment or subscription request.
///
/// `expiry_month` and `expiry_year` are two digits per the contract; gateway-notes.md says a
/// client sends two digits and an emulator accepts four as well, so they stay strings here.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Card {
    /// Card verification code; a string so leading zeros survive ("012").
    #[serde(serialize_with = "CardSecret::serialize_exposed")]
    pub cvc: CardSecret,
    /// Expiry month, two digits ("05").
    #[serde(deserialize_with = "lenient::string")]
    pub expiry_month: String,
    /// Expiry year, two digits ("28"); four accepted when read.
    #[serde(deserialize_with = "lenient::string")]
    pub expiry_year: String,
    /// Cardholder name.
    pub name: String,
    /// Full card number (digits only).
    #[serde(serialize_with = "CardSecret::serialize_exposed")]
    pub number: CardSecret,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card() -> Card {
        Card {
            cvc: CardSecret::new("012"),
            expiry_month: "05".into(),
            expiry_year: "28".into(),
            name: "Jane Doe".into(),
            number: CardSecret::new("5200000000001005"),
        }
    }

    #[test]
    fn debug_hides_number_and_cvc() {
        let shown = format!("{:?}", card());
        assert!(!shown.contains("5200000000001005"));
        assert!(!shown.contains("1005"));
        assert!(!shown.contains("012"));
    }

    #[test]
    fn serialises_the_raw_values_for_the_gateway() {
        let json = serde_json::to_value(card()).unwrap();
        assert_eq!(json["number"], "5200000000001005");
        assert_eq!(json["cvc"], "012");
        let back: Card = serde_json::from_value(json).unwrap();
        assert_eq!(back.cvc.expose(), "012");
    }
}
