//! What is wrong with a field's text, using the same `checkout::card` rules the server applies,
//! and the sentence that tells the shopper.

use crate::card::{Brand, CardError, CardNumber, CardholderName, Cvc, Expiry, YearMonth};
use crate::form_fields::FieldKind;
use crate::i18n::{Locale, Msg, fill, number_text};

/// A field's problem, kept as data so it can be shown in whichever language is current.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Problem {
    /// A card rule refused the value.
    Card(CardError),
    /// A required billing field is empty.
    Required,
    /// Not an e-mail address.
    Email,
    /// Not a phone number.
    Phone,
}

impl Problem {
    /// The sentence shown under the field.
    pub fn text(self, locale: Locale) -> String {
        match self {
            Self::Card(CardError::CvcLength { min, max }) if min == max => {
                fill(locale.text(Msg::CvcLength), &[&number_text(u64::from(min))])
            }
            Self::Card(CardError::NameTooLong { max }) => {
                fill(locale.text(Msg::NameTooLong), &[&number_text(max as u64)])
            }
            Self::Card(error) => locale.text(card_message(error)).to_owned(),
            Self::Required => locale.text(Msg::FieldRequired).to_owned(),
            Self::Email => locale.text(Msg::InvalidEmail).to_owned(),
            Self::Phone => locale.text(Msg::InvalidPhone).to_owned(),
        }
    }
}

/// The catalogue entry for a card rule's error.
pub fn card_message(error: CardError) -> Msg {
    match error {
        CardError::NumberRequired => Msg::NumberRequired,
        CardError::InvalidNumber => Msg::InvalidNumber,
        CardError::IncompleteNumber => Msg::IncompleteNumber,
        CardError::NumberTooLong => Msg::NumberTooLong,
        CardError::LuhnFailed => Msg::LuhnFailed,
        CardError::ExpiryRequired | CardError::MonthRequired | CardError::YearRequired => {
            Msg::ExpiryRequired
        }
        CardError::InvalidExpiry => Msg::InvalidExpiry,
        CardError::InvalidMonth => Msg::InvalidMonth,
        CardError::InvalidYear => Msg::InvalidYear,
        CardError::Expired => Msg::Expired,
        CardError::ExpiryTooFar => Msg::ExpiryTooFar,
        CardError::CvcRequired => Msg::CvcRequired,
        CardError::InvalidCvc => Msg::InvalidCvc,
        CardError::CvcLength { .. } => Msg::CvcLengthEither,
        CardError::NameRequired => Msg::NameRequired,
        CardError::NameTooLong { .. } => Msg::NameTooLong,
        CardError::InvalidName => Msg::InvalidName,
        CardError::NameContainsNumber => Msg::NameContainsNumber,
    }
}

/// The brand the CVC must fit: the number's, when the number says.
pub fn cvc_brand(number: &str) -> Option<Brand> {
    match Brand::detect(number) {
        Brand::Unknown => None,
        brand => Some(brand),
    }
}

/// Checks `value` as the content of `kind`; `number` is the card number field (the CVC length
/// depends on its brand) and `today` the month expiry is judged against.
pub fn check(kind: FieldKind, value: &str, number: &str, today: YearMonth) -> Option<Problem> {
    let card = |result: Result<(), CardError>| result.err().map(Problem::Card);
    match kind {
        FieldKind::Name => card(CardholderName::parse(value).map(drop)),
        FieldKind::Number => card(CardNumber::parse(value).map(drop)),
        FieldKind::Expiry => card(Expiry::parse_combined(value, today).map(drop)),
        FieldKind::Cvc => card(Cvc::parse(value, cvc_brand(number)).map(drop)),
        _ if value.trim().is_empty() => Some(Problem::Required),
        FieldKind::Email => (!is_email(value.trim())).then_some(Problem::Email),
        FieldKind::Phone => (!is_phone(value)).then_some(Problem::Phone),
        _ => None,
    }
}

