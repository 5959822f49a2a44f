//! `CardNumber`: a validated card number that never shows more than its first six and last
//! four digits. The digits live in its [`CardSecret`].

use std::fmt;
use std::str::FromStr;

use secrecy::zeroize::Zeroizing;

use super::brand::Brand;
use super::error::CardError;
use super::luhn;
use super::secret::CardSecret;

/// Fewest digits of any card number.
pub const MIN_NUMBER_LENGTH: usize = 12;
/// Most digits of any card number.
pub const MAX_NUMBER_LENGTH: usize = 19;

/// Leading digits shown when masked (the BIN).
const SHOWN_PREFIX: usize = 6;
/// Trailing digits shown when masked.
const SHOWN_SUFFIX: usize = 4;
/// What stands for the hidden digits, whatever their count: the gateway's masked form.
const HIDDEN: &str = "******";

/// A card number that is all digits, 12–19 long, valid for its brand and passes Luhn.
///
/// `Debug` and `Display` print the masked form the gateway uses for every length: first six,
/// six `*`, last four (`520000******1005`). The digits leave only through
/// [`CardNumber::secret`].
#[derive(Clone, PartialEq, Eq)]
pub struct CardNumber {
    digits: CardSecret,
    brand: Brand,
}

impl CardNumber {
    /// Parses what a person typed or pasted: spaces and dashes are dropped, anything else
    /// besides ASCII digits is refused. Checks length (overall and for the detected brand),
    /// then Luhn.
    pub fn parse(input: &str) -> Result<Self, CardError> {
        // Zeroed when dropped, on every path: it holds the digits until they are in the secret.
        let mut digits = Zeroizing::new(String::with_capacity(MAX_NUMBER_LENGTH));
        for ch in input.chars() {
            match ch {
                ' ' | '-' => {}
                '0'..='9' if digits.len() < MAX_NUMBER_LENGTH => digits.push(ch),
                '0'..='9' => return Err(CardError::NumberTooLong),
                _ => return Err(CardError::InvalidNumber),
            }
        }
        if digits.is_empty() {
            return Err(CardError::NumberRequired);
        }
        if digits.len() < MIN_NUMBER_LENGTH {
            return Err(CardError::IncompleteNumber);
        }
        let brand = Brand::detect(&digits);
        if !brand.is_valid_length(digits.len()) {
            return Err(if digits.len() < brand.max_length() {
                CardError::IncompleteNumber
            } else {
                CardError::NumberTooLong
            });
        }
        if !luhn::is_valid(&digits) {
            return Err(CardError::LuhnFailed);
        }
        Ok(Self {
            digits: CardSecret::new(&digits),
            brand,
        })
    }

    /// The brand the number's leading digits indicate (`Unknown` if none).
    pub fn brand(&self) -> Brand {
        self.brand
    }

    /// The first six digits: the issuer identification number.
    pub fn bin(&self) -> &str {
        &self.digits.expose()[..SHOWN_PREFIX]
    }

    /// The last four digits.
    pub fn last4(&self) -> &str {
        let digits = self.digits.expose();
        &digits[digits.len() - SHOWN_SUFFIX..]
    }

    /// Number of digits.
    pub fn len(&self) -> usize {
        self.digits.expose().len()
    }

    /// Always false: a parsed number has at least 12 digits. Present for API symmetry.
    pub fn is_empty(&self) -> bool {
        self.digits.expose().is_empty()
    }

    /// The digits, still masked: for the request body that carries them.
    pub fn secret(&self) -> &CardSecret {
        &self.digits
    }
}

impl fmt::Display for CardNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.bin())?;
        f.write_str(HIDDEN)?;
        f.write_str(self.last4())
    }
}

impl fmt::Debug for CardNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CardNumber({self})")
    }
}

impl FromStr for CardNumber {
    type Err = CardError;

