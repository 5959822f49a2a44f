//! Reading a secret field (card number, CVC) from a self-describing format such as JSON
//! without ever echoing a wrongly typed value in the error: serde's stock message for a JSON
//! number would quote it, digits and all.

use std::fmt;

use serde::Deserializer;
use serde::de::{self, Unexpected, Visitor};

/// Deserializes a string; any other value fails with a message that names only its kind.
pub(crate) fn deserialize_secret_text<'de, D: Deserializer<'de>>(
    deserializer: D,
    expecting: &'static str,
) -> Result<String, D::Error> {
    // `deserialize_any`, not `deserialize_string`: serde_json answers the latter with its own
    // error for a number token, and that error quotes the number.
    deserializer.deserialize_any(SecretTextVisitor { expecting })
}

struct SecretTextVisitor {
    expecting: &'static str,
}

impl SecretTextVisitor {
    fn refuse_number<E: de::Error>(&self) -> E {
        E::invalid_type(Unexpected::Other("number"), self)
    }
}

impl Visitor<'_> for SecretTextVisitor {
    type Value = String;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.expecting)
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<String, E> {
        Ok(value.to_owned())
    }

    fn visit_string<E: de::Error>(self, value: String) -> Result<String, E> {
        Ok(value)
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<String, E> {
        Err(self.refuse_number())
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<String, E> {
        Err(self.refuse_number())
    }

    fn visit_i128<E: de::Error>(self, _: i128) -> Result<String, E> {
        Err(self.refuse_number())
    }

    fn visit_u128<E: de::Error>(self, _: u128) -> Result<String, E> {
        Err(self.refuse_number())
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<String, E> {
        Err(self.refuse_number())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(json: &str) -> Result<String, serde_json::Error> {
        let mut deserializer = serde_json::Deserializer::from_str(json);
        deserialize_secret_text(&mut deserializer, "a test string")
    }

    #[test]
    fn accepts_strings() {
        assert_eq!(read(r#""4242""#).expect("string"), "4242");
        assert_eq!(read(r#""a\"b""#).expect("escaped string"), "a\"b");
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
            assert!(message.contains("a test string"), "{message}");
        }
    }

    #[test]
    fn refuses_other_kinds() {
        assert!(read("null").is_err());
        assert!(read("[4242]").is_err());
        assert!(read("true").is_err());
    }
}
