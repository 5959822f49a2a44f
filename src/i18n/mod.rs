//! Message catalogues (English, German, French, Spanish, Italian, Dutch, Portuguese, Polish,
//! Swedish, Japanese, Chinese, Arabic, Hebrew) and locale-aware formatting of money and dates.
//!
//! A catalogue is one `&'static str` with a line `Id=text` per [`Msg`], keyed by the message's
//! id, read once into a table in [`Msg`] order ([`keyed`]): no formatting machinery in the
//! wasm, only that table, [`fill`] for `{0}`-style holes and [`plural`] forms for counts.
//! English is compiled in, as a table beside the ids (`messages.rs`); the other languages load
//! on first use ([`catalogues`]). Arabic and Hebrew are written right to left ([`Locale::dir`]).

#[cfg(any(test, not(all(feature = "ui", target_arch = "wasm32"))))]
mod bundled;
#[cfg(feature = "ui")]
pub mod catalogues;
#[cfg(feature = "ui")]
mod format;
mod keyed;
mod messages;
pub mod plural;

#[cfg(feature = "ui")]
pub use format::{count_text, counted, decimal_amount, format_date, format_money, money};
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
    /// Italian.
    It,
    /// Dutch.
    Nl,
    /// Portuguese.
    Pt,
    /// Polish.
    Pl,
    /// Swedish.
    Sv,
    /// Japanese.
    Ja,
    /// Chinese (simplified).
    Zh,
    /// Arabic, right to left.
    Ar,
    /// Hebrew, right to left.
    He,
}

impl Locale {
    /// Every language, English first.
    pub const ALL: [Locale; 13] = [
        Self::En,
        Self::De,
        Self::Fr,
        Self::Es,
        Self::It,
        Self::Nl,
        Self::Pt,
        Self::Pl,
        Self::Sv,
        Self::Ja,
        Self::Zh,
        Self::Ar,
        Self::He,
    ];

    /// The locale whose language is the primary subtag of the BCP 47 `tag` (`de-AT` gives
    /// German), `None` when that language has no catalogue.
    pub fn from_tag(tag: &str) -> Option<Locale> {
        let primary = tag.split(['-', '_']).next().unwrap_or_default();
        // `iw` is Hebrew's withdrawn code, which some browsers still send.
        let primary = if primary.eq_ignore_ascii_case("iw") {
            "he"
        } else {
            primary
        };
        Self::ALL
            .into_iter()
            .find(|locale| locale.tag().eq_ignore_ascii_case(primary))
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
            Self::It => "it",
            Self::Nl => "nl",
            Self::Pt => "pt",
            Self::Pl => "pl",
            Self::Sv => "sv",
            Self::Ja => "ja",
            Self::Zh => "zh",
            Self::Ar => "ar",
            Self::He => "he",
        }
    }

    /// The writing direction, as `dir=` takes it: `rtl` for Arabic and Hebrew.
    pub fn dir(self) -> &'static str {
        match self {
            Self::Ar | Self::He => "rtl",
            _ => "ltr",
        }
    }

    /// This language's texts in [`Msg`] order: in the browser English until it has loaded
    /// (see `catalogues::load`); anywhere else (the server) compiled in, whatever the features.
    fn texts(self) -> &'static [&'static str] {
        #[cfg(all(feature = "ui", target_arch = "wasm32"))]
        let found = catalogues::get(self);
        #[cfg(not(all(feature = "ui", target_arch = "wasm32")))]
        let found = bundled::get(self);
        found.unwrap_or(Msg::ENGLISH)
    }

    /// The text of `msg` in this language (holes unfilled), the English one when this
    /// language's catalogue lacks it.
    pub fn text(self, msg: Msg) -> &'static str {
        match self.texts()[msg as usize] {
            "" => Msg::ENGLISH[msg as usize],
            text => text,
        }
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

    /// The catalogue of `locale` as written (English as its lines would be).
    fn source(locale: Locale) -> String {
        bundled::source(locale).map_or_else(
            || {
                let lines = Msg::IDS.iter().zip(Msg::ENGLISH);
                lines
                    .map(|(id, text)| [id, "=", text, "\n"].concat())
                    .collect()
            },
            str::to_owned,
        )
    }

    fn holes(text: &str) -> Vec<&str> {
        let mut found: Vec<&str> = ["{0}", "{1}"]
            .into_iter()
            .filter(|h| text.contains(h))
            .collect();
        found.sort_unstable();
        found
    }

    #[test]
    fn every_catalogue_has_every_message_once_and_no_other() {
        for locale in Locale::ALL {
            let problems = keyed::check(&source(locale));
            assert!(problems.is_empty(), "{locale:?}: {problems:#?}");
        }
    }

    #[test]
    fn translations_keep_the_english_holes() {
        for locale in Locale::ALL {
            for (at, id) in Msg::IDS.iter().enumerate() {
                let (english, text) = (Msg::ENGLISH[at], locale.texts()[at]);
                assert_eq!(holes(text), holes(english), "{locale:?} {id}: {text}");
            }
        }
    }

    #[test]
    fn plural_messages_have_every_form_their_language_uses() {
        for locale in Locale::ALL {
            let needed = plural::categories(locale);
            for (at, id) in Msg::IDS.iter().enumerate() {
                let (english, text) = (Msg::ENGLISH[at], locale.texts()[at]);
                let context = format!("{locale:?} {id}: {text}");
                if !plural::is_plural(english) {
                    assert!(
                        !plural::is_plural(text),
                        "plural where English is not: {context}"
                    );
                    continue;
                }
                if needed == ["other"] && !plural::is_plural(text) {
                    continue;
                }
                assert!(
                    plural::is_plural(text),
                    "not written as plural forms: {context}"
                );
                let keys: Vec<&str> = plural::variants(text).map(|(key, _)| key).collect();
                for key in &keys {
                    assert!(
                        key.starts_with('=') || needed.contains(key),
                        "form {key} is not one of {needed:?}: {context}"
                    );
                }
                for category in needed {
                    assert!(keys.contains(category), "no {category} form: {context}");
                }
            }
        }
    }

    #[test]
    fn thirteen_languages_two_of_them_right_to_left() {
        assert_eq!(Locale::ALL.len(), 13);
        let rtl: Vec<Locale> = Locale::ALL
            .into_iter()
            .filter(|l| l.dir() == "rtl")
            .collect();
        assert_eq!(rtl, [Locale::Ar, Locale::He]);
        for locale in Locale::ALL {
            assert_eq!(Locale::from_tag(locale.tag()), Some(locale));
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
        assert_eq!(Locale::Ar.text(Msg::LabelNumber), "رقم البطاقة");
        assert_eq!(Locale::He.text(Msg::Pay), "תשלום {0}");
    }

    #[test]
    fn chooses_a_locale() {
        assert_eq!(Locale::choose(Some("de-AT"), Some("fr")), Locale::De);
        assert_eq!(Locale::choose(Some("pt-BR"), Some("fr-CA")), Locale::Pt);
        assert_eq!(Locale::choose(Some("tlh"), Some("fr-CA")), Locale::Fr);
        assert_eq!(Locale::choose(Some("iw-IL"), None), Locale::He);
        assert_eq!(Locale::choose(None, Some("zh-Hans-CN")), Locale::Zh);
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
