//! Plural forms. A message whose words depend on a count holds one variant per plural category
//! of its language, as `one:{0} payment|other:{0} payments`, and may add exact matches such as
//! `=1:every day`. The category of a count comes from the browser's `Intl.PluralRules`
//! (CLDR), so no rules are compiled into the wasm; [`categories`] only lists what each
//! language's catalogue must cover, for the tests.

use super::{Locale, number_text};

/// The CLDR plural categories.
const CATEGORIES: [&str; 6] = ["zero", "one", "two", "few", "many", "other"];

/// The variant of `text` for `count`, whose plural category is `category`: an exact `=count`
/// match first, then the category, then `other`. A text without variants is its own variant.
pub fn variant<'a>(text: &'a str, category: &str, count: u64) -> &'a str {
    let exact = ["=", &number_text(count)].concat();
    let pick = |wanted: &str| {
        variants(text)
            .find(|(key, _)| *key == wanted)
            .map(|(_, words)| words)
    };
    pick(&exact)
        .or_else(|| pick(category))
        .or_else(|| pick("other"))
        .unwrap_or(text)
}

/// Whether `text` is written as variants: every `|`-separated part starts with a category
/// or an exact match (`=2`) and a colon. For the tests: at run time a text in which no variant
/// matches is taken whole.
#[cfg(test)]
pub fn is_plural(text: &str) -> bool {
    variants(text).count() == text.split('|').count()
        && variants(text).all(|(key, _)| key.starts_with('=') || CATEGORIES.contains(&key))
}

/// The `(key, words)` variants of a plural `text`.
pub fn variants(text: &str) -> impl Iterator<Item = (&str, &str)> {
    text.split('|').filter_map(|part| part.split_once(':'))
}

/// The categories whole counts fall into in `locale` (CLDR; the "many" that French, Spanish,
/// Italian and Portuguese use for exact millions is left to `other`): what a catalogue's
/// plural messages must cover.
pub fn categories(locale: Locale) -> &'static [&'static str] {
    match locale {
        Locale::Ja | Locale::Zh => &["other"],
        Locale::Pl => &["one", "few", "many"],
        Locale::He => &["one", "two", "other"],
        Locale::Ar => &CATEGORIES,
        Locale::En
        | Locale::De
        | Locale::Fr
        | Locale::Es
        | Locale::It
        | Locale::Nl
        | Locale::Pt
        | Locale::Sv => &["one", "other"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAYMENTS: &str = "=0:none|one:{0} payment|other:{0} payments";

    #[test]
    fn picks_the_exact_match_then_the_category_then_other() {
        assert_eq!(variant(PAYMENTS, "other", 0), "none");
        assert_eq!(variant(PAYMENTS, "one", 1), "{0} payment");
        assert_eq!(variant(PAYMENTS, "other", 7), "{0} payments");
        assert_eq!(variant(PAYMENTS, "many", 11), "{0} payments");
    }

    #[test]
    fn a_plain_text_is_every_variant() {
        for text in ["{0} payments", "var {0}:e dag", "Due today: {0}", "a|b"] {
            assert!(!is_plural(text), "{text}");
            assert_eq!(variant(text, "one", 1), text);
        }
        assert!(is_plural("=1:毎日|other:{0}日ごと"));
    }
}
