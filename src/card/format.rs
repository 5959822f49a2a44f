//! As-you-type formatting for the card form: pure functions the component calls on every
//! input event with the field's text and caret, returning the new text and caret.
//!
//! Carets are counted in characters of the given text (the output is always ASCII). A caret
//! stays after the same digit it followed, even when separators appear or vanish around it.
//! Deleting a separator alone changes no digit, so the text comes back as it was and the
//! caret lands before that separator; the next deletion removes the digit.

use super::brand::Brand;

/// What separates month and year in the expiry field.
const EXPIRY_SEPARATOR: &str = " / ";

/// Keeps only the digits of `raw`, cuts them to the detected brand's longest length, and
/// groups them with single spaces in the brand's pattern (`4242 4242 4242 4242`,
/// `3782 822463 10005`). Returns the text and where the caret goes.
pub fn format_number(raw: &str, caret: usize) -> (String, usize) {
    let mut digits = String::new();
    let mut digits_before_caret = 0;
    for (index, ch) in raw.chars().enumerate() {
        if ch.is_ascii_digit() {
            digits.push(ch);
            if index < caret {
                digits_before_caret += 1;
            }
        }
    }
    let brand = Brand::detect(&digits);
    digits.truncate(brand.max_length());
    let digits_before_caret = digits_before_caret.min(digits.len());

    let mut group_ends = brand.group_sizes(digits.len()).iter().scan(0, |end, size| {
        *end += size;
        Some(*end)
    });
    let mut next_break = group_ends.next();
    let mut text = String::with_capacity(digits.len() + 4);
    let mut new_caret = 0;
    for (index, ch) in digits.chars().enumerate() {
        if next_break == Some(index) {
            text.push(' ');
            next_break = group_ends.next();
        }
        text.push(ch);
        if index + 1 == digits_before_caret {
            new_caret = text.len();
        }
    }
    (text, new_caret)
}

/// Formats the combined expiry field as `MM / YY`.
///
/// Only digits and `/` are read. A first digit from 2 to 9 can only be a month, so it becomes
/// `0N / ` at once; `1` or `0` waits for the second digit, and a second digit that would make
/// no month (`13`, `00`) is dropped. The separator appears as soon as the month is complete,
/// and a typed `/` after a one-digit month pads it (`1/` gives `01 / `). When the text ends in
/// a partly deleted separator (`12 /` or `12 `) the separator is dropped, so backspace can
/// leave the year. At most two year digits are kept.
pub fn format_expiry(raw: &str, caret: usize) -> (String, usize) {
    let mut month = String::with_capacity(2);
    let mut year = String::with_capacity(2);
    // Digits of the formatted text (a padding zero included) that precede the caret.
    let mut digits_before_caret = 0;
    for (index, ch) in raw.chars().enumerate() {
        let before_caret = index < caret;
        match ch {
            '0'..='9' => {
                let accepted = match month.len() {
                    0 => {
                        if ch >= '2' {
                            month.push('0');
                        }
                        month.push(ch);
                        true
                    }
                    1 if is_month(&month, ch) => {
                        month.push(ch);
                        true
                    }
                    1 => false,
                    _ if year.len() < 2 => {
                        year.push(ch);
                        true
                    }
                    _ => false,
                };
                if accepted && before_caret {
                    digits_before_caret = month.len() + year.len();
                }
            }
            '/' if month == "1" => {
                month.insert(0, '0');
                if digits_before_caret > 0 {
                    digits_before_caret = 2;
                }
            }
            _ => {}
        }
    }

    let separator_deleted = year.is_empty() && matches!(text_after_last_digit(raw), " " | " /");
    let show_separator = month.len() == 2 && !separator_deleted;

    let mut text = month.clone();
    if show_separator {
        text.push_str(EXPIRY_SEPARATOR);
        text.push_str(&year);
    }
    let new_caret = match digits_before_caret {
        0 => 0,
        n if n < month.len() => n,
        n if n == month.len() && !show_separator => n,
        n => month.len() + EXPIRY_SEPARATOR.len() + (n - month.len()),
    };
    (text, new_caret)
}

/// True when the one-digit month `first` followed by `second` is a month from 01 to 12.
fn is_month(first: &str, second: char) -> bool {
    match first {
        "0" => second != '0',
        "1" => matches!(second, '0'..='2'),
        _ => false,
    }
}

