//! Whole numbers in request bodies. JSON has one number type (RFC 8259), and JSON Schema's
//! `integer` — what the OpenAPI document says of amounts and counts — takes `25485.0` as well
//! as `25485`; so an amount or a count is read from either, as long as it has no fraction and
//! fits. `null` is the same as leaving the field out (the document says so: `["integer",
//! "null"]`). Anything else is refused with the field named, in words, not a Rust type.

use std::fmt;

use serde::Deserializer;
use serde::de::{self, Visitor};

/// 2^64: every whole double below it is a `u64`.
const ABOVE_U64: f64 = 18_446_744_073_709_551_616.0;

/// An optional whole number: absent or `null` is `None`.
pub fn optional<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<u64>, D::Error> {
    deserializer.deserialize_any(WholeOrNull)
}

struct WholeOrNull;

impl<'de> Visitor<'de> for WholeOrNull {
    type Value = Option<u64>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a whole number of zero or more")
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<Self::Value, E> {
        Ok(Some(value))
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<Self::Value, E> {
        u64::try_from(value)
            .map(Some)
            .map_err(|_| E::invalid_value(de::Unexpected::Signed(value), &self))
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<Self::Value, E> {
        if value.fract() == 0.0 && (0.0..ABOVE_U64).contains(&value) {
            // Exact: a whole double below 2^64 is that integer.
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            Ok(Some(value as u64))
        } else {
            Err(E::invalid_value(de::Unexpected::Float(value), &self))
        }
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    struct Body {
        #[serde(default, deserialize_with = "super::optional")]
        amount: Option<u64>,
    }

    fn read(json: &str) -> Result<Option<u64>, String> {
        serde_json::from_str::<Body>(json)
            .map(|body| body.amount)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn whole_numbers_in_either_spelling() {
        assert_eq!(read(r#"{"amount": 25485}"#), Ok(Some(25_485)));
        assert_eq!(read(r#"{"amount": 25485.0}"#), Ok(Some(25_485)));
        assert_eq!(read(r#"{"amount": 1e3}"#), Ok(Some(1_000)));
        assert_eq!(read(r#"{"amount": null}"#), Ok(None));
        assert_eq!(read("{}"), Ok(None));
    }

    #[test]
    fn fractions_negatives_and_text_are_refused_in_words() {
        for bad in ["1.5", "-1", "-1.0", "\"12\"", "true", "1e300", "2e19"] {
            let error = read(&format!(r#"{{"amount": {bad}}}"#)).expect_err(bad);
            assert!(error.contains("a whole number"), "{bad}: {error}");
        }
    }
}
