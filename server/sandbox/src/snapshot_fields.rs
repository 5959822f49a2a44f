//! How the fields without a plain serde form are written into the sealed snapshot (and read
//! back with the same rules the emulator applies to a request):
//!
//! - [`card_digits`]: a `CardNumber` as its digits. This is the one place the emulator writes
//!   a full card number anywhere, and it is only ever used for the snapshot, which is
//!   encrypted before it leaves memory (`crate::persist::seal`). `CardNumber`'s `Debug` and
//!   `Display` stay masked; nothing else serializes it.
//! - [`expiry_date`]: an `Expiry` as `[year, month]`, valid again at load even when the card
//!   has expired since (the charge path checks expiry against the clock, not the loader).
//! - [`currency_code`]: a `Currency` as its ISO 4217 code.
//! - [`gateway_code`]: a `gateway_response.code` (`&'static str`) as text, read back as the
//!   emulator's own constant; an unknown code is refused.

/// `CardNumber` ⇄ its digits, for the sealed snapshot only (see the module header).
pub mod card_digits {
    use checkout::card::CardNumber;
    use serde::{Deserialize, Deserializer, Serializer};

    /// Writes the full digits. Only the snapshot's serializer may call this: its output is
    /// sealed with AES-256-GCM before it is written.
    pub fn serialize<S: Serializer>(number: &CardNumber, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(number.secret().expose())
    }

    /// Reads the digits back through `CardNumber::parse` (Luhn, brand length); the error
    /// never quotes them.
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<CardNumber, D::Error> {
        let digits = secrecy::zeroize::Zeroizing::new(String::deserialize(deserializer)?);
        CardNumber::parse(&digits).map_err(|_| {
            serde::de::Error::custom("a stored card number is not a valid card number")
        })
    }
}

/// `Expiry` ⇄ `[year, month]`.
pub mod expiry_date {
    use checkout::card::{Expiry, YearMonth};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    /// Writes `[year, month]`.
    pub fn serialize<S: Serializer>(expiry: &Expiry, serializer: S) -> Result<S::Ok, S::Error> {
        (expiry.year(), expiry.month()).serialize(serializer)
    }

    /// Reads `[year, month]`: a four-digit year and a month 1–12.
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Expiry, D::Error> {
        let (year, month) = <(u16, u8)>::deserialize(deserializer)?;
        let invalid = || serde::de::Error::custom(format!("invalid expiry {year}-{month}"));
        // Parsed "as of" its own month, so a card that has expired since still loads.
        let itself = YearMonth::new(year, month).ok_or_else(invalid)?;
        Expiry::parse(&month.to_string(), &format!("{year:04}"), itself).map_err(|_| invalid())
    }
}

/// `Currency` ⇄ its code.
pub mod currency_code {
    use checkout::currency::Currency;
    use serde::{Deserialize, Deserializer, Serializer};

    /// Writes the ISO 4217 code.
    pub fn serialize<S: Serializer>(currency: &Currency, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(currency.code)
    }

    /// Reads an active ISO 4217 code.
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Currency, D::Error> {
        let code = String::deserialize(deserializer)?;
        Currency::find(&code)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown currency {code:?}")))
    }
}

/// A `gateway_response.code` ⇄ text.
pub mod gateway_code {
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::error::codes;

    /// Every code a recorded decline can carry, and the others for completeness.
    const KNOWN: &[&str] = &[
        codes::UNAUTHORIZED,
        codes::MALFORMED_BODY,
        codes::INVALID_FIELD,
        codes::INVALID_CARD,
        codes::NOT_FOUND,
        codes::BODY_TOO_LARGE,
        codes::UNKNOWN_TOKEN,
        codes::METHOD_NOT_ALLOWED,
        codes::CAPTURE_NOT_AUTHORIZATION,
        codes::CAPTURE_EXCEEDS_AUTHORIZED,
        codes::CAPTURE_NOT_OPEN,
        codes::REFUND_NOT_CAPTURED,
        codes::REFUND_EXCEEDS_CAPTURED,
        codes::VOID_NOT_OPEN,
        codes::NOT_APPROVED,
        codes::ISSUER_DECLINED,
        codes::THREE_DS_REJECTED,
        codes::RISK_VELOCITY,
        codes::INJECTED_FAULT,
        codes::INTERNAL,
    ];

    /// Writes the code.
    pub fn serialize<S: Serializer>(code: &&'static str, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(code)
    }

    /// Reads a code back as the emulator's constant.
    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<&'static str, D::Error> {
        let code = String::deserialize(deserializer)?;
        KNOWN
            .iter()
            .find(|known| **known == code)
            .copied()
            .ok_or_else(|| serde::de::Error::custom(format!("unknown gateway code {code:?}")))
    }
}

#[cfg(test)]
mod tests {
    use checkout::card::{CardNumber, Expiry, YearMonth};
    use checkout::currency::Currency;
    use serde::{Deserialize, Serialize};

    /// `&'static str` behind a name, as the ledger's `GatewayCode` is: serde borrows a field
    /// spelled `&str`.
    type Code = &'static str;

    #[derive(Debug, Serialize, Deserialize)]
    struct Fields {
        #[serde(with = "super::card_digits")]
        number: CardNumber,
        #[serde(with = "super::expiry_date")]
        expiry: Expiry,
        #[serde(with = "super::currency_code")]
        currency: Currency,
        #[serde(with = "super::gateway_code")]
        code: Code,
    }

    #[test]
    fn every_field_round_trips() {
        let today = YearMonth::new(2026, 1).expect("valid");
        let fields = Fields {
            number: CardNumber::parse("4242424242424242").expect("valid"),
            expiry: Expiry::parse("05", "30", today).expect("valid"),
            currency: Currency::find("JPY").expect("known"),
            code: crate::error::codes::ISSUER_DECLINED,
        };
        let json = serde_json::to_string(&fields).expect("serialize");
        assert_eq!(
            json,
            r#"{"number":"4242424242424242","expiry":[2030,5],"currency":"JPY","code":"ERR2001"}"#
        );
        let back: Fields = serde_json::from_str(&json).expect("deserialize");
        assert_eq!(back.number, fields.number);
        assert_eq!(back.expiry, fields.expiry);
        assert_eq!(back.currency, fields.currency);
        assert_eq!(back.code, fields.code);
    }

    #[test]
    fn an_expired_card_still_loads() {
        let json =
            r#"{"number":"4242424242424242","expiry":[2001,2],"currency":"USD","code":"ERR2002"}"#;
        let back: Fields = serde_json::from_str(json).expect("deserialize");
        assert_eq!((back.expiry.year(), back.expiry.month()), (2001, 2));
    }

    #[test]
    fn bad_values_are_refused_without_quoting_digits() {
        let bad_number =
            r#"{"number":"4242424242424241","expiry":[2030,5],"currency":"USD","code":"ERR2001"}"#;
        let error = serde_json::from_str::<Fields>(bad_number).expect_err("refused");
        assert!(!error.to_string().contains("424242424242424"), "{error}");
        for bad in [
            r#"{"number":"4242424242424242","expiry":[2030,13],"currency":"USD","code":"ERR2001"}"#,
            r#"{"number":"4242424242424242","expiry":[2030,5],"currency":"XXX","code":"ERR2001"}"#,
            r#"{"number":"4242424242424242","expiry":[2030,5],"currency":"USD","code":"NOPE"}"#,
        ] {
            assert!(serde_json::from_str::<Fields>(bad).is_err(), "{bad}");
        }
    }
}
