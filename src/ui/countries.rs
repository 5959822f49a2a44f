//! ISO 3166-1 alpha-2 codes offered in the billing country list. Names come from the browser
//! (`Intl.DisplayNames`) in the shopper's language, so no name table ships in the wasm.
//!
//! The list is not part of the form's first render: the `<select>` starts with "choose a
//! country" and the country already chosen, and takes the 249 named and sorted options in the
//! next task, once the form is on screen (and `ready` told), so naming, sorting and building
//! them does not delay the form (tens of ms at 4x CPU; docs/size.md). `js/intl.js` builds them,
//! which keeps the loop out of the wasm. Autofill comes later than that: the frame's HTML form
//! has no country list to fill, and the shopper's request to fill needs a task of its own.

use super::dom::{El, el};
use crate::form_fields::COUNTRY_CODES as CODES;
use crate::i18n::Locale;
use wasm_bindgen::prelude::wasm_bindgen;

#[wasm_bindgen(module = "/js/intl.js")]
extern "C" {
    #[wasm_bindgen(js_name = fillCountries)]
    fn fill_countries(select: &web_sys::Element, locale: &str, packed_codes: &str, chosen: &str);
}

/// `select` with its first option, `choose`, and `current` (a code, or empty) chosen; the rest
/// of the list follows after the first render, `current` (or what is chosen by then) kept.
pub fn country_select(select: El, locale: Locale, choose: &str, current: &str) -> El {
    let select = select.child(el("option").attr("value", "").text(choose));
    fill_countries(&select.0, locale.tag(), CODES, current);
    select
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
