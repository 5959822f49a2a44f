//! The Luhn (mod 10) checksum every payment card number carries in its last digit.
//!
//! Works on ASCII digit strings only; callers strip separators first.

/// True when `digits` is non-empty, only ASCII digits, and passes the Luhn check.
pub fn is_valid(digits: &str) -> bool {
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    weighted_sum(digits, false).is_multiple_of(10)
}

/// The check digit to append to `payload` so that the whole number passes [`is_valid`].
///
/// `None` when `payload` is empty or holds anything but ASCII digits.
pub fn check_digit(payload: &str) -> Option<u8> {
    if payload.is_empty() || !payload.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let remainder = weighted_sum(payload, true) % 10;
    u8::try_from((10 - remainder) % 10).ok()
}

/// `payload` followed by its check digit: a valid number for tests and the gateway emulator.
pub fn with_check_digit(payload: &str) -> Option<String> {
    let digit = check_digit(payload)?;
    let mut number = String::with_capacity(payload.len() + 1);
    number.push_str(payload);
    number.push(char::from(b'0' + digit));
    Some(number)
}

/// Sum of the digits from the right, every second one doubled (minus 9 when above 9).
/// `double_rightmost` is true when the check digit is not yet part of `digits`.
fn weighted_sum(digits: &str, double_rightmost: bool) -> u32 {
    digits
        .bytes()
        .rev()
        .enumerate()
        .map(|(index, byte)| {
            let digit = u32::from(byte - b'0');
            if (index % 2 == 0) == double_rightmost {
                let doubled = digit * 2;
                if doubled > 9 { doubled - 9 } else { doubled }
            } else {
                digit
            }
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn known_numbers_pass() {
        for number in [
            "4242424242424242",
            "5200000000001005",
            "4000002500003155",
            "4000000000001091",
            "4000000000001000",
            "378282246310005",
            "6011111111111117",
            "3056930009020004",
            "3566002020360505",
            "6200000000000005",
            "2223003122003222",
            "6362970000457013",
            "0",
        ] {
            assert!(is_valid(number), "{number} should pass");
        }
    }

    #[test]
    fn rejects_bad_checksums_and_non_digits() {
        assert!(!is_valid("4242424242424241"));
        assert!(!is_valid("378282246310006"));
        assert!(!is_valid(""));
        assert!(!is_valid("4242 4242 4242 4242"));
        assert!(!is_valid("42424242424242a2"));
    }

    #[test]
    fn check_digit_completes_known_numbers() {
        assert_eq!(check_digit("424242424242424"), Some(2));
        assert_eq!(check_digit("37828224631000"), Some(5));
        assert_eq!(check_digit("520000000000100"), Some(5));
        assert_eq!(
            with_check_digit("601111111111111").as_deref(),
            Some("6011111111111117")
        );
        assert_eq!(check_digit(""), None);
        assert_eq!(check_digit("12a"), None);
    }

    proptest! {
        #[test]
        fn generated_numbers_pass(payload in "[0-9]{11,18}") {
            let number = with_check_digit(&payload).expect("digits only");
            prop_assert!(is_valid(&number));
        }

        #[test]
        fn any_single_digit_change_fails(
            payload in "[0-9]{11,18}",
            position in any::<prop::sample::Index>(),
            delta in 1u8..=9,
        ) {
            let number = with_check_digit(&payload).expect("digits only");
            let mut bytes = number.into_bytes();
            let at = position.index(bytes.len());
            bytes[at] = b'0' + (bytes[at] - b'0' + delta) % 10;
            let changed = String::from_utf8(bytes).expect("ascii");
            prop_assert!(!is_valid(&changed));
        }
    }
}