/// The text after the last ASCII digit (all of it when there is no digit).
fn text_after_last_digit(raw: &str) -> &str {
    match raw.rfind(|c: char| c.is_ascii_digit()) {
        Some(at) => &raw[at + 1..],
        None => raw,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn number(raw: &str) -> String {
        format_number(raw, raw.chars().count()).0
    }

    fn expiry(raw: &str) -> (String, usize) {
        format_expiry(raw, raw.chars().count())
    }

    #[test]
    fn groups_numbers_by_brand() {
        assert_eq!(number("4242424242424242"), "4242 4242 4242 4242");
        assert_eq!(number("378282246310005"), "3782 822463 10005");
        assert_eq!(number("36227206271667"), "3622 720627 1667");
        assert_eq!(number("3056930009020004"), "3056 9300 0902 0004");
        assert_eq!(number("6200000000000000005"), "6200 0000 0000 0000 005");
        assert_eq!(number("42-42 ab42"), "4242 42");
        assert_eq!(number(""), "");
    }

    #[test]
    fn cuts_to_the_brand_length() {
        assert_eq!(number("3782822463100059999"), "3782 822463 10005");
        assert_eq!(number("5200000000001005123"), "5200 0000 0000 1005");
        assert_eq!(number("42424242424242424242424"), "4242 4242 4242 4242 424");
    }

    #[test]
    fn caret_follows_its_digit() {
        // Typing the fifth digit at the end: a space appears before it.
        assert_eq!(format_number("42424", 5), ("4242 4".into(), 6));
        // Typing in the middle of a formatted number.
        assert_eq!(format_number("42421 4242", 5), ("4242 1424 2".into(), 6));
        // Caret after the fourth digit stays before the space that follows it.
        assert_eq!(format_number("4242 4242", 5), ("4242 4242".into(), 4));
        // Backspace of a digit in the second group.
        assert_eq!(format_number("4242 442", 6), ("4242 442".into(), 6));
        // Backspace of the space: digits unchanged, caret before the space.
        assert_eq!(format_number("42424242", 4), ("4242 4242".into(), 4));
        assert_eq!(format_number("4242", 0), ("4242".into(), 0));
        assert_eq!(format_number("4242", 99), ("4242".into(), 4));
    }

    #[test]
    fn expiry_as_typed() {
        assert_eq!(expiry("1"), ("1".into(), 1));
        assert_eq!(expiry("12"), ("12 / ".into(), 5));
        assert_eq!(expiry("4"), ("04 / ".into(), 5));
        assert_eq!(expiry("12 / 2"), ("12 / 2".into(), 6));
        assert_eq!(expiry("12 / 28"), ("12 / 28".into(), 7));
        assert_eq!(expiry("12 / 289"), ("12 / 28".into(), 7));
        assert_eq!(expiry("1228"), ("12 / 28".into(), 7));
        assert_eq!(expiry("0"), ("0".into(), 1));
        assert_eq!(expiry("00"), ("0".into(), 1));
        assert_eq!(expiry("13"), ("1".into(), 1));
        assert_eq!(expiry("1/"), ("01 / ".into(), 5));
        assert_eq!(expiry("0/"), ("0".into(), 1));
        assert_eq!(expiry("ab"), ("".into(), 0));
    }

    #[test]
    fn expiry_backspace_walks_back() {
        assert_eq!(expiry("12 / "), ("12 / ".into(), 5));
        assert_eq!(expiry("12 /"), ("12".into(), 2));
        assert_eq!(expiry("1"), ("1".into(), 1));
        assert_eq!(expiry("04 /"), ("04".into(), 2));
        // Deleting the first year digit with the caret in the middle.
        assert_eq!(format_expiry("12 / 8", 5), ("12 / 8".into(), 5));
    }

    #[test]
    fn expiry_caret_in_the_middle() {
        assert_eq!(format_expiry("12 / 28", 1), ("12 / 28".into(), 1));
        assert_eq!(format_expiry("12 / 28", 0), ("12 / 28".into(), 0));
        assert_eq!(format_expiry("4", 0), ("04 / ".into(), 0));
        assert_eq!(format_expiry("1/", 1), ("01 / ".into(), 5));
    }

    proptest! {
        #[test]
        fn number_formatting_only_adds_spaces(raw in "[0-9 a-z-]{0,30}", caret in 0usize..40) {
            let (text, _) = format_number(&raw, caret);
            let digits: String = raw.chars().filter(char::is_ascii_digit).collect();
            let kept: String = text.chars().filter(|c| *c != ' ').collect();
            prop_assert!(digits.starts_with(&kept));
            prop_assert_eq!(kept.len(), digits.len().min(Brand::detect(&digits).max_length()));
            prop_assert!(!text.starts_with(' ') && !text.ends_with(' ') && !text.contains("  "));
        }

        #[test]
        fn number_formatting_is_stable(raw in "[0-9 ]{0,25}") {
            let (once, _) = format_number(&raw, 0);
            let (twice, _) = format_number(&once, 0);
            prop_assert_eq!(once, twice);
        }

        #[test]
        fn number_caret_follows_the_same_digit(raw in "[0-9 -]{0,25}", caret in 0usize..30) {
            let (text, new_caret) = format_number(&raw, caret);
            prop_assert!(new_caret <= text.len());
            let before = raw.chars().take(caret).filter(char::is_ascii_digit).count();
            let kept = text.chars().filter(char::is_ascii_digit).count();
            let after = text[..new_caret].chars().filter(char::is_ascii_digit).count();
            prop_assert_eq!(after, before.min(kept));
            prop_assert!(new_caret == 0 || text.as_bytes()[new_caret - 1].is_ascii_digit());
        }

        #[test]
        fn expiry_output_is_well_formed(raw in "[0-9 /a]{0,10}", caret in 0usize..12) {
            let (text, new_caret) = format_expiry(&raw, caret);
            prop_assert!(new_caret <= text.len());
            let (month, year) = text.split_once(" / ").unwrap_or((&text, ""));
            prop_assert!(month.len() <= 2 && year.len() <= 2);
            prop_assert!(month.bytes().chain(year.bytes()).all(|b| b.is_ascii_digit()));
            if month.len() == 2 {
                let value: u8 = month.parse().expect("two digits");
                prop_assert!((1..=12).contains(&value));
            }
            prop_assert!(year.is_empty() || text.contains(" / "));
        }
    }
}
