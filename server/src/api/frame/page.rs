//! The frame document assembled: the built page of a mode read from `COMPONENT_DIR`, the
//! options (and the session's view) written into it as JSON data blocks ([`FrameConfig`]), and
//! the card form as HTML (or its loading outline) in the form's place.

use std::collections::BTreeMap;

use checkout::card::YearMonth;
use checkout::contract::CheckoutView;
use checkout::contract::routes::CARRIED_VIEW_ID;
use checkout::i18n::{Locale, Msg};
use serde::Serialize;

use super::dialog_texts::DialogTexts;
use super::outline::{Outline, outline};
use super::refusal::FrameRefusal;
use super::result_page;
use super::skeleton::skeleton;
use crate::api::checkout::{checkout_view, verified_session};
use crate::web::AppState;

/// The options written into the document for `www/frame.js`.
#[derive(Debug, Serialize)]
pub(super) struct FrameConfig<'a> {
    pub(super) origin: &'a str,
    pub(super) session: &'a str,
    pub(super) client_secret: &'a str,
    pub(super) customer_token: &'a str,
    pub(super) mode: &'a str,
    pub(super) locale: &'a str,
    pub(super) theme: BTreeMap<String, String>,
    /// The frame's title in the shopper's language, for the loader's `<iframe title>`.
    pub(super) title: &'static str,
    /// The 3-D Secure dialog's texts in the shopper's language, for the loader.
    pub(super) three_ds: DialogTexts,
    /// A cacheable shell's build ([`super::shell`]): the options above that belong to the
    /// session stay empty, and come from the page in a message.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) build: Option<&'a str>,
}

/// The frame's title in `locale` for `mode`.
pub(super) fn title(mode: &str, locale: Locale) -> &'static str {
    locale.text(if mode == "subscriptions" {
        Msg::SubscriptionsTitle
    } else {
        Msg::FrameTitle
    })
}

/// The built page of `mode` ([`built`]), read for each frame (a few KB): a rebuilt component is
/// served without a restart.
pub(crate) async fn template(state: &AppState, mode: &str) -> Result<String, FrameRefusal> {
    tokio::fs::read_to_string(state.config.component_dir.join(built(mode)))
        .await
        .map_err(|_| FrameRefusal::NotBuilt)
}

/// The page of `mode` from its built `template`: the template itself, or for mode `result`
/// the result page, styled as the card form's template is ([`result_page`]: no wasm).
pub(super) fn page(template: String, mode: &str, locale: Locale, config: &FrameConfig) -> String {
    if mode == "result" {
        let theme = theme_style(&config.theme);
        result_page::document(&template, locale, config.title, &theme)
    } else {
        template
    }
}

/// The built page of `mode`: the card form's, or the subscription bundle's (trunk builds the
/// same `www/index.html` a second time with the `subscriptions` feature into `manage/`, so the
/// card form never downloads the self-service view). The result page takes its styles from
/// the card form's.
fn built(mode: &str) -> &'static str {
    if mode == "subscriptions" {
        "manage/index.html"
    } else {
        "index.html"
    }
}

/// Where the template shows the form: the component and, before it, the HTML form.
const FORM_SLOT: &str = "<main id=\"checkout\"></main>";

/// `html` with, in the form's place, [`form_html`].
pub(super) fn with_form(
    html: String,
    mode: &str,
    view: Option<&CheckoutView>,
    locale: Locale,
    theme: &BTreeMap<String, String>,
) -> String {
    match form_html(mode, view, locale, theme) {
        Some(form) => html.replacen(
            FORM_SLOT,
            &format!("<main id=\"checkout\">{form}</main>"),
            1,
        ),
        None => html,
    }
}

/// The HTML form of `view` (a one-off payment) this month, or else the loading outline of
/// what `mode` shows (none for a result, which is one short panel).
pub(crate) fn form_html(
    mode: &str,
    view: Option<&CheckoutView>,
    locale: Locale,
    theme: &BTreeMap<String, String>,
) -> Option<String> {
    let now = time::OffsetDateTime::now_utc();
    let today = YearMonth::new(
        now.year().try_into().unwrap_or(u16::MAX),
        now.month().into(),
    );
    let style = theme_style(theme);
    view.zip(today)
        .and_then(|(view, today)| skeleton(view, locale, &style, today))
        .or_else(|| match mode {
            "" | "checkout" => Some(outline(Outline::CardForm, locale, &style)),
            "subscriptions" => Some(outline(Outline::List, locale, &style)),
            _ => None,
        })
}

/// `--cc-accent:#0a7;...`: the theme as a `style` attribute's declarations.
pub(super) fn theme_style(theme: &BTreeMap<String, String>) -> String {
    theme
        .iter()
        .map(|(name, value)| format!("{name}:{value};"))
        .collect()
}

/// The view `GET /v1/checkout/{session}` would answer with `client_secret`; `None` when that
/// would be an error (the component then fetches it and shows the error as always).
pub(super) async fn carried_view(
    state: &AppState,
    session: &str,
    client_secret: &str,
) -> Option<CheckoutView> {
    if session.is_empty() || client_secret.is_empty() {
        return None;
    }
    let session = verified_session(state, session, client_secret).await.ok()?;
    checkout_view(state, &session).await.ok()
}

/// `template` with `config` (and the session's `view`) as JSON data blocks before `</head>`;
/// `None` without one.
pub(super) fn with_config(
    template: &str,
    config: &FrameConfig<'_>,
    view: Option<&CheckoutView>,
) -> Option<String> {
    let mut blocks = data_block("checkout-config", config)?;
    if let Some(view) = view {
        blocks.push_str(&data_block(CARRIED_VIEW_ID, view)?);
    }
    // The last one: a comment in the head may mention the tag.
    let at = template.rfind("</head>")?;
    Some([&template[..at], &blocks, &template[at..]].concat())
}

/// `<script type="application/json" id="{id}">` holding `value`.
pub(crate) fn data_block(id: &str, value: &impl Serialize) -> Option<String> {
    let json = serde_json::to_string(value).ok()?;
    // Inside <script> only `</script` could end the block; escaping every `<`, `>` and `&`
    // leaves the JSON the same to a parser and gives HTML nothing to see.
    let json = json
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026");
    Some(format!(
        "<script type=\"application/json\" id=\"{id}\">{json}</script>\n"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(theme: BTreeMap<String, String>) -> FrameConfig<'static> {
        FrameConfig {
            origin: "https://shop.example",
            session: "s_1",
            client_secret: "cs_</script><b>",
            customer_token: "",
            mode: "",
            locale: "de",
            theme,
            title: "Kartenzahlung",
            three_ds: DialogTexts::of(Locale::De),
            build: None,
        }
    }

    #[test]
    fn the_config_cannot_end_its_script_block() {
        let html = with_config(
            "<head><title>t</title></head><body></body>",
            &config(BTreeMap::new()),
            None,
        )
        .expect("has a head");
        assert_eq!(html.matches("</script>").count(), 1, "{html}");
        assert!(
            html.contains("cs_\\u003c/script\\u003e\\u003cb\\u003e"),
            "{html}"
        );
        let start = html.find("\">").expect("block") + 2;
        let end = html.find("</script>").expect("end");
        let back: serde_json::Value = serde_json::from_str(&html[start..end]).expect("JSON");
        assert_eq!(back["client_secret"], "cs_</script><b>");
        assert!(with_config("<p>no head</p>", &config(BTreeMap::new()), None).is_none());
    }
}
