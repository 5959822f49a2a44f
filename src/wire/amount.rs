//! Amounts in minor units, with the two wire spellings the gateway uses.
//!
//! gateway-interface.md: `amount` is "Sent as a string in requests"; responses carry it as an
//! integer. gateway-notes.md: treat it as an integer count of the currency's minor units
//! (ISO 4217 exponent) and accept a string or a number from real traffic. Fractional values
//! are rejected rather than guessed at: money is never a float here.

use std::fmt;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An amount in the currency's minor units (JPY 1000 = 1000, USD 68.97 = 6897).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct MinorUnits(pub u64);

impl MinorUnits {
    /// The count of minor units.
    pub fn get(self) -> u64 {
        self.0
    }
}

impl fmt::Display for MinorUnits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// An amount as requests carry it: serialised as a JSON string (`"1000"`).
/// Deserialises from a string or a number so the emulator accepts both.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct RequestAmount(pub MinorUnits);

/// An amount as responses carry it: serialised as a JSON number (`1000`).
/// Deserialises from a number or a string, because real traffic sends both.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct ResponseAmount(pub MinorUnits);

impl RequestAmount {
    /// Wraps a count of minor units.
    pub fn new(minor_units: u64) -> Self {
        Self(MinorUnits(minor_units))
    }

    /// The count of minor units.
    pub fn minor_units(self) -> u64 {
        self.0.0
    }
}

impl ResponseAmount {
    /// Wraps a count of minor units.
    pub fn new(minor_units: u64) -> Self {
        Self(MinorUnits(minor_units))
    }

    /// The count of minor units.
    pub fn minor_units(self) -> u64 {
        self.0.0
    }
}

impl From<MinorUnits> for RequestAmount {
    fn from(value: MinorUnits) -> Self {
        Self(value)
    }
}

impl From<MinorUnits> for ResponseAmount {
    fn from(value: MinorUnits) -> Self {
        Self(value)
    }
}

impl Serialize for RequestAmount {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&self.0)
    }
}

impl Serialize for ResponseAmount {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u64(self.0.0)
    }
}

impl<'de> Deserialize<'de> for RequestAmount {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(MinorUnitsVisitor).map(Self)
    }
}

impl<'de> Deserialize<'de> for ResponseAmount {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(MinorUnitsVisitor).map(Self)
    }
}

/// Accepts a non-negative integer given as a number or as a string of ASCII digits.
struct MinorUnitsVisitor;

impl Visitor<'_> for MinorUnitsVisitor {
    type Value = MinorUnits;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a non-negative whole amount in minor units, as a number or a string of digits")
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<MinorUnits, E> {
        Ok(MinorUnits(value))
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<MinorUnits, E> {
        u64::try_from(value)
            .map(MinorUnits)
            .map_err(|_| E::invalid_value(de::Unexpected::Signed(value), &self))
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<MinorUnits, E> {
        Err(E::invalid_value(de::Unexpected::Float(value), &self))
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<MinorUnits, E> {
        if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
            return Err(E::invalid_value(de::Unexpected::Str(value), &self));
        }
        value
            .parse::<u64>()
            .map(MinorUnits)
            .map_err(|_| E::invalid_value(de::Unexpected::Str(value), &self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_amount_serialises_as_string() {
        assert_eq!(
            serde_json::to_string(&RequestAmount::new(6897)).unwrap(),
            "\"6897\""
        );
    }

    #[test]
    fn response_amount_serialises_as_number() {
        assert_eq!(
            serde_json::to_string(&ResponseAmount::new(1000)).unwrap(),
            "1000"
        );
    }

    #[test]
    fn both_accept_string_and_number() {
        for text in ["\"1000\"", "1000"] {
            assert_eq!(
                serde_json::from_str::<RequestAmount>(text)
                    .unwrap()
                    .minor_units(),
                1000
            );
            assert_eq!(
                serde_json::from_str::<ResponseAmount>(text)
                    .unwrap()
                    .minor_units(),
                1000
            );
        }
    }

    #[test]
    fn rejects_fractions_signs_and_junk() {
        for text in [
            "10.5",
            "\"10.50\"",
            "-1",
            "\"-1\"",
            "\"\"",
            "\"12a\"",
            "\" 12\"",
            "null",
            "true",
        ] {
            assert!(
                serde_json::from_str::<ResponseAmount>(text).is_err(),
                "{text}"
            );
        }
    }

    #[test]
    fn rejects_overflow() {
        assert!(serde_json::from_str::<RequestAmount>("\"99999999999999999999999\"").is_err());
    }
}
