//! `Cvc`: the card security code, kept as text ("012" stays "012") in a [`CardSecret`] and
//! never shown.

use std::fmt;
use std::str::FromStr;

use super::brand::Brand;
use super::error::CardError;
use super::secret::CardSecret;

/// Fewest digits a security code has (all brands but Amex).
const MIN_CVC_LENGTH: usize = 3;
/// Most digits a security code has (Amex).
const MAX_CVC_LENGTH: usize = 4;

/// A security code of 3 or 4 ASCII digits.
///
/// `Debug` and `Display` print `***`. The digits leave only through [`Cvc::secret`]. It must
/// never be stored.
#[derive(Clone, PartialEq, Eq)]
pub struct Cvc(CardSecret);

impl Cvc {
    /// Parses a security code; surrounding whitespace is ignored.
    ///
    /// With `Some(brand)` of a known brand the length must be that brand's
    /// ([`Brand::cvc_length`]); with `None` or `Unknown`, 3 or 4 digits are accepted.
    pub fn parse(input: &str, brand: Option<Brand>) -> Result<Self, CardError> {
        let code = input.trim();
        if code.is_empty() {
            return Err(CardError::CvcRequired);
        }
        if !code.bytes().all(|b| b.is_ascii_digit()) {
            return Err(CardError::InvalidCvc);
        }
        check_length(code.len(), brand)?;
        Ok(Self(CardSecret::new(code)))
    }

    /// Checks an already parsed code against the card's brand, for callers that parse the
    /// number and the code separately (e.g. from one JSON body).
    pub fn check_brand(&self, brand: Brand) -> Result<(), CardError> {
        check_length(self.0.expose().len(), Some(brand))
    }

    /// The digits, still masked: for the request body that carries them.
    pub fn secret(&self) -> &CardSecret {
        &self.0
    }
}

/// The accepted length range for `brand`, refused with the range in the error.
fn check_length(length: usize, brand: Option<Brand>) -> Result<(), CardError> {
    let (min, max) = match brand.and_then(Brand::cvc_length) {
        Some(exact) => (exact, exact),
        None => (MIN_CVC_LENGTH, MAX_CVC_LENGTH),
    };
    if (min..=max).contains(&length) {
        Ok(())
    } else {
        Err(CardError::CvcLength {
            min: u8::try_from(min).unwrap_or(u8::MAX),
            max: u8::try_from(max).unwrap_or(u8::MAX),
        })
    }
}

impl fmt::Display for Cvc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

impl fmt::Debug for Cvc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Cvc(***)")
    }
}

impl FromStr for Cvc {
    type Err = CardError;

    /// Brand-agnostic: 3 or 4 digits.
    fn from_str(input: &str) -> Result<Self, Self::Err> {
        Self::parse(input, None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn keeps_leading_zeros() {
        let cvc = Cvc::parse("012", None).expect("valid");
        assert_eq!(cvc.secret().expose(), "012");
        assert_eq!(
            Cvc::parse(" 0123 ", None).expect("valid").secret().expose(),
            "0123"
        );
    }

    #[test]
    fn plain_parse_accepts_three_or_four_digits() {
        assert!(Cvc::parse("123", None).is_ok());
        assert!(Cvc::parse("1234", None).is_ok());
        assert!(Cvc::parse("123", Some(Brand::Unknown)).is_ok());
        let either = CardError::CvcLength { min: 3, max: 4 };
        assert_eq!(Cvc::parse("12", None), Err(either));
        assert_eq!(Cvc::parse("12345", None), Err(either));
    }

    #[test]
    fn brand_decides_the_length() {
        let four = CardError::CvcLength { min: 4, max: 4 };
        let three = CardError::CvcLength { min: 3, max: 3 };
        assert!(Cvc::parse("1234", Some(Brand::Amex)).is_ok());
        assert_eq!(Cvc::parse("123", Some(Brand::Amex)), Err(four));
        assert!(Cvc::parse("123", Some(Brand::Visa)).is_ok());
        assert_eq!(Cvc::parse("1234", Some(Brand::Visa)), Err(three));
        let parsed = Cvc::parse("1234", None).expect("valid");
        assert_eq!(parsed.check_brand(Brand::Amex), Ok(()));
        assert_eq!(parsed.check_brand(Brand::Mastercard), Err(three));
    }

    #[test]
    fn refuses_empty_and_non_digits() {
        assert_eq!(Cvc::parse("", None), Err(CardError::CvcRequired));
        assert_eq!(Cvc::parse("   ", None), Err(CardError::CvcRequired));
        assert_eq!(Cvc::parse("12a", None), Err(CardError::InvalidCvc));
        assert_eq!(Cvc::parse("1 23", None), Err(CardError::InvalidCvc));
        assert_eq!(Cvc::parse("١٢٣", None), Err(CardError::InvalidCvc));
    }

    #[test]
    fn from_str_is_brand_agnostic() {
        let cvc: Cvc = "737".parse().expect("valid");
        assert_eq!(cvc, Cvc::parse("737", None).expect("valid"));
        let too_long = "73737".parse::<Cvc>().expect_err("length");
        assert!(!too_long.to_string().contains("73737"));
    }

    proptest! {
        #[test]
        fn never_shows_its_digits(code in "[0-9]{3,4}") {
            let cvc = Cvc::parse(&code, None).expect("valid");
            prop_assert_eq!(format!("{cvc:?}"), "Cvc(***)");
            prop_assert_eq!(format!("{cvc}"), "***");
            let nested = format!("{:?}", Some(&cvc));
            prop_assert!(!nested.contains(&code));
        }
    }
}
