//! ISO 3166-1 alpha-2 codes offered in the billing country list. Names come from the browser
//! (`Intl.DisplayNames`) in the shopper's language, so no name table ships in the wasm.

use crate::i18n::{Locale, region_list};

/// Every officially assigned code, two letters each, alphabetical.
const CODES: &str = concat!(
    "ADAEAFAGAIALAMAOAQARASATAUAWAXAZBABBBDBEBFBGBHBIBJBLBMBNBOBQBRBSBTBVBWBYBZCACCCDCFCGCHCICK",
    "CLCMCNCOCRCUCVCWCXCYCZDEDJDKDMDODZECEEEGEHERESETFIFJFKFMFOFRGAGBGDGEGFGGGHGIGLGMGNGPGQGRGS",
    "GTGUGWGYHKHMHNHRHTHUIDIEILIMINIOIQIRISITJEJMJOJPKEKGKHKIKMKNKPKRKWKYKZLALBLCLILKLRLSLTLULV",
    "LYMAMCMDMEMFMGMHMKMLMMMNMOMPMQMRMSMTMUMVMWMXMYMZNANCNENFNGNINLNONPNRNUNZOMPAPEPFPGPHPKPLPM",
    "PNPRPSPTPWPYQARERORSRURWSASBSCSDSESGSHSISJSKSLSMSNSOSRSSSTSVSXSYSZTCTDTFTGTHTJTKTLTMTNTOTR",
    "TTTVTWTZUAUGUMUSUYUZVAVCVEVGVIVNVUWFWSYEYTZAZMZW",
);

/// `(code, name)` for every country, sorted by name in `locale`.
pub fn countries(locale: Locale) -> Vec<(String, String)> {
    region_list(locale, CODES)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_sorted_pairs_of_capitals() {
        assert_eq!(CODES.len(), 249 * 2);
        let codes: Vec<&[u8]> = CODES.as_bytes().chunks(2).collect();
        assert!(codes.windows(2).all(|w| w[0] < w[1]));
        assert!(CODES.bytes().all(|b| b.is_ascii_uppercase()));
        assert!(codes.contains(&&b"DE"[..]) && codes.contains(&&b"JP"[..]));
    }
}