/// One `@`, something before it, a dot inside the domain, no spaces, at most 254 bytes.
fn is_email(value: &str) -> bool {
    let Some((local, domain)) = value.split_once('@') else {
        return false;
    };
    value.len() <= 254
        && !local.is_empty()
        && !domain.contains('@')
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !value.contains(char::is_whitespace)
}

/// Digits with optional `+`, spaces, dashes, dots and brackets; 6 to 15 digits (E.164).
fn is_phone(value: &str) -> bool {
    let mut digits = 0;
    for ch in value.trim().chars() {
        match ch {
            '0'..='9' => digits += 1,
            '+' | ' ' | '-' | '.' | '(' | ')' => {}
            _ => return false,
        }
    }
    (6..=15).contains(&digits)
}

/// The CVC as the shopper may type it: digits only, at most the brand's length (4 if unknown).
pub fn cvc_input(raw: &str, number: &str) -> String {
    let max = cvc_brand(number).and_then(Brand::cvc_length).unwrap_or(4);
    raw.chars().filter(char::is_ascii_digit).take(max).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn today() -> YearMonth {
        YearMonth::new(2026, 5).expect("valid")
    }

    fn problem(kind: FieldKind, value: &str) -> Option<Problem> {
        check(kind, value, "4242424242424242", today())
    }

    #[test]
    fn card_fields_use_the_card_rules() {
        assert_eq!(problem(FieldKind::Number, "4242 4242 4242 4242"), None);
        assert_eq!(
            problem(FieldKind::Number, "4242 4242 4242 4241"),
            Some(Problem::Card(CardError::LuhnFailed))
        );
        assert_eq!(problem(FieldKind::Expiry, "12 / 30"), None);
        assert_eq!(
            problem(FieldKind::Expiry, "01 / 20"),
            Some(Problem::Card(CardError::Expired))
        );
        assert_eq!(
            problem(FieldKind::Cvc, "1234"),
            Some(Problem::Card(CardError::CvcLength { min: 3, max: 3 }))
        );
        assert_eq!(
            check(FieldKind::Cvc, "1234", "3782 822463 10005", today()),
            None
        );
        assert_eq!(check(FieldKind::Cvc, "1234", "", today()), None);
        assert_eq!(
            problem(FieldKind::Name, ""),
            Some(Problem::Card(CardError::NameRequired))
        );
    }

    #[test]
    fn billing_fields() {
        assert_eq!(problem(FieldKind::City, " "), Some(Problem::Required));
        assert_eq!(problem(FieldKind::City, "Berlin"), None);
        assert_eq!(problem(FieldKind::Email, "a@b.de"), None);
        for bad in [
            "a", "a@b", "@b.de", "a@.de", "a b@c.de", "a@b@c.de", "a@b.de.",
        ] {
            assert_eq!(
                problem(FieldKind::Email, bad),
                Some(Problem::Email),
                "{bad}"
            );
        }
        assert_eq!(problem(FieldKind::Phone, "+49 (30) 123-456"), None);
        assert_eq!(problem(FieldKind::Phone, "12345"), Some(Problem::Phone));
        assert_eq!(
            problem(FieldKind::Phone, "030 12345x"),
            Some(Problem::Phone)
        );
        assert_eq!(problem(FieldKind::Country, ""), Some(Problem::Required));
    }

    #[test]
    fn messages_fill_their_numbers() {
        let exact = Problem::Card(CardError::CvcLength { min: 4, max: 4 });
        assert_eq!(
            exact.text(Locale::En),
            "The security code must have 4 digits."
        );
        let either = Problem::Card(CardError::CvcLength { min: 3, max: 4 });
        assert_eq!(
            either.text(Locale::De),
            "Die Prüfnummer muss 3 oder 4 Ziffern haben."
        );
        let long = Problem::Card(CardError::NameTooLong { max: 100 });
        assert_eq!(
            long.text(Locale::En),
            "The name may have at most 100 characters."
        );
    }

    #[test]
    fn cvc_input_keeps_brand_length_digits() {
        assert_eq!(cvc_input("12a34", "4242"), "123");
        assert_eq!(cvc_input("12345", "3782"), "1234");
        assert_eq!(cvc_input("12345", ""), "1234");
    }
}
