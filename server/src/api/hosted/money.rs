//! Amounts for people on the hosted pages, in the page's language, as the card form shows
//! them: the form formats with the browser's `Intl` (CLDR), so this follows CLDR's currency
//! format of each of the 13 languages: the decimal and grouping separators, the minimum
//! grouping (Spanish, Italian and Polish leave `1234` whole), where the sign goes and what
//! stands between it and the digits ([`super::currency_signs`] names the sign), and the
//! currency's ISO 4217 exponent (`checkout::currency`: JPY none, KWD three). The digits come
//! from integer minor units, never through floating point.
//!
//! Written here rather than taken from a crate: the crates that format money for a locale
//! either take a float (`locale-rs`), carry the C library's locale data, which names only a
//! country's own currency and differs from the browser's (`pure-rust-locales`), or are
//! unstable by their own account and bring CLDR's whole data set into the build
//! (`icu_experimental`'s currency formatter); the 13 languages' rules fit in a table.

use checkout::currency::{exponent_or_two, major_text};
use checkout::i18n::Locale;

use super::currency_signs::sign;

const NBSP: &str = "\u{a0}";
/// The right-to-left mark Arabic and Hebrew put before an amount.
const RLM: &str = "\u{200f}";

/// How a language writes an amount of money.
struct Rules {
    /// Between the whole units and the fraction.
    decimal: &'static str,
    /// Between groups of three digits.
    group: &'static str,
    /// Digits the whole units need before they are grouped at all (CLDR's minimum grouping
    /// digits plus three).
    group_from: usize,
    /// Before everything.
    lead: &'static str,
    /// The sign before the digits (else after them).
    sign_first: bool,
    /// Between the digits and the sign; `None`: nothing, unless the sign ends in letters
    /// (`CHF 5.00` but `€5.00`: CLDR's currency spacing).
    gap: Option<&'static str>,
}

/// The rules of `locale`.
fn rules(locale: Locale) -> Rules {
    let (decimal, group, group_from) = match locale {
        Locale::En | Locale::Ja | Locale::Zh | Locale::Ar | Locale::He => (".", ",", 4),
        Locale::De | Locale::Nl | Locale::Pt => (",", ".", 4),
        Locale::Es | Locale::It => (",", ".", 5),
        Locale::Fr => (",", "\u{202f}", 4),
        Locale::Sv => (",", NBSP, 4),
        Locale::Pl => (",", NBSP, 5),
    };
    let (lead, sign_first, gap) = match locale {
        Locale::En | Locale::Ja | Locale::Zh => ("", true, None),
        Locale::Nl | Locale::Pt => ("", true, Some(NBSP)),
        Locale::Ar => (RLM, false, Some(NBSP)),
        Locale::He => (RLM, false, Some("\u{a0}\u{200f}")),
        _ => ("", false, Some(NBSP)),
    };
    Rules {
        decimal,
        group,
        group_from,
        lead,
        sign_first,
        gap,
    }
}

/// `minor` units of `currency` as `locale` writes them: `€1,234.50` in English, `1.234,50 €`
/// in German, `1234 JPY` in Spanish.
pub fn money(locale: Locale, minor: u64, currency: &str) -> String {
    let rules = rules(locale);
    let digits = digits(minor, exponent_or_two(currency), &rules);
    let sign = sign(locale, currency);
    let gap = rules.gap.unwrap_or(if sign.ends_with(is_currency_sign) {
        ""
    } else {
        NBSP
    });
    if rules.sign_first {
        format!("{}{sign}{gap}{digits}", rules.lead)
    } else {
        format!("{}{digits}{gap}{sign}", rules.lead)
    }
}

/// The digits of `minor` units with `exponent` decimals (`checkout::currency::major_text`),
/// grouped and separated by `rules`.
fn digits(minor: u64, exponent: u8, rules: &Rules) -> String {
    let plain = major_text(minor, exponent);
    let (whole, fraction) = plain.split_once('.').unwrap_or((&plain, ""));
    let mut text = String::with_capacity(plain.len() + 8);
    let grouped = whole.len() >= rules.group_from;
    for (at, digit) in whole.chars().enumerate() {
        let left = whole.len() - at;
        if grouped && at > 0 && left.is_multiple_of(3) {
            text.push_str(rules.group);
        }
        text.push(digit);
    }
    if !fraction.is_empty() {
        text.push_str(rules.decimal);
        text.push_str(fraction);
    }
    text
}

