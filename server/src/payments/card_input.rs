//! A card as the shopper typed it, judged by the same `checkout::card` rules the form ran,
//! and turned into the gateway's `card` object. The number and CVC stay in their masking
//! types until [`ParsedCard::wire`] builds the request; only brand, first six, last four and
//! expiry ever reach the store.

use checkout::card::{CardError, CardNumber, CardholderName, Cvc, Expiry, YearMonth};
use checkout::contract::CardFields;

use super::PaymentError;
use crate::store::model::CardSummary;
use checkout::wire::Card;

/// A validated card. `Debug` shows the masked number and `***` for the CVC.
#[derive(Debug, Clone)]
pub struct ParsedCard {
    /// The number (brand known, Luhn checked).
    pub number: CardNumber,
    /// Expiry, not in the past.
    pub expiry: Expiry,
    /// Security code of the brand's length.
    pub cvc: Cvc,
    /// Name as printed.
    pub name: CardholderName,
}

impl ParsedCard {
    /// Checks every field; the first problem is reported with its field (`card.number`,
    /// `card.expiry_month`, `card.expiry`, `card.cvc`, `card.name`) and the rule's code.
    pub fn parse(fields: &CardFields, today: YearMonth) -> Result<Self, PaymentError> {
        let number = CardNumber::parse(fields.number.expose()).map_err(card_error)?;
        let expiry =
            Expiry::parse(&fields.expiry_month, &fields.expiry_year, today).map_err(card_error)?;
        let cvc = Cvc::parse(fields.cvc.expose(), Some(number.brand())).map_err(card_error)?;
        let name = CardholderName::parse(&fields.name).map_err(card_error)?;
        Ok(Self {
            number,
            expiry,
            cvc,
            name,
        })
    }

    /// The gateway's `card` object: two-digit month and year, the number and CVC in their
    /// `CardSecret`s (exposed only by the request body's serializer).
    pub fn wire(&self) -> Card {
        Card {
            cvc: self.cvc.secret().clone(),
            expiry_month: self.expiry.month_2(),
            expiry_year: self.expiry.year_2(),
            name: self.name.as_str().to_owned(),
            number: self.number.secret().clone(),
        }
    }

    /// What the store may keep.
    pub fn summary(&self) -> CardSummary {
        CardSummary::from_card(&self.number, self.expiry)
    }
}

fn card_error(error: CardError) -> PaymentError {
    PaymentError::invalid(
        error.code(),
        format!("card.{}", error.field()),
        error.to_string(),
    )
}

#[cfg(test)]
mod tests {
    use checkout::card::CardSecret;

    use super::*;

    fn fields(number: &str, month: &str, year: &str, cvc: &str) -> CardFields {
        CardFields {
            number: CardSecret::new(number),
            expiry_month: month.into(),
            expiry_year: year.into(),
            cvc: CardSecret::new(cvc),
            name: "Jane Doe".into(),
        }
    }

    fn today() -> YearMonth {
        YearMonth::new(2025, 6).expect("month")
    }

    fn field_of(result: Result<ParsedCard, PaymentError>) -> String {
        match result {
            Err(PaymentError::Invalid { field, message, .. }) => {
                assert!(!message.contains("4242"), "{message}");
                field
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn builds_the_wire_card_with_two_digit_dates() {
        let card = ParsedCard::parse(&fields("4242 4242 4242 4242", "5", "2030", "012"), today())
            .expect("valid");
        let wire = card.wire();
        assert_eq!(wire.expiry_month, "05");
        assert_eq!(wire.expiry_year, "30");
        assert_eq!(wire.cvc.expose(), "012");
        assert_eq!(wire.number.expose(), "4242424242424242");
        assert_eq!(card.summary().last4.as_str(), "4242");
        let shown = format!("{card:?}");
        assert!(
            !shown.contains("4242424242424242") && !shown.contains("012"),
            "{shown}"
        );
    }

    #[test]
    fn each_rule_names_its_field() {
        let t = today();
        assert_eq!(
            field_of(ParsedCard::parse(
                &fields("4242424242424241", "5", "30", "123"),
                t
            )),
            "card.number"
        );
        assert_eq!(
            field_of(ParsedCard::parse(
                &fields("4242424242424242", "13", "30", "123"),
                t
            )),
            "card.expiry_month"
        );
        assert_eq!(
            field_of(ParsedCard::parse(
                &fields("4242424242424242", "1", "2024", "123"),
                t
            )),
            "card.expiry"
        );
        assert_eq!(
            field_of(ParsedCard::parse(
                &fields("378282246310005", "1", "30", "123"),
                t
            )),
            "card.cvc"
        );
        let mut nameless = fields("4242424242424242", "1", "30", "123");
        nameless.name = " ".into();
        assert_eq!(field_of(ParsedCard::parse(&nameless, t)), "card.name");
    }
}
