//! The currency signs the hosted pages print beside an amount ([`super::money`]), per
//! language: what CLDR (the data the browser's `Intl` formats with, so the card form too) names
//! each active ISO 4217 currency in the card form's 13 languages. English's list is the base;
//! each other language lists only where it differs. A currency in no list is shown by its code.
//! Packed text, `CODE sign` pairs joined by `|`; the signs of Arabic letters end with a
//! right-to-left mark, as CLDR writes them.

use checkout::i18n::Locale;

use super::texts::in_language;

/// English's signs: the base of every language.
const BASE: &str = concat!(
    "AUD A$|BRL R$|CAD CA$|CNY CN¥|EUR €|GBP £|HKD HK$|ILS ₪|INR ₹|JPY ¥|KRW ₩|",
    "MXN MX$|NZD NZ$|PHP ₱|TWD NT$|USD $|VND ₫|XAF FCFA|XCD EC$|XCG Cg.|",
    "XOF F\u{202f}CFA|XPF CFPF",
);

/// Where each other language's signs differ from English's, in [`Locale::ALL`] order.
const DIFFERENT: [&str; 13] = [
    "",
    // de
    "AUD AU$|PHP PHP|THB ฿",
    // fr
    concat!(
        "ARS $AR|AUD $AU|BMD $BM|BND $BN|BZD $BZ|CAD $CA|CLP $CL|CNY CNY|COP $CO|FJD $FJ|",
        "FKP £FK|GBP £GB|GIP £GI|HKD HKD|JPY JPY|LBP £LB|MXN $MX|NAD $NA|NZD $NZ|PHP PHP|",
        "SBD $SB|SGD $SG|SRD $SR|TTD $TT|TWD TWD|USD $US|UYU $UY|WST $WS|XCD XCD|",
        "XPF FCFP",
    ),
    // es
    concat!(
        "AUD AUD|BRL BRL|CAD CAD|CNY CNY|GBP GBP|HKD HKD|ILS ILS|INR INR|JPY JPY|KRW KRW|",
        "MXN MXN|NZD NZD|PHP PHP|THB ฿|TWD TWD|USD US$|XAF XAF|XCD XCD|XOF XOF",
    ),
    // it
    concat!(
        "BRL BRL|HKD HKD|INR INR|JPY JPY|KRW KRW|MXN MXN|THB ฿|TWD TWD|USD USD|VND VND|",
        "XCG Cf",
    ),
    // nl
    "AUD AU$|CAD C$|FJD FJ$|JPY JP¥|PHP PHP|SBD SI$|THB ฿|USD US$|XPF XPF|ZWG ZiG",
    // pt
    "AUD AU$|JPY JP¥|PHP PHP|THB ฿|USD US$",
    // pl
    concat!(
        "AUD AUD|CAD CAD|CNY CNY|GBP GBP|HKD HKD|ILS ILS|INR INR|JPY JPY|KRW KRW|MXN MXN|",
        "NZD NZD|PHP PHP|PLN zł|TWD TWD|USD USD|VND VND|XCG XCG",
    ),
    // sv
    concat!(
        "AUD AUD|BBD Bds$|BMD BM$|BRL BR$|BSD BS$|BZD BZ$|CNY CNY|DKK Dkr|DOP RD$|",
        "EGP EG£|GBP GBP|HKD HKD|INR INR|ISK Ikr|JMD JM$|JPY JPY|KRW KRW|NOK Nkr|NZD NZD|",
        "PHP PHP|SEK kr|TWD TWD|USD US$|VND VND|XCG XCG",
    ),
    // ja
    "CNY 元|JPY ￥|PHP PHP|XCG Cg",
    // zh
    "AUD AU$|CNY ¥|JPY JP¥|PHP PHP|USD US$",
    // ar
    concat!(
        "AED د.إ.\u{200f}|AUD AU$|BHD د.ب.\u{200f}|DZD د.ج.\u{200f}|EGP ج.م.\u{200f}|",
        "GBP UK£|IQD د.ع.\u{200f}|IRR ر.إ.|JOD د.أ.\u{200f}|JPY JP¥|KWD د.ك.\u{200f}|",
        "LBP ل.ل.\u{200f}|LYD د.ل.\u{200f}|MAD د.م.\u{200f}|MRU أ.م.|OMR ر.ع.\u{200f}|",
        "PHP PHP|QAR ر.ق.\u{200f}|SAR ر.س.\u{200f}|SDG ج.س.|SYP ل.س.\u{200f}|THB ฿|",
        "TND د.ت.\u{200f}|USD US$|YER ر.ي.\u{200f}",
    ),
    // he
    "PHP PHP|THB ฿",
];

/// The sign of `currency` (upper case) beside an amount in `locale`: its code when CLDR names
/// no sign for it there.
pub fn sign(locale: Locale, currency: &str) -> &str {
    find(in_language(DIFFERENT, locale), currency)
        .or_else(|| find(BASE, currency))
        .unwrap_or(currency)
}

/// The sign of `currency` in `packed`, if it lists one.
fn find<'a>(packed: &'a str, currency: &str) -> Option<&'a str> {
    packed
        .split('|')
        .find_map(|pair| pair.strip_prefix(currency)?.strip_prefix(' '))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_language_lists_only_what_differs_from_english() {
        assert_eq!(sign(Locale::En, "USD"), "$");
        assert_eq!(sign(Locale::Fr, "USD"), "$US");
        assert_eq!(sign(Locale::It, "USD"), "USD");
        assert_eq!(sign(Locale::De, "EUR"), "€");
        assert_eq!(sign(Locale::Ja, "JPY"), "￥");
        assert_eq!(sign(Locale::Ar, "KWD"), "د.ك.\u{200f}");
        assert_eq!(sign(Locale::En, "KWD"), "KWD");
        assert_eq!(sign(Locale::Sv, "SEK"), "kr");
    }

    #[test]
    fn every_pair_is_a_code_and_a_sign() {
        for packed in DIFFERENT.iter().chain([&BASE]).filter(|p| !p.is_empty()) {
            for pair in packed.split('|') {
                let (code, sign) = pair.split_once(' ').expect("CODE sign");
                assert!(
                    checkout::currency::Currency::find(code).is_some(),
                    "{code} is an active ISO 4217 code"
                );
                assert!(!sign.is_empty() && !sign.contains('|'), "{pair}");
            }
        }
    }
}
