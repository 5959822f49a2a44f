//! The non-English catalogues read straight from their JS modules (`js/i18n/<tag>.js`),
//! compiled in: for checkout-server, which renders the frame document's form in the shopper's
//! language, and for unit tests (the browser loads the modules on first use instead,
//! `catalogues.rs`).

use super::{Locale, keyed};
use std::sync::OnceLock;

/// The template literal of `export default `...`;`.
fn body(module: &'static str) -> &'static str {
    let start = module.find('`').map_or(0, |at| at + 1);
    let end = module.rfind('`').unwrap_or(module.len());
    &module[start..end]
}

/// The catalogue of a non-English `locale` as written.
pub fn source(locale: Locale) -> Option<&'static str> {
    let module = match locale {
        Locale::En => return None,
        Locale::De => include_str!("../../js/i18n/de.js"),
        Locale::Fr => include_str!("../../js/i18n/fr.js"),
        Locale::Es => include_str!("../../js/i18n/es.js"),
        Locale::It => include_str!("../../js/i18n/it.js"),
        Locale::Nl => include_str!("../../js/i18n/nl.js"),
        Locale::Pt => include_str!("../../js/i18n/pt.js"),
        Locale::Pl => include_str!("../../js/i18n/pl.js"),
        Locale::Sv => include_str!("../../js/i18n/sv.js"),
        Locale::Ja => include_str!("../../js/i18n/ja.js"),
        Locale::Zh => include_str!("../../js/i18n/zh.js"),
        Locale::Ar => include_str!("../../js/i18n/ar.js"),
        Locale::He => include_str!("../../js/i18n/he.js"),
    };
    Some(body(module))
}

/// The texts of a non-English `locale`, read once.
pub fn get(locale: Locale) -> Option<&'static [&'static str]> {
    static READ: [OnceLock<Vec<&'static str>>; Locale::ALL.len()] =
        [const { OnceLock::new() }; Locale::ALL.len()];
    let text = source(locale)?;
    Some(READ[locale as usize].get_or_init(|| keyed::texts(text)))
}

#[test]
fn modules_hold_one_plain_template_literal() {
    for locale in Locale::ALL.into_iter().skip(1) {
        let text = source(locale).unwrap_or_default();
        assert!(!text.is_empty(), "{locale:?}");
        assert!(
            !text.contains(['`', '\\']) && !text.contains("${"),
            "{locale:?}: backticks, backslashes and ${{ would change the text in JS"
        );
    }
}
