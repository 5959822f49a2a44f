//! The cardholder name as printed on the card: trimmed, whitespace collapsed, bounded, and
//! refused when it holds control characters or something that looks like a card number
//! (a number pasted into the wrong field must not travel on as a "name").

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer, de};

use super::error::CardError;

/// Longest name accepted, in characters.
pub const MAX_NAME_CHARS: usize = 100;

/// This many digits in a row (spaces, dashes and dots between them allowed) look like part
/// of a card number rather than a name.
const NUMBER_LIKE_DIGITS: usize = 8;

/// A validated cardholder name.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CardholderName(String);

impl CardholderName {
    /// Trims the input and collapses inner runs of whitespace to one space, then checks it is
    /// non-empty, at most [`MAX_NAME_CHARS`] characters, free of control characters and of
    /// number-like digit runs.
    pub fn parse(input: &str) -> Result<Self, CardError> {
        if input.chars().any(char::is_control) {
            return Err(CardError::InvalidName);
        }
        let name = input.split_whitespace().collect::<Vec<_>>().join(" ");
        if name.is_empty() {
            return Err(CardError::NameRequired);
        }
        if name.chars().count() > MAX_NAME_CHARS {
            return Err(CardError::NameTooLong {
                max: MAX_NAME_CHARS,
            });
        }
        if longest_digit_run(&name) >= NUMBER_LIKE_DIGITS {
            return Err(CardError::NameContainsNumber);
        }
        Ok(Self(name))
    }

    /// The normalized name, as sent to the gateway.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Most digits found in one run where only spaces, dashes and dots separate them.
fn longest_digit_run(text: &str) -> usize {
    let mut longest = 0;
    let mut current = 0;
    for ch in text.chars() {
        if ch.is_ascii_digit() {
            current += 1;
            longest = longest.max(current);
        } else if !matches!(ch, ' ' | '-' | '.') {
            current = 0;
        }
    }
    longest
}

impl fmt::Display for CardholderName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl FromStr for CardholderName {
    type Err = CardError;

    fn from_str(input: &str) -> Result<Self, Self::Err> {
        Self::parse(input)
    }
}

impl Serialize for CardholderName {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for CardholderName {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Self::parse(&text).map_err(de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalizes_whitespace() {
        let name = CardholderName::parse("  Jane   Q.  Doe ").expect("valid");
        assert_eq!(name.as_str(), "Jane Q. Doe");
        assert_eq!(
            CardholderName::parse("José Ñúñez").expect("valid").as_str(),
            "José Ñúñez"
        );
        assert_eq!(
            CardholderName::parse("李\u{3000}小龍")
                .expect("valid")
                .as_str(),
            "李 小龍"
        );
    }

    #[test]
    fn refuses_empty_and_control_characters() {
        assert_eq!(CardholderName::parse(""), Err(CardError::NameRequired));
        assert_eq!(
            CardholderName::parse(" \u{a0} "),
            Err(CardError::NameRequired)
        );
        assert_eq!(
            CardholderName::parse("Jane\tDoe"),
            Err(CardError::InvalidName)
        );
        assert_eq!(
            CardholderName::parse("Jane\nDoe"),
            Err(CardError::InvalidName)
        );
        assert_eq!(
            CardholderName::parse("Jane\u{7f}"),
            Err(CardError::InvalidName)
        );
    }

    #[test]
    fn length_limit_counts_characters() {
        let at_limit = "é".repeat(MAX_NAME_CHARS);
        assert!(CardholderName::parse(&at_limit).is_ok());
        let over = "a".repeat(MAX_NAME_CHARS + 1);
        assert_eq!(
            CardholderName::parse(&over),
            Err(CardError::NameTooLong {
                max: MAX_NAME_CHARS
            })
        );
    }

    #[test]
    fn refuses_number_like_digit_runs() {
        for input in [
            "4242424242424242",
            "Jane 4242 4242 4242",
            "Jane 1234-5678",
            "12.34.56.78",
        ] {
            assert_eq!(
                CardholderName::parse(input),
                Err(CardError::NameContainsNumber),
                "{input}"
            );
        }
        // Two years side by side already make eight digits in one run.
        assert_eq!(
            CardholderName::parse("ACME 2000 1999"),
            Err(CardError::NameContainsNumber)
        );
        for input in [
            "Jane Doe 3rd",
            "Unit 1234567 Ltd",
            "Room 101 Trust",
            "A1B2C3D4E5F6G7H8",
        ] {
            assert!(CardholderName::parse(input).is_ok(), "{input}");
        }
    }

    #[test]
    fn serde_round_trip_validates() {
        let name: CardholderName = serde_json::from_str(r#"" Jane  Doe ""#).expect("valid");
        assert_eq!(
            serde_json::to_string(&name).expect("serializes"),
            r#""Jane Doe""#
        );
        assert!(serde_json::from_str::<CardholderName>(r#""""#).is_err());
    }
}
