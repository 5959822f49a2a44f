//! ISO 4217: the active currencies and their minor-unit exponents, one table for the browser
//! (formatting an amount) and the servers (refusing a currency nothing can be charged in).
//!
//! Amounts travel as integer counts of minor units, so the exponent is what turns `1234` into
//! "12.34 USD" (exponent 2), "1234 JPY" (0) or "1.234 KWD" (3). Codes without minor units in
//! ISO 4217 (precious metals, SDR, test and fund codes) are not listed: nothing can be charged
//! in them. The table is packed text (about 600 bytes) because it ships in the wasm bundle.

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
        if code.len() != 3 {
            return None;
        }
        let count = CODES.len() / 3;
        let (mut low, mut high) = (0, count);
        while low < high {
            let middle = (low + high) / 2;
            let known = &CODES[middle * 3..middle * 3 + 3];
            match known.cmp(code) {
                std::cmp::Ordering::Less => low = middle + 1,
                std::cmp::Ordering::Greater => high = middle,
                std::cmp::Ordering::Equal => {
                    return Some(Currency {
                        code: known,
                        exponent: exponent_of_listed(known),
                    });
                }
            }
        }
        None
    }

    /// Formats an amount in minor units for people: `format_minor(1234)` is `"12.34 USD"`
    /// for USD and `"1234 JPY"` for JPY. Thousands are not grouped, so the text is the same
    /// in every locale.
    pub fn format_minor(self, minor_units: u64) -> String {
        format!("{} {}", major_text(minor_units, self.exponent), self.code)
    }
}

/// `minor_units` in major units with `exponent` decimals and no code: `12.34` (exponent 2),
/// `1234` (exponent 0).
pub fn major_text(minor_units: u64, exponent: u8) -> String {
    if exponent == 0 {
        return minor_units.to_string();
    }
    let scale = 10u64.pow(u32::from(exponent));
    let width = usize::from(exponent);
    format!("{}.{:0width$}", minor_units / scale, minor_units % scale)
}

/// The exponent of `code` in any letter case, 2 for a code not in the table: for a payload
/// that names a currency without its exponent.
pub fn exponent_or_two(code: &str) -> u8 {
    let upper = code.to_ascii_uppercase();
    Currency::find(&upper).map_or(2, |currency| currency.exponent)
}

/// The exponent of a listed code: 2 unless one of the short lists names it.
fn exponent_of_listed(code: &str) -> u8 {
    let in_list = |list: &str| list.as_bytes().chunks(3).any(|c| c == code.as_bytes());
    if in_list(EXPONENT_0) {
        0
    } else if in_list(EXPONENT_3) {
        3
    } else if in_list(EXPONENT_4) {
        4
    } else {
        2
    }
}

/// Active ISO 4217 codes with minor units, three letters each, sorted for binary search.
const CODES: &str = concat!(
    "AEDAFNALLAMDANGAOAARSAUDAWGAZNBAMBBDBDTBGNBHDBIFBMDBNDBOBBOVBRLBSDBTNBWPBYNBZDCADCDF",
    "CHECHFCHWCLFCLPCNYCOPCOUCRCCUPCVECZKDJFDKKDOPDZDEGPERNETBEURFJDFKPGBPGELGHSGIPGMDGNF",
    "GTQGYDHKDHNLHTGHUFIDRILSINRIQDIRRISKJMDJODJPYKESKGSKHRKMFKPWKRWKWDKYDKZTLAKLBPLKRLRD",
    "LSLLYDMADMDLMGAMKDMMKMNTMOPMRUMURMVRMWKMXNMXVMYRMZNNADNGNNIONOKNPRNZDOMRPABPENPGKPHP",
    "PKRPLNPYGQARRONRSDRUBRWFSARSBDSCRSDGSEKSGDSHPSLESOSSRDSSPSTNSVCSYPSZLTHBTJSTMTTNDTOP",
    "TRYTTDTWDTZSUAHUGXUSDUSNUYIUYUUYWUZSVEDVESVNDVUVWSTXAFXCDXCGXOFXPFYERZARZMWZWG",
);
/// Listed codes whose minor unit has no decimals.
const EXPONENT_0: &str = "BIFCLPDJFGNFISKJPYKMFKRWPYGRWFUGXUYIVNDVUVXAFXOFXPF";
/// Listed codes with three decimals.
const EXPONENT_3: &str = "BHDIQDJODKWDLYDOMRTND";
/// Listed codes with four decimals.
const EXPONENT_4: &str = "CLFUYW";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_sorted_unique_and_well_formed() {
        assert_eq!(CODES.len() % 3, 0);
        assert!(CODES.bytes().all(|b| b.is_ascii_uppercase()));
        let codes: Vec<&[u8]> = CODES.as_bytes().chunks(3).collect();
        for pair in codes.windows(2) {
            assert!(pair[0] < pair[1], "{:?} before {:?}", pair[0], pair[1]);
        }
        for list in [EXPONENT_0, EXPONENT_3, EXPONENT_4] {
            for code in list.as_bytes().chunks(3) {
                assert!(codes.contains(&code), "{code:?} is listed but not a code");
            }
        }
        assert_eq!(codes.len(), 166);
    }

    #[test]
    fn exponent_or_two_ignores_case_and_defaults_to_two() {
        assert_eq!(exponent_or_two("jpy"), 0);
        assert_eq!(exponent_or_two("Kwd"), 3);
        assert_eq!(exponent_or_two("EUR"), 2);
        assert_eq!(exponent_or_two("XAU"), 2);
        assert_eq!(exponent_or_two("CLF"), 4);
        // A code straddling two table entries must not match.
        assert_eq!(exponent_or_two("IFC"), 2);
        assert_eq!(exponent_or_two("JP"), 2);
        assert_eq!(exponent_or_two(""), 2);
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
