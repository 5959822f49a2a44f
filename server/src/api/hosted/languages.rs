//! The payer's language on the hosted pages: `?lang=` (the switcher's links, which work without
//! a script) when it names one of the card form's 13, else the browser's first
//! `Accept-Language`, else English; and the switcher itself.

use axum::http::HeaderMap;
use axum::http::header::ACCEPT_LANGUAGE;
use checkout::i18n::Locale;
use serde::Deserialize;

use super::texts::{NATIVE_NAMES, Text};

/// The query the hosted pages take.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct LanguageQuery {
    /// A BCP 47 tag; an unknown one is ignored.
    lang: String,
}

/// The payer's language.
pub fn chosen(query: &LanguageQuery, headers: &HeaderMap) -> Locale {
    let accepted = headers
        .get(ACCEPT_LANGUAGE)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split([',', ';']).next())
        .map(str::trim);
    Locale::choose(Some(query.lang.as_str()), accepted)
}

/// The switcher: a disclosure (`<details>`) naming the current language, holding a link per
/// language to this page in it (`?lang=…`, relative to the page's address; no script needed),
/// the current one marked. Closed, its list is not laid out: the first paint sets no Japanese,
/// Chinese, Arabic or Hebrew text in a page of another script (the font fall-back a fresh
/// renderer does for each cost the page about as much layout as all the rest of it).
pub fn switcher(current: Locale) -> String {
    let links: String = Locale::ALL
        .into_iter()
        .zip(NATIVE_NAMES)
        .map(|(locale, name)| {
            let marked = if locale == current {
                " aria-current=\"true\""
            } else {
                ""
            };
            format!(
                "<li><a href=\"?lang={tag}\" lang=\"{tag}\" hreflang=\"{tag}\" \
                 dir=\"{dir}\"{marked}>{name}</a></li>",
                tag = locale.tag(),
                dir = locale.dir(),
            )
        })
        .collect();
    let label = Text::Language.of(current);
    let name = Locale::ALL
        .into_iter()
        .zip(NATIVE_NAMES)
        .find_map(|(locale, name)| (locale == current).then_some(name))
        .unwrap_or_default();
    format!(
        "<nav class=\"hp-langs\" aria-label=\"{label}\"><details><summary>{label}: {name}\
         </summary><ul>{links}</ul></details></nav>"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn the_link_beats_the_browser_which_beats_english() {
        let mut headers = HeaderMap::new();
        headers.insert(ACCEPT_LANGUAGE, HeaderValue::from_static("de-AT,de;q=0.9"));
        let none = LanguageQuery::default();
        assert_eq!(chosen(&none, &headers), Locale::De);
        let arabic = LanguageQuery { lang: "ar".into() };
        assert_eq!(chosen(&arabic, &headers), Locale::Ar);
        let unknown = LanguageQuery { lang: "xx".into() };
        assert_eq!(chosen(&unknown, &headers), Locale::De);
        assert_eq!(chosen(&none, &HeaderMap::new()), Locale::En);
    }

    #[test]
    fn the_switcher_is_closed_and_links_every_language_marking_the_current_one() {
        let html = switcher(Locale::He);
        assert_eq!(html.matches("<a ").count(), 13, "{html}");
        assert!(html.contains("href=\"?lang=ja\""), "{html}");
        assert!(
            html.contains("dir=\"rtl\" aria-current=\"true\">עברית"),
            "{html}"
        );
        assert_eq!(html.matches("aria-current").count(), 1);
        assert!(
            html.contains("<details><summary>שפה: עברית</summary><ul>"),
            "closed, naming the current language: {html}"
        );
        assert!(!html.contains("<details open"), "{html}");
    }
}
