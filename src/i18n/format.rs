//! Money, dates and plural forms for a locale. The digits of an amount are
//! computed here from integer minor units; `Intl` (through `js/intl.js`) only places symbols
//! and separators, and names the plural category of a count.

use super::{Locale, Msg, fill, number_text, plural};
use wasm_bindgen::prelude::wasm_bindgen;

#[wasm_bindgen(module = "/js/intl.js")]
extern "C" {
    #[wasm_bindgen(js_name = formatMoney)]
    fn js_format_money(locale: &str, currency: &str, digits: u8, amount: &str) -> String;
    #[wasm_bindgen(js_name = formatDate)]
    fn js_format_date(locale: &str, iso: &str) -> String;
    #[wasm_bindgen(js_name = pluralCategory)]
    fn js_plural_category(locale: &str, count: f64) -> String;
}

/// The variant of `msg` in `locale` for `count` things ([`plural`]), holes unfilled.
pub fn count_text(locale: Locale, msg: Msg, count: u64) -> &'static str {
    // Counts here are days, weeks, months and payments: far below 2^53, exact as f64.
    let category = js_plural_category(locale.tag(), count as f64);
    plural::variant(locale.text(msg), &category, count)
}

/// `msg` in `locale` for `count` things, with `count` in its `{0}`.
pub fn counted(locale: Locale, msg: Msg, count: u64) -> String {
    fill(count_text(locale, msg, count), &[&number_text(count)])
}

/// `minor` units as an exact decimal string with `exponent` fraction digits: `(1234, 2)` is
/// `"12.34"`, `(500, 0)` is `"500"`, `(5, 3)` is `"0.005"`.
pub fn decimal_amount(minor: u64, exponent: u8) -> String {
    let digits = number_text(minor);
    let exponent = usize::from(exponent);
    if exponent == 0 {
        return digits;
    }
    let mut padded = String::with_capacity(exponent + 2);
    for _ in digits.len()..=exponent {
        padded.push('0');
    }
    padded.push_str(&digits);
    let split = padded.len() - exponent;
    let mut text = String::with_capacity(padded.len() + 1);
    text.push_str(&padded[..split]);
    text.push('.');
    text.push_str(&padded[split..]);
    text
}

/// `minor` units of `currency` in its ISO exponent, formatted for `locale`.
pub fn money(locale: Locale, minor: u64, currency: &str) -> String {
    format_money(
        locale,
        minor,
        crate::currency::exponent_or_two(currency),
        currency,
    )
}

/// `minor` units of `currency` formatted for `locale` (`€12.34`, `12,34 €`, `￥500`).
pub fn format_money(locale: Locale, minor: u64, exponent: u8, currency: &str) -> String {
    js_format_money(
        locale.tag(),
        currency,
        exponent,
        &decimal_amount(minor, exponent),
    )
}

/// An RFC 3339 date as a long local date (`12 June 2026`); the input itself when unreadable.
pub fn format_date(locale: Locale, iso: &str) -> String {
    js_format_date(locale.tag(), iso)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_amounts_follow_the_exponent() {
        assert_eq!(decimal_amount(1234, 2), "12.34");
        assert_eq!(decimal_amount(5, 2), "0.05");
        assert_eq!(decimal_amount(0, 2), "0.00");
        assert_eq!(decimal_amount(500, 0), "500");
        assert_eq!(decimal_amount(5, 3), "0.005");
        assert_eq!(decimal_amount(123_456, 3), "123.456");
        assert_eq!(decimal_amount(100, 2), "1.00");
    }
}
