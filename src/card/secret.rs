//! `CardSecret`: the one masking type for a card number or security code. The value lives in it
//! from the form's parse to the gateway request body, in the browser, the server and the
//! emulator alike.
//!
//! - `Debug` prints `CardSecret([redacted])`; there is no `Display` and no `Serialize`.
//! - Reading it from JSON never echoes a wrongly typed value: serde's stock message for a JSON
//!   number would quote it, digits and all.
//! - The text sits in a `secrecy::SecretString`, so its memory is zeroed when dropped.
//! - [`CardSecret::expose`] is the one way to the value. A request body writes it with
//!   `#[serde(serialize_with = "CardSecret::serialize_exposed")]`, which calls `expose`.

use std::fmt;

use secrecy::zeroize::Zeroizing;
use secrecy::{ExposeSecret, SecretString};
use serde::de::{self, Unexpected, Visitor};
use serde::{Deserialize, Deserializer, Serializer};

/// A card number or security code that never shows itself.
#[derive(Clone)]
pub struct CardSecret(SecretString);

impl CardSecret {
    /// Wraps a value; the caller's copy is its own to drop or zero.
    pub fn new(value: &str) -> Self {
        Self(SecretString::from(value))
    }

    /// The value. Call it only to check the value with the card rules or to write it into a
    /// request body; never log, store or show what it returns.
    pub fn expose(&self) -> &str {
        self.0.expose_secret()
    }

    /// Writes the value as a JSON string: for the fields of a request body that carries it.
    pub fn serialize_exposed<S: Serializer>(
        secret: &Self,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(secret.expose())
    }
}

impl PartialEq for CardSecret {
    fn eq(&self, other: &Self) -> bool {
        self.expose() == other.expose()
    }
}

impl Eq for CardSecret {}

impl fmt::Debug for CardSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("CardSecret([redacted])")
    }
}

impl<'de> Deserialize<'de> for CardSecret {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // `deserialize_any`, not `deserialize_string`: serde_json answers the latter with its own
        // error for a number token, and that error quotes the number.
        deserializer.deserialize_any(TextOnly)
    }
}

/// Accepts a string; refuses every other kind with a message that names only the kind.
struct TextOnly;

impl TextOnly {
    fn refuse_number<E: de::Error>(&self) -> E {
        E::invalid_type(Unexpected::Other("number"), self)
    }
}

impl Visitor<'_> for TextOnly {
    type Value = CardSecret;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a string")
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<CardSecret, E> {
        Ok(CardSecret::new(value))
    }

    fn visit_string<E: de::Error>(self, value: String) -> Result<CardSecret, E> {
        Ok(CardSecret::new(&Zeroizing::new(value)))
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<CardSecret, E> {
        Err(self.refuse_number())
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<CardSecret, E> {
        Err(self.refuse_number())
    }

    fn visit_i128<E: de::Error>(self, _: i128) -> Result<CardSecret, E> {
        Err(self.refuse_number())
    }

    fn visit_u128<E: de::Error>(self, _: u128) -> Result<CardSecret, E> {
        Err(self.refuse_number())
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<CardSecret, E> {
        Err(self.refuse_number())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde::Serialize;

    fn read(json: &str) -> Result<CardSecret, serde_json::Error> {
        serde_json::from_str(json)
    }

    /// A body that carries the value, as `contract::CardFields` and `wire::Card` do.
    #[derive(Serialize)]
    struct Body {
        #[serde(serialize_with = "CardSecret::serialize_exposed")]
        number: CardSecret,
    }

    #[test]
    fn reads_strings_and_writes_them_only_through_the_exposing_serializer() {
        let secret = read(r#""4242 4242""#).expect("string");
        assert_eq!(secret.expose(), "4242 4242");
        assert_eq!(read(r#""a\"b""#).expect("escaped").expose(), "a\"b");
        let body = serde_json::to_string(&Body { number: secret }).expect("serialises");
        assert_eq!(body, r#"{"number":"4242 4242"}"#);
    }

    #[test]
    fn refuses_numbers_without_quoting_them() {
        for json in [
            "4242424242424242",
            "-4242424242424242",
            "4242424242424242.5",
            "1e30",
        ] {
            let message = read(json).expect_err("a number").to_string();
            assert!(!message.contains("4242"), "{message}");
            assert!(message.contains("expected a string"), "{message}");
        }
    }

    #[test]
    fn refuses_other_kinds() {
        assert!(read("null").is_err());
        assert!(read("[4242]").is_err());
        assert!(read("true").is_err());
        assert!(read(r#"{"n":"4242"}"#).is_err());
    }

    proptest! {
        #[test]
        fn debug_never_shows_the_value(value in "[0-9 ]{3,23}") {
            let secret = CardSecret::new(&value);
            prop_assert_eq!(format!("{secret:?}"), "CardSecret([redacted])");
            prop_assert_eq!(format!("{:#?}", Some(&secret)), "Some(\n    CardSecret([redacted]),\n)");
        }
    }
}
