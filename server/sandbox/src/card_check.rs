//! Turns the wire `card` object into validated card values with the shared rules of
//! `checkout::card` (Luhn, brand lengths, expiry against the sandbox clock, CVC length for the
//! brand), and the masked snapshot responses show.

use checkout::card::{CardError, CardNumber, CardholderName, Cvc, Expiry, YearMonth};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;

use super::error::SandboxError;
use checkout::wire;

/// A card that passed every rule. The CVC is checked and kept only until the charge is
/// decided; it is never stored or shown.
#[derive(Debug, Clone)]
pub struct ValidatedCard {
    /// The number (masks itself in `Debug`/`Display`).
    pub number: CardNumber,
    /// A month not in the past on the sandbox clock.
    pub expiry: Expiry,
    /// The security code, the right length for the brand.
    pub cvc: Cvc,
    /// The normalised cardholder name.
    pub name: CardholderName,
}

impl ValidatedCard {
    /// Validates `card` as of `now` (the sandbox clock). Number, expiry and CVC problems are
    /// 406 (`ERR0004`); a bad name is 400 (`ERR0003`). Messages name the field, never the value.
    pub fn from_wire(card: &wire::Card, now: OffsetDateTime) -> Result<Self, SandboxError> {
        let number = CardNumber::parse(card.number.expose()).map_err(card_error)?;
        let expiry = Expiry::parse(&card.expiry_month, &card.expiry_year, YearMonth::of(now))
            .map_err(card_error)?;
        let cvc = Cvc::parse(card.cvc.expose(), Some(number.brand())).map_err(card_error)?;
        let name = CardholderName::parse(&card.name).map_err(card_error)?;
        Ok(Self {
            number,
            expiry,
            cvc,
            name,
        })
    }

    /// The card as responses show it.
    pub fn snapshot(&self) -> CardSnapshot {
        CardSnapshot {
            masked_number: self.number.to_string(),
            name: self.name.as_str().to_owned(),
            exp_month: self.expiry.month_2(),
            exp_year: self.expiry.year_2(),
            scheme: self.number.brand().id().to_ascii_uppercase(),
        }
    }
}

/// What responses show of a card: nothing that could be charged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardSnapshot {
    /// First six, `******`, last four (`520000******1005`): `CardNumber`'s `Display`, the form
    /// gateway-notes.md describes for every length.
    pub masked_number: String,
    /// Cardholder name.
    pub name: String,
    /// Two-digit month.
    pub exp_month: String,
    /// Two-digit year.
    pub exp_year: String,
    /// Upper-case brand id (`VISA`, `MASTERCARD`, `AMEX`).
    pub scheme: String,
}

/// Maps a card rule failure to the emulator's error, naming the wire field.
fn card_error(error: CardError) -> SandboxError {
    let field = match error.field() {
        "number" => "card.number",
        "expiry_month" => "card.expiry_month",
        "expiry" | "expiry_year" => "card.expiry_year",
        "cvc" => "card.cvc",
        _ => "card.name",
    };
    if field == "card.name" {
        SandboxError::invalid(field, error.to_string())
    } else {
        SandboxError::InvalidCard {
            field: field.to_owned(),
            reason: error.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use checkout::card::CardSecret;
    use time::macros::datetime;

    use super::*;

    fn card(number: &str, month: &str, year: &str, cvc: &str) -> wire::Card {
        wire::Card {
            cvc: CardSecret::new(cvc),
            expiry_month: month.into(),
            expiry_year: year.into(),
            name: "Jane Doe".into(),
            number: CardSecret::new(number),
        }
    }

    const NOW: OffsetDateTime = datetime!(2026-05-10 12:00 UTC);

    #[test]
    fn accepts_a_good_card_and_masks_it() {
        let valid = ValidatedCard::from_wire(&card("5200000000001005", "05", "2026", "012"), NOW)
            .expect("valid");
        let shown = valid.snapshot();
        assert_eq!(shown.masked_number, "520000******1005");
        assert_eq!(
            (shown.exp_month.as_str(), shown.exp_year.as_str()),
            ("05", "26")
        );
        assert_eq!(shown.scheme, "MASTERCARD");
        let amex = ValidatedCard::from_wire(&card("378282246310005", "12", "30", "1234"), NOW)
            .expect("valid");
        assert_eq!(amex.snapshot().masked_number, "378282******0005");
    }

    #[test]
    fn refuses_bad_cards_with_406_naming_the_field() {
        let cases = [
            (card("4242424242424241", "05", "30", "123"), "card.number"),
            (
                card("4242424242424242", "04", "26", "123"),
                "card.expiry_year",
            ),
            (
                card("4242424242424242", "13", "30", "123"),
                "card.expiry_month",
            ),
            (card("4242424242424242", "05", "30", "1234"), "card.cvc"),
            (card("378282246310005", "05", "30", "123"), "card.cvc"),
        ];
        for (card, field) in cases {
            let error = ValidatedCard::from_wire(&card, NOW).expect_err("invalid");
            assert_eq!(
                error.status(),
                axum::http::StatusCode::NOT_ACCEPTABLE,
                "{field}"
            );
            let message = error.to_string();
            assert!(message.contains(field), "{message}");
            assert!(!message.contains("424242424242"), "{message}");
        }
    }

    #[test]
    fn a_bad_name_is_a_400() {
        let mut bad = card("4242424242424242", "05", "30", "123");
        bad.name = "   ".into();
        let error = ValidatedCard::from_wire(&bad, NOW).expect_err("invalid");
        assert_eq!(error.status(), axum::http::StatusCode::BAD_REQUEST);
    }
}