    fn from_str(input: &str) -> Result<Self, Self::Err> {
        Self::parse(input)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn parse(input: &str) -> Result<CardNumber, CardError> {
        CardNumber::parse(input)
    }

    #[test]
    fn parses_known_test_cards() {
        let cases = [
            ("4242424242424242", Brand::Visa),
            ("5200000000001005", Brand::Mastercard),
            ("4000002500003155", Brand::Visa),
            ("4000000000001091", Brand::Visa),
            ("4000000000001000", Brand::Visa),
            ("378282246310005", Brand::Amex),
            ("6011111111111117", Brand::Discover),
            ("3056930009020004", Brand::DinersClub),
            ("3566002020360505", Brand::Jcb),
            ("6200000000000005", Brand::UnionPay),
            ("2223003122003222", Brand::Mastercard),
            ("6362970000457013", Brand::Elo),
        ];
        for (input, brand) in cases {
            let number = parse(input).unwrap_or_else(|e| panic!("{input}: {e}"));
            assert_eq!(number.brand(), brand, "{input}");
            assert_eq!(number.secret().expose(), input);
        }
    }

    #[test]
    fn parses_computed_numbers_of_other_brands() {
        let cases = [
            ("220000000000000", Brand::Mir),
            ("608001000000000", Brand::RuPay),
            ("675964982643845", Brand::Maestro),
            ("675964982643", Brand::Maestro),
            ("450644500693193", Brand::Interac),
            ("497010000000000", Brand::CartesBancaires),
            ("123456789012345678", Brand::Unknown),
        ];
        for (payload, brand) in cases {
            let full = luhn::with_check_digit(payload).expect("digits");
            let number = parse(&full).unwrap_or_else(|e| panic!("{full}: {e}"));
            assert_eq!(number.brand(), brand, "{full}");
        }
    }

    #[test]
    fn strips_spaces_and_dashes_only() {
        let number = parse(" 4242 4242-4242 4242 ").expect("separators allowed");
        assert_eq!(number.secret().expose(), "4242424242424242");
        assert_eq!(parse("4242.4242.4242.4242"), Err(CardError::InvalidNumber));
        assert_eq!(
            parse("4242\t4242424242424242"),
            Err(CardError::InvalidNumber)
        );
        assert_eq!(parse("４２４２424242424242"), Err(CardError::InvalidNumber));
    }

    #[test]
    fn length_errors() {
        assert_eq!(parse(""), Err(CardError::NumberRequired));
        assert_eq!(parse(" - "), Err(CardError::NumberRequired));
        assert_eq!(parse("42424242"), Err(CardError::IncompleteNumber));
        assert_eq!(parse("42424242424242424242"), Err(CardError::NumberTooLong));
        // Fifteen digits are too few for Visa, sixteen too many for Amex: before any Luhn check.
        assert_eq!(parse("424242424242424"), Err(CardError::IncompleteNumber));
        let amex_16 = luhn::with_check_digit("378282246310005").expect("digits");
        assert_eq!(parse(&amex_16), Err(CardError::NumberTooLong));
    }

    #[test]
    fn luhn_failure() {
        assert_eq!(parse("4242424242424241"), Err(CardError::LuhnFailed));
    }

    #[test]
    fn masks_everything_but_bin_and_last_four() {
        let number = parse("5200000000001005").expect("valid");
        assert_eq!(number.bin(), "520000");
        assert_eq!(number.last4(), "1005");
        assert_eq!(number.to_string(), "520000******1005");
        assert_eq!(format!("{number:?}"), "CardNumber(520000******1005)");
        let amex = parse("378282246310005").expect("valid");
        assert_eq!(amex.to_string(), "378282******0005");
        assert_eq!(amex.len(), 15);
    }

    #[test]
    fn from_str_validates() {
        let number: CardNumber = "4242 4242 4242 4242".parse().expect("valid");
        assert_eq!(number.last4(), "4242");
        let bad = "4242424242424241".parse::<CardNumber>().expect_err("luhn");
        assert!(bad.to_string().contains("not valid"));
    }

    /// A valid number of the given prefix and total length.
    fn complete(prefix: &str, fill: &str, length: usize) -> String {
        let mut payload = String::from(prefix);
        payload.push_str(&fill[..length - 1 - prefix.len()]);
        luhn::with_check_digit(&payload).expect("digits")
    }

    proptest! {
        #[test]
        fn debug_and_display_never_show_the_number(
            fill in "[0-9]{18}",
            length in MIN_NUMBER_LENGTH..=MAX_NUMBER_LENGTH,
        ) {
            let digits = complete("99", &fill, length);
            let number = CardNumber::parse(&digits).expect("unknown brand, any length");
            let debug = format!("{number:?}");
            let display = format!("{number}");
            prop_assert!(!debug.contains(&digits));
            prop_assert_eq!(display.len(), 16);
            prop_assert_eq!(&display[6..12], HIDDEN);
            prop_assert_eq!(&display[..6], &digits[..6]);
            prop_assert_eq!(&display[12..], &digits[length - 4..]);
        }

        #[test]
        fn valid_numbers_of_each_brand_parse(
            case in prop::sample::select(vec![
                ("4", Brand::Visa), ("51", Brand::Mastercard), ("2720", Brand::Mastercard),
                ("37", Brand::Amex), ("6011", Brand::Discover), ("36", Brand::DinersClub),
                ("3528", Brand::Jcb), ("62", Brand::UnionPay), ("6759", Brand::Maestro),
                ("2204", Brand::Mir), ("509123", Brand::Elo), ("607000", Brand::RuPay),
            ]),
            fill in "[0-9]{18}",
            pick in any::<prop::sample::Index>(),
        ) {
            let (prefix, brand) = case;
            let lengths = brand.valid_lengths();
            let length = lengths[pick.index(lengths.len())];
            let digits = complete(prefix, &fill, length);
            let number = CardNumber::parse(&digits).expect("valid by construction");
            prop_assert_eq!(number.brand(), brand);
            prop_assert_eq!(number.secret().expose(), digits.as_str());
        }
    }
}
