//! The non-English catalogues read straight from their JS modules (`js/i18n/<tag>.js`),
//! compiled in: for checkout-server, which renders the frame document's form in the shopper's
//! language, and for unit tests (the browser loads the modules on first use instead,
//! `catalogues.rs`).

use super::Locale;

/// The template literal of `export default `...`;`.
fn body(module: &'static str) -> &'static str {
    let start = module.find('`').map_or(0, |at| at + 1);
    let end = module.rfind('`').unwrap_or(module.len());
    &module[start..end]
}

/// The bundled text of a non-English `locale`.
pub fn get(locale: Locale) -> Option<&'static str> {
    let module = match locale {
        Locale::En => return None,
        Locale::De => include_str!("../../js/i18n/de.js"),
        Locale::Fr => include_str!("../../js/i18n/fr.js"),
        Locale::Es => include_str!("../../js/i18n/es.js"),
        Locale::Ja => include_str!("../../js/i18n/ja.js"),
    };
    Some(body(module))
}

#[test]
fn modules_hold_one_plain_template_literal() {
    for locale in [Locale::De, Locale::Fr, Locale::Es, Locale::Ja] {
        let text = get(locale).unwrap_or_default();
        assert!(!text.is_empty(), "{locale:?}");
        assert!(
            !text.contains(['`', '\\']) && !text.contains("${"),
            "{locale:?}: backticks, backslashes and ${{ would change the text in JS"
        );
    }
}
