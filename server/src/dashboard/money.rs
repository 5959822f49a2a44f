//! Amounts as staff type and read them: in the currency's own unit with its ISO 4217 exponent
//! (`12.34` EUR is 1234 minor units, `1234` JPY is 1234, `1.234` KWD is 1234), parsed as
//! decimal digits, never through floating point, and shown with the same table the card form
//! uses (`checkout::currency`).

use checkout::currency::{self, Currency, exponent_or_two};

/// Why a typed amount was refused (the message names the rule; the caller names the field).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AmountError {
    /// Not digits with at most one decimal point.
    #[error("must be a number such as {example}")]
    NotANumber {
        /// A valid example in the currency.
        example: String,
    },
    /// More decimals than the currency has.
    #[error("{code} has {exponent} decimal places")]
    TooPrecise {
        /// The currency.
        code: String,
        /// Its exponent.
        exponent: u8,
    },
    /// Larger than any amount can be.
    #[error("is too large")]
    TooLarge,
}

/// Minor units of `text` in `currency` (`"12.5"` EUR → 1250). Leading and trailing spaces are
/// ignored; signs, exponents, thousands separators and commas are refused.
pub fn parse_major(text: &str, currency: &str) -> Result<u64, AmountError> {
    let exponent = exponent_or_two(currency);
    let text = text.trim();
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let has_point = text.contains('.');
    if whole.is_empty() || !digits(whole) || !digits(fraction) || (has_point && fraction.is_empty())
    {
        return Err(AmountError::NotANumber {
            example: example(exponent),
        });
    }
    if fraction.len() > usize::from(exponent) {
        return Err(AmountError::TooPrecise {
            code: currency.to_owned(),
            exponent,
        });
    }
    let padded = format!("{whole}{fraction:0<width$}", width = usize::from(exponent));
    let minor: u64 = padded.parse().map_err(|_| AmountError::TooLarge)?;
    // The store keeps amounts as signed 64-bit integers.
    if i64::try_from(minor).is_err() {
        return Err(AmountError::TooLarge);
    }
    Ok(minor)
}

/// `minor` units of `currency` for people: `12.34 EUR`, `1234 JPY`.
pub fn format(minor: u64, currency: &str) -> String {
    match Currency::find(currency) {
        Some(known) => known.format_minor(minor),
        None => format!("{minor} (minor units) {currency}"),
    }
}

/// `minor` in major units without the code, as a form field's value: `12.34`.
pub fn major_text(minor: u64, currency: &str) -> String {
    currency::major_text(minor, exponent_or_two(currency))
}

fn example(exponent: u8) -> String {
    if exponent == 0 {
        "1250".to_owned()
    } else {
        format!("12.{}", "5".repeat(usize::from(exponent)))
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn amounts_follow_the_currency_exponent() {
        assert_eq!(parse_major("12.34", "EUR"), Ok(1234));
        assert_eq!(parse_major(" 12.5 ", "EUR"), Ok(1250));
        assert_eq!(parse_major("12", "EUR"), Ok(1200));
        assert_eq!(parse_major("0.01", "EUR"), Ok(1));
        assert_eq!(parse_major("1234", "JPY"), Ok(1234));
        assert_eq!(parse_major("1.234", "KWD"), Ok(1234));
        assert!(matches!(
            parse_major("12.5", "JPY"),
            Err(AmountError::TooPrecise { exponent: 0, .. })
        ));
        assert!(matches!(
            parse_major("0.001", "EUR"),
            Err(AmountError::TooPrecise { .. })
        ));
        for bad in [
            "", "-1", "+1", "1e3", "1,5", "12.", ".5", "1 000", "abc", "1.2.3",
        ] {
            assert!(
                matches!(parse_major(bad, "EUR"), Err(AmountError::NotANumber { .. })),
                "{bad}"
            );
        }
        assert_eq!(
            parse_major("99999999999999999999", "EUR"),
            Err(AmountError::TooLarge)
        );
        assert_eq!(
            parse_major("92233720368547758.08", "EUR"),
            Err(AmountError::TooLarge)
        );
    }

    #[test]
    fn formats_use_the_exponent() {
        assert_eq!(format(1234, "EUR"), "12.34 EUR");
        assert_eq!(format(1234, "JPY"), "1234 JPY");
        assert_eq!(major_text(1205, "EUR"), "12.05");
        assert_eq!(major_text(7, "KWD"), "0.007");
    }

    proptest! {
        #[test]
        fn major_text_parses_back(minor in 0u64..=i64::MAX as u64, code in prop::sample::select(vec!["EUR", "JPY", "KWD", "CLF"])) {
            prop_assert_eq!(parse_major(&major_text(minor, code), code), Ok(minor));
        }
    }
}