/// A currency sign (Unicode's Sc): a sign ending in one needs no space before the digits.
fn is_currency_sign(c: char) -> bool {
    matches!(c, '$' | '\u{a2}'..='\u{a5}' | '\u{58f}' | '\u{e3f}' | '\u{20a0}'..='\u{20c0}')
        || matches!(c, '\u{ffe0}' | '\u{ffe1}' | '\u{ffe5}' | '\u{ffe6}')
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `locale`'s writing of €1,234,567.50, €1,234.50, US$12.50, ¥1,234, 1.234 KWD and
    /// £0.05, each as Chromium's `Intl.NumberFormat` writes it (style `currency`, the
    /// currency's exponent as its fraction digits).
    fn writes(locale: Locale, expected: [&str; 6]) {
        let written = [
            money(locale, 123_456_750, "EUR"),
            money(locale, 123_450, "EUR"),
            money(locale, 1250, "USD"),
            money(locale, 1234, "JPY"),
            money(locale, 1234, "KWD"),
            money(locale, 5, "GBP"),
        ];
        assert_eq!(written, expected, "{locale:?}");
    }

    #[test]
    fn english() {
        writes(
            Locale::En,
            [
                "€1,234,567.50",
                "€1,234.50",
                "$12.50",
                "¥1,234",
                "KWD\u{a0}1.234",
                "£0.05",
            ],
        );
    }

    #[test]
    fn german() {
        writes(
            Locale::De,
            [
                "1.234.567,50\u{a0}€",
                "1.234,50\u{a0}€",
                "12,50\u{a0}$",
                "1.234\u{a0}¥",
                "1,234\u{a0}KWD",
                "0,05\u{a0}£",
            ],
        );
    }

    #[test]
    fn french() {
        writes(
            Locale::Fr,
            [
                "1\u{202f}234\u{202f}567,50\u{a0}€",
                "1\u{202f}234,50\u{a0}€",
                "12,50\u{a0}$US",
                "1\u{202f}234\u{a0}JPY",
                "1,234\u{a0}KWD",
                "0,05\u{a0}£GB",
            ],
        );
    }

    #[test]
    fn spanish() {
        writes(
            Locale::Es,
            [
                "1.234.567,50\u{a0}€",
                "1234,50\u{a0}€",
                "12,50\u{a0}US$",
                "1234\u{a0}JPY",
                "1,234\u{a0}KWD",
                "0,05\u{a0}GBP",
            ],
        );
    }

    #[test]
    fn italian() {
        writes(
            Locale::It,
            [
                "1.234.567,50\u{a0}€",
                "1234,50\u{a0}€",
                "12,50\u{a0}USD",
                "1234\u{a0}JPY",
                "1,234\u{a0}KWD",
                "0,05\u{a0}£",
            ],
        );
    }

    #[test]
    fn dutch() {
        writes(
            Locale::Nl,
            [
                "€\u{a0}1.234.567,50",
                "€\u{a0}1.234,50",
                "US$\u{a0}12,50",
                "JP¥\u{a0}1.234",
                "KWD\u{a0}1,234",
                "£\u{a0}0,05",
            ],
        );
    }

    #[test]
    fn portuguese() {
        writes(
            Locale::Pt,
            [
                "€\u{a0}1.234.567,50",
                "€\u{a0}1.234,50",
                "US$\u{a0}12,50",
                "JP¥\u{a0}1.234",
                "KWD\u{a0}1,234",
                "£\u{a0}0,05",
            ],
        );
    }

    #[test]
    fn polish() {
        writes(
            Locale::Pl,
            [
                "1\u{a0}234\u{a0}567,50\u{a0}€",
                "1234,50\u{a0}€",
                "12,50\u{a0}USD",
                "1234\u{a0}JPY",
                "1,234\u{a0}KWD",
                "0,05\u{a0}GBP",
            ],
        );
        assert_eq!(
            money(Locale::Pl, 1_234_550, "PLN"),
            "12\u{a0}345,50\u{a0}zł"
        );
    }

    #[test]
    fn swedish() {
        writes(
            Locale::Sv,
            [
                "1\u{a0}234\u{a0}567,50\u{a0}€",
                "1\u{a0}234,50\u{a0}€",
                "12,50\u{a0}US$",
                "1\u{a0}234\u{a0}JPY",
                "1,234\u{a0}KWD",
                "0,05\u{a0}GBP",
            ],
        );
        assert_eq!(money(Locale::Sv, 1000, "SEK"), "10,00\u{a0}kr");
    }

    #[test]
    fn japanese() {
        writes(
            Locale::Ja,
            [
                "€1,234,567.50",
                "€1,234.50",
                "$12.50",
                "￥1,234",
                "KWD\u{a0}1.234",
                "£0.05",
            ],
        );
        assert_eq!(money(Locale::Ja, 123_450, "CNY"), "元\u{a0}1,234.50");
    }

    #[test]
    fn chinese() {
        writes(
            Locale::Zh,
            [
                "€1,234,567.50",
                "€1,234.50",
                "US$12.50",
                "JP¥1,234",
                "KWD\u{a0}1.234",
                "£0.05",
            ],
        );
        assert_eq!(money(Locale::Zh, 100, "CHF"), "CHF\u{a0}1.00");
    }

    #[test]
    fn arabic() {
        writes(
            Locale::Ar,
            [
                "\u{200f}1,234,567.50\u{a0}€",
                "\u{200f}1,234.50\u{a0}€",
                "\u{200f}12.50\u{a0}US$",
                "\u{200f}1,234\u{a0}JP¥",
                "\u{200f}1.234\u{a0}د.ك.\u{200f}",
                "\u{200f}0.05\u{a0}UK£",
            ],
        );
    }

    #[test]
    fn hebrew() {
        writes(
            Locale::He,
            [
                "\u{200f}1,234,567.50\u{a0}\u{200f}€",
                "\u{200f}1,234.50\u{a0}\u{200f}€",
                "\u{200f}12.50\u{a0}\u{200f}$",
                "\u{200f}1,234\u{a0}\u{200f}¥",
                "\u{200f}1.234\u{a0}\u{200f}KWD",
                "\u{200f}0.05\u{a0}\u{200f}£",
            ],
        );
    }

    #[test]
    fn the_exponent_is_the_currencys_and_an_unknown_code_shows_itself() {
        assert_eq!(money(Locale::En, 12_345, "CLF"), "CLF\u{a0}1.2345");
        assert_eq!(money(Locale::En, 0, "EUR"), "€0.00");
        assert_eq!(money(Locale::En, 100, "XOF"), "F\u{202f}CFA\u{a0}100");
        assert_eq!(money(Locale::En, 100, "XCG"), "Cg.\u{a0}1.00");
        assert_eq!(
            money(Locale::De, u64::MAX, "JPY"),
            "18.446.744.073.709.551.615\u{a0}¥"
        );
    }
}
