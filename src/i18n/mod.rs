//! Message catalogues (English, German, French, Spanish, Japanese) and locale-aware formatting
//! of money and dates.
//!
//! A catalogue is one `&'static str` with a line per [`Msg`]: no per-message pointer tables and
//! no formatting machinery in the wasm, only a line lookup and [`fill`] for `{0}`-style holes.
//! English is compiled in; the other languages load on first use ([`catalogues`]).

#[cfg(any(test, not(all(feature = "ui", target_arch = "wasm32"))))]
mod bundled;
#[cfg(feature = "ui")]
pub mod catalogues;
mod en;
#[cfg(feature = "ui")]
mod format;
mod messages;

#[cfg(feature = "ui")]
pub use format::{decimal_amount, format_date, format_money, money, region_list};
pub use messages::Msg;

/// A language the component speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Locale {
    /// English, the fallback.
    #[default]
    En,
    /// German.
    De,
    /// French.
    Fr,
    /// Spanish.
    Es,
    /// Japanese.
    Ja,
}

impl Locale {
    /// The locale whose language is the primary subtag of the BCP 47 `tag` (`de-AT` gives
    /// German), `None` when that language has no catalogue.
    pub fn from_tag(tag: &str) -> Option<Locale> {
        let primary = tag.split(['-', '_']).next().unwrap_or_default();
        match primary.to_ascii_lowercase().as_str() {
            "en" => Some(Self::En),
            "de" => Some(Self::De),
            "fr" => Some(Self::Fr),
            "es" => Some(Self::Es),
            "ja" => Some(Self::Ja),
            _ => None,
        }
    }

    /// The explicit choice when it names a known language, else the browser's
    /// `navigator.language`, else English.
    pub fn choose(explicit: Option<&str>, browser_language: Option<&str>) -> Locale {
        explicit
            .and_then(Self::from_tag)
            .or_else(|| browser_language.and_then(Self::from_tag))
            .unwrap_or_default()
    }

    /// The BCP 47 tag, as given to `Intl` and `lang=`.
    pub fn tag(self) -> &'static str {
        match self {
            Self::En => "en",
            Self::De => "de",
            Self::Fr => "fr",
            Self::Es => "es",
            Self::Ja => "ja",
        }
    }

    /// This language's catalogue: in the browser English until it has loaded (see
    /// `catalogues::load`); anywhere else (the server) compiled in, whatever the features.
    fn catalogue(self) -> &'static str {
        #[cfg(all(feature = "ui", target_arch = "wasm32"))]
        let found = catalogues::get(self);
        #[cfg(not(all(feature = "ui", target_arch = "wasm32")))]
        let found = bundled::get(self);
        found.unwrap_or(en::TEXT)
    }

    /// The text of `msg` in this language (holes unfilled).
    pub fn text(self, msg: Msg) -> &'static str {
        self.catalogue()
            .split('\n')
            .nth(msg as usize)
            .unwrap_or_default()
    }
}

/// Replaces `{0}`, `{1}`, ... in `template` with `args`; a hole without an argument stays.
pub fn fill(template: &str, args: &[&str]) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let index = after.as_bytes().first().map(|b| b.wrapping_sub(b'0'));
        match (index, after.as_bytes().get(1)) {
            (Some(i), Some(b'}')) if usize::from(i) < args.len() => {
                out.push_str(args[usize::from(i)]);
                rest = &after[2..];
            }
            _ => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Decimal digits of `n`, without the formatting machinery.
pub fn number_text(mut n: u64) -> String {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    digits[at..].iter().map(|&d| char::from(d)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: [Locale; 5] = [Locale::En, Locale::De, Locale::Fr, Locale::Es, Locale::Ja];

    fn holes(text: &str) -> Vec<&str> {
        let mut found: Vec<&str> = ["{0}", "{1}"]
            .into_iter()
            .filter(|h| text.contains(h))
            .collect();
        found.sort_unstable();
        found
    }

    #[test]
    fn every_catalogue_has_one_line_per_message() {
        for locale in ALL {
            let lines = locale.catalogue().split('\n').count();
            assert_eq!(lines, Msg::COUNT, "{locale:?}");
            assert!(
                locale.catalogue().split('\n').all(|l| !l.trim().is_empty()),
                "{locale:?} has an empty line"
            );
        }
    }

    #[test]
    fn translations_keep_the_english_holes() {
        for (index, english) in Locale::En.catalogue().split('\n').enumerate() {
            for locale in ALL {
                let line = locale
                    .catalogue()
                    .split('\n')
                    .nth(index)
                    .unwrap_or_default();
                assert_eq!(
                    holes(line),
                    holes(english),
                    "{locale:?} line {index}: {line}"
                );
            }
        }
    }

    #[test]
    fn looks_up_by_key() {
        assert_eq!(Locale::En.text(Msg::LabelNumber), "Card number");
        assert_eq!(Locale::De.text(Msg::LabelNumber), "Kartennummer");
        assert_eq!(
            Locale::En.text(Msg::SubscriptionUpdated),
            "Subscription updated."
        );
        assert_eq!(Locale::Ja.text(Msg::LabelCvc), "セキュリティコード");
    }

    #[test]
    fn chooses_a_locale() {
        assert_eq!(Locale::choose(Some("de-AT"), Some("fr")), Locale::De);
        assert_eq!(Locale::choose(Some("pt-BR"), Some("fr-CA")), Locale::Fr);
        assert_eq!(Locale::choose(None, Some("ja_JP")), Locale::Ja);
        assert_eq!(Locale::choose(Some(""), Some("xx")), Locale::En);
        assert_eq!(Locale::choose(Some("ES"), None), Locale::Es);
    }

    #[test]
    fn fills_holes_in_any_order() {
        assert_eq!(fill("Pay {0}", &["€1.00"]), "Pay €1.00");
        assert_eq!(fill("{1}回中{0}回", &["3", "12"]), "12回中3回");
        assert_eq!(fill("{0} {2} {", &["a"]), "a {2} {");
        assert_eq!(fill("none", &[]), "none");
    }

    #[test]
    fn writes_numbers() {
        assert_eq!(number_text(0), "0");
        assert_eq!(number_text(1005), "1005");
        assert_eq!(number_text(u64::MAX), "18446744073709551615");
    }
}
