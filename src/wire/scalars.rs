//! Small tolerant scalars: transaction `ref`, timestamps, and lenient field helpers.
//!
//! gateway-notes.md: "Responses are inconsistent and a client must accept every variant".
//! The contract types `ref` as an integer; real traffic may quote it. Timestamp formats are
//! not pinned by the contract, so they are kept verbatim with a best-effort parser.

use std::fmt;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

/// `transaction_details.ref` / subscription transaction `ref`: an integer in the contract,
/// a string in some traffic. Serialises back in the form it was read.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TransactionRef {
    /// The documented integer form.
    Number(u64),
    /// A quoted form, kept verbatim.
    Text(String),
}

impl TransactionRef {
    /// The reference as an integer, when it is one (also for digit-only strings).
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Self::Number(n) => Some(*n),
            Self::Text(text) => text.parse().ok(),
        }
    }
}

impl fmt::Display for TransactionRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Number(n) => write!(f, "{n}"),
            Self::Text(text) => f.write_str(text),
        }
    }
}

impl Serialize for TransactionRef {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Number(n) => serializer.serialize_u64(*n),
            Self::Text(text) => serializer.serialize_str(text),
        }
    }
}

impl<'de> Deserialize<'de> for TransactionRef {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct RefVisitor;
        impl Visitor<'_> for RefVisitor {
            type Value = TransactionRef;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a transaction reference as an integer or a string")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<TransactionRef, E> {
                Ok(TransactionRef::Number(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<TransactionRef, E> {
                Ok(u64::try_from(v).map_or_else(
                    |_| TransactionRef::Text(v.to_string()),
                    TransactionRef::Number,
                ))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<TransactionRef, E> {
                Ok(TransactionRef::Text(v.to_owned()))
            }
        }
        deserializer.deserialize_any(RefVisitor)
    }
}

/// A date-time as the gateway sent it. The contract says "date-time" without a format, so
/// the text is kept verbatim and [`GatewayTimestamp::parse`] tries the likely forms.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct GatewayTimestamp(pub String);

impl GatewayTimestamp {
    /// Formats `at` as RFC 3339 (the form the emulator writes).
    pub fn from_datetime(at: OffsetDateTime) -> Self {
        Self(
            at.format(&Rfc3339)
                .unwrap_or_else(|_| at.unix_timestamp().to_string()),
        )
    }

    /// The text as received.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Parses RFC 3339, `YYYY-MM-DD HH:MM:SS` (taken as UTC) or `YYYY-MM-DD` (midnight UTC).
    pub fn parse(&self) -> Option<OffsetDateTime> {
        let text = self.0.trim();
        if let Ok(at) = OffsetDateTime::parse(text, &Rfc3339) {
            return Some(at);
        }
        let space_form =
            time::macros::format_description!("[year]-[month]-[day] [hour]:[minute]:[second]");
        if let Ok(at) = time::PrimitiveDateTime::parse(text, &space_form) {
            return Some(at.assume_utc());
        }
        let date_form = time::macros::format_description!("[year]-[month]-[day]");
        time::Date::parse(text, &date_form)
            .ok()
            .map(|date| date.midnight().assume_utc())
    }
}

/// Serde helpers for fields whose JSON type drifts in real traffic.
pub mod lenient {
    use std::fmt;

    use serde::de::{self, Visitor};
    use serde::{Deserialize, Deserializer};

    /// Reads a string, also accepting a number or boolean (kept as its decimal text).
    pub fn string<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
        deserializer.deserialize_any(StringVisitor)
    }

    /// Like [`string`], for an optional field where `null` means absent.
    pub fn opt_string<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<String>, D::Error> {
        Option::<LenientString>::deserialize(deserializer).map(|v| v.map(|s| s.0))
    }

    /// Reads an integer, also accepting a string of digits (with an optional leading `-`).
    pub fn int<'de, D, T>(deserializer: D) -> Result<T, D::Error>
    where
        D: Deserializer<'de>,
        T: TryFrom<i64>,
    {
        let value = deserializer.deserialize_any(IntVisitor)?;
        T::try_from(value)
            .map_err(|_| de::Error::custom(format!("integer {value} is out of range")))
    }

    /// Like [`int`], for an optional field where `null` means absent.
    pub fn opt_int<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
    where
        D: Deserializer<'de>,
        T: TryFrom<i64>,
    {
        match Option::<LenientInt>::deserialize(deserializer)? {
            None => Ok(None),
            Some(LenientInt(value)) => T::try_from(value)
                .map(Some)
                .map_err(|_| de::Error::custom(format!("integer {value} is out of range"))),
        }
    }

    /// Tells an absent field (`None`) from an explicit `null` (`Some(None)`), so that a key
    /// the contract says "may be null" is re-serialised exactly as it arrived.
    pub fn nullable<'de, D, T>(deserializer: D) -> Result<Option<Option<T>>, D::Error>
    where
        D: Deserializer<'de>,
        T: Deserialize<'de>,
    {
        Option::<T>::deserialize(deserializer).map(Some)
    }

    struct LenientString(String);
    impl<'de> Deserialize<'de> for LenientString {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            string(d).map(LenientString)
        }
    }

    struct LenientInt(i64);
    impl<'de> Deserialize<'de> for LenientInt {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            int(d).map(LenientInt)
        }
    }

    struct StringVisitor;
    impl Visitor<'_> for StringVisitor {
        type Value = String;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a string")
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<String, E> {
            Ok(v.to_owned())
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<String, E> {
            Ok(v.to_string())
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<String, E> {
            Ok(v.to_string())
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> Result<String, E> {
            Ok(v.to_string())
        }
        fn visit_bool<E: de::Error>(self, v: bool) -> Result<String, E> {
            Ok(v.to_string())
        }
    }

    struct IntVisitor;
    impl Visitor<'_> for IntVisitor {
        type Value = i64;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an integer or a string of digits")
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<i64, E> {
            Ok(v)
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<i64, E> {
            i64::try_from(v).map_err(|_| E::invalid_value(de::Unexpected::Unsigned(v), &self))
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<i64, E> {
            v.trim()
                .parse()
                .map_err(|_| E::invalid_value(de::Unexpected::Str(v), &self))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ref_keeps_its_form() {
        let number: TransactionRef = serde_json::from_str("12345").unwrap();
        let text: TransactionRef = serde_json::from_str("\"12345\"").unwrap();
        assert_eq!(serde_json::to_string(&number).unwrap(), "12345");
        assert_eq!(serde_json::to_string(&text).unwrap(), "\"12345\"");
        assert_eq!(text.as_u64(), Some(12345));
    }

    #[test]
    fn timestamps_parse_in_common_forms() {
        for text in [
            "2024-05-01T10:20:30Z",
            "2024-05-01T10:20:30.123+09:00",
            "2024-05-01 10:20:30",
            "2024-05-01",
        ] {
            assert!(GatewayTimestamp(text.into()).parse().is_some(), "{text}");
        }
        assert!(GatewayTimestamp("yesterday".into()).parse().is_none());
    }
}
