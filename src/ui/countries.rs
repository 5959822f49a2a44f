//! ISO 3166-1 alpha-2 codes offered in the billing country list. Names come from the browser
//! (`Intl.DisplayNames`) in the shopper's language, so no name table ships in the wasm.
//!
//! The list is not part of the form's first render: the `<select>` starts with "choose a
//! country" and the country already chosen, and takes the 249 named and sorted options in the
//! next task, once the form is on screen (and `ready` told), so naming, sorting and building
//! them does not delay the form (tens of ms at 4x CPU; docs/size.md). Autofill comes later
//! than that: the frame's HTML form has no country list to fill, and the shopper's request to
//! fill needs a task of its own.

use super::dom::{El, el};
use crate::browser::clock::sleep;
use crate::i18n::{Locale, region_list};
use wasm_bindgen::JsCast;

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

/// `select` with its first option, `choose`, and `current` (a code, or empty) chosen; the rest
/// of the list follows after the first render, `current` (or what is chosen by then) kept.
pub fn country_select(select: El, locale: Locale, choose: &str, current: &str) -> El {
    let mut select = select.child(el("option").attr("value", "").text(choose));
    if !current.is_empty() {
        for (code, name) in region_list(locale, current) {
            select = select.child(option(&code, &name, true));
        }
    }
    let element = select.0.clone();
    any_spawner::Executor::spawn_local(async move {
        sleep(0).await;
        let chosen = element
            .unchecked_ref::<web_sys::HtmlSelectElement>()
            .value();
        // All but "choose a country": the chosen one comes again in its place in the list.
        while element.child_element_count() > 1 {
            match element.last_element_child() {
                Some(extra) => extra.remove(),
                None => break,
            }
        }
        for (code, name) in countries(locale) {
            let _ = element.append_child(&option(&code, &name, code == chosen).0);
        }
    });
    select
}

fn option(code: &str, name: &str, selected: bool) -> El {
    let option = el("option").attr("value", code).text(name);
    if selected {
        option.attr("selected", "")
    } else {
        option
    }
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
