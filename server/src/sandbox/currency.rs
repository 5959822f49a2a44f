//! ISO 4217 currencies the emulator accepts, with their minor-unit exponents.
//!
//! Amounts travel as integer counts of minor units, so the exponent is what turns `1234` into
//! "12.34 USD" (exponent 2), "1234 JPY" (0) or "1.234 KWD" (3). Codes without minor units in
//! ISO 4217 (precious metals, SDR, test and fund codes) are not accepted: nothing can be charged
//! in them. This table belongs to the whole product; it lives in the emulator until the root
//! crate grows a home for it.

/// An active ISO 4217 currency.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Currency {
    /// The three-letter upper-case code, e.g. `"USD"`.
    pub code: &'static str,
    /// How many decimal digits the minor unit has (USD 2, JPY 0, KWD 3, CLF 4).
    pub exponent: u8,
}

impl Currency {
    /// Looks a code up exactly as written: upper case, three letters. `None` for anything else.
    pub fn find(code: &str) -> Option<Currency> {
        CURRENCIES
            .binary_search_by(|(known, _)| (*known).cmp(code))
            .ok()
            .map(|index| {
                let (code, exponent) = CURRENCIES[index];
                Currency { code, exponent }
            })
    }

    /// Formats an amount in minor units for people: `format_minor(1234)` is `"12.34 USD"`
    /// for USD and `"1234 JPY"` for JPY. Thousands are not grouped, so the text is the same
    /// in every locale.
    pub fn format_minor(self, minor_units: u64) -> String {
        if self.exponent == 0 {
            return format!("{minor_units} {}", self.code);
        }
        let scale = 10u64.pow(u32::from(self.exponent));
        let width = usize::from(self.exponent);
        format!(
            "{}.{:0width$} {}",
            minor_units / scale,
            minor_units % scale,
            self.code
        )
    }
}

/// Active ISO 4217 codes with minor units, sorted by code for binary search.
#[rustfmt::skip]
const CURRENCIES: &[(&str, u8)] = &[
    ("AED", 2), ("AFN", 2), ("ALL", 2), ("AMD", 2), ("ANG", 2), ("AOA", 2), ("ARS", 2),
    ("AUD", 2), ("AWG", 2), ("AZN", 2), ("BAM", 2), ("BBD", 2), ("BDT", 2), ("BGN", 2),
    ("BHD", 3), ("BIF", 0), ("BMD", 2), ("BND", 2), ("BOB", 2), ("BOV", 2), ("BRL", 2),
    ("BSD", 2), ("BTN", 2), ("BWP", 2), ("BYN", 2), ("BZD", 2), ("CAD", 2), ("CDF", 2),
    ("CHE", 2), ("CHF", 2), ("CHW", 2), ("CLF", 4), ("CLP", 0), ("CNY", 2), ("COP", 2),
    ("COU", 2), ("CRC", 2), ("CUP", 2), ("CVE", 2), ("CZK", 2), ("DJF", 0), ("DKK", 2),
    ("DOP", 2), ("DZD", 2), ("EGP", 2), ("ERN", 2), ("ETB", 2), ("EUR", 2), ("FJD", 2),
    ("FKP", 2), ("GBP", 2), ("GEL", 2), ("GHS", 2), ("GIP", 2), ("GMD", 2), ("GNF", 0),
    ("GTQ", 2), ("GYD", 2), ("HKD", 2), ("HNL", 2), ("HTG", 2), ("HUF", 2), ("IDR", 2),
    ("ILS", 2), ("INR", 2), ("IQD", 3), ("IRR", 2), ("ISK", 0), ("JMD", 2), ("JOD", 3),
    ("JPY", 0), ("KES", 2), ("KGS", 2), ("KHR", 2), ("KMF", 0), ("KPW", 2), ("KRW", 0),
    ("KWD", 3), ("KYD", 2), ("KZT", 2), ("LAK", 2), ("LBP", 2), ("LKR", 2), ("LRD", 2),
    ("LSL", 2), ("LYD", 3), ("MAD", 2), ("MDL", 2), ("MGA", 2), ("MKD", 2), ("MMK", 2),
    ("MNT", 2), ("MOP", 2), ("MRU", 2), ("MUR", 2), ("MVR", 2), ("MWK", 2), ("MXN", 2),
    ("MXV", 2), ("MYR", 2), ("MZN", 2), ("NAD", 2), ("NGN", 2), ("NIO", 2), ("NOK", 2),
    ("NPR", 2), ("NZD", 2), ("OMR", 3), ("PAB", 2), ("PEN", 2), ("PGK", 2), ("PHP", 2),
    ("PKR", 2), ("PLN", 2), ("PYG", 0), ("QAR", 2), ("RON", 2), ("RSD", 2), ("RUB", 2),
    ("RWF", 0), ("SAR", 2), ("SBD", 2), ("SCR", 2), ("SDG", 2), ("SEK", 2), ("SGD", 2),
    ("SHP", 2), ("SLE", 2), ("SOS", 2), ("SRD", 2), ("SSP", 2), ("STN", 2), ("SVC", 2),
    ("SYP", 2), ("SZL", 2), ("THB", 2), ("TJS", 2), ("TMT", 2), ("TND", 3), ("TOP", 2),
    ("TRY", 2), ("TTD", 2), ("TWD", 2), ("TZS", 2), ("UAH", 2), ("UGX", 0), ("USD", 2),
    ("USN", 2), ("UYI", 0), ("UYU", 2), ("UYW", 4), ("UZS", 2), ("VED", 2), ("VES", 2),
    ("VND", 0), ("VUV", 0), ("WST", 2), ("XAF", 0), ("XCD", 2), ("XCG", 2), ("XOF", 0),
    ("XPF", 0), ("YER", 2), ("ZAR", 2), ("ZMW", 2), ("ZWG", 2),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_sorted_unique_and_well_formed() {
        for pair in CURRENCIES.windows(2) {
            assert!(pair[0].0 < pair[1].0, "{} before {}", pair[0].0, pair[1].0);
        }
        for (code, exponent) in CURRENCIES {
            assert_eq!(code.len(), 3);
            assert!(code.bytes().all(|b| b.is_ascii_uppercase()), "{code}");
            assert!(*exponent <= 4, "{code}");
        }
    }

    #[test]
    fn finds_known_exponents() {
        assert_eq!(Currency::find("USD").map(|c| c.exponent), Some(2));
        assert_eq!(Currency::find("JPY").map(|c| c.exponent), Some(0));
        assert_eq!(Currency::find("KWD").map(|c| c.exponent), Some(3));
        assert_eq!(Currency::find("CLF").map(|c| c.exponent), Some(4));
    }

    #[test]
    fn rejects_unknown_and_badly_written_codes() {
        for code in ["usd", "XAU", "XXX", "ABC", "US", "USDD", ""] {
            assert_eq!(Currency::find(code), None, "{code}");
        }
    }

    #[test]
    fn formats_with_the_exponent() {
        let find = |code| Currency::find(code).expect("known code");
        assert_eq!(find("USD").format_minor(1234), "12.34 USD");
        assert_eq!(find("USD").format_minor(5), "0.05 USD");
        assert_eq!(find("JPY").format_minor(1000), "1000 JPY");
        assert_eq!(find("KWD").format_minor(1234), "1.234 KWD");
        assert_eq!(find("KWD").format_minor(7), "0.007 KWD");
    }
}
