//! `POST /frame/`: the frame document. The loader posts the page's options into the frame it
//! made (a form aimed at the `<iframe>`), so the client secret and customer token travel in a
//! request body, never in a URL, a log line or a `Referer`.
//!
//! The document is only for a frame: a browser that says what the request is for
//! (`Sec-Fetch-Dest`, Fetch Metadata) must say `iframe`. A hostile page could otherwise post a
//! form with `target=_top` and show the real card form, with a shop's name and amount, as a
//! page of its own on this origin, where `frame-ancestors` protects nothing; the document
//! carries the form as HTML, which renders before any script could notice. A browser without
//! Fetch Metadata still gets `frame-ancestors`, and `www/frame.js` shows no form outside a frame.
//!
//! The page's origin is the `origin` field. It must be one of `ALLOWED_ORIGINS` (or this
//! server's own) and equal the `Origin` header when the browser sent a real one (a page whose
//! referrer policy is `no-referrer` sends `null`). The answer is the built page
//! (`COMPONENT_DIR/index.html`, `manage/index.html` for mode `subscriptions`, or the result
//! page made with the former's styles for mode `result`, [`result_page`]) with the
//! options inserted as JSON before `</head>`, framed only by that origin (CSP
//! `frame-ancestors`), never stored (`no-store`). In checkout mode,
//! when the client secret is the session's, the session's view goes in too (the answer of
//! `GET /v1/checkout/{id}`), so the form does not wait for a second request to show.

use std::collections::BTreeMap;

use axum::Form;
use axum::extract::State;
use axum::extract::rejection::FormRejection;
use axum::http::header::{
    ACCEPT_LANGUAGE, CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, ORIGIN,
};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use checkout::card::YearMonth;
use checkout::contract::CheckoutView;
use checkout::contract::routes::CARRIED_VIEW_ID;
use checkout::i18n::{Locale, Msg};
use serde::{Deserialize, Serialize};

use super::dialog_texts::DialogTexts;
use super::outline::{Outline, outline};
use super::policy::frame_policy;
use super::result_page;
use super::skeleton::skeleton;
use crate::api::checkout::{checkout_view, verified_session};
use crate::web::AppState;
use crate::web::protect::csrf::TrustedOrigins;

/// Longest option value accepted (ids, secrets, tokens, tags).
const MAX_OPTION_CHARS: usize = 256;
/// Longest theme value accepted (a font stack, a colour, a shadow).
const MAX_THEME_VALUE_CHARS: usize = 200;
/// Most theme properties accepted.
const MAX_THEME_PROPERTIES: usize = 32;

/// What the loader posts.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct FrameRequest {
    /// The embedding page's origin (`location.origin`).
    origin: String,
    session: String,
    client_secret: String,
    customer_token: String,
    mode: String,
    locale: String,
    /// JSON object of the element's `--cc-*` custom properties.
    theme: String,
}

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

/// Why a frame document is refused.
#[derive(Debug, PartialEq, Eq)]
pub enum FrameRefusal {
    /// The body is not a form.
    Unreadable,
    /// `field` is too long, has control characters or an unknown value.
    Invalid(&'static str),
    /// The `Origin` header names another origin than the `origin` field.
    OriginMismatch,
    /// The origin is not in `ALLOWED_ORIGINS`.
    OriginNotAllowed(String),
    /// The browser says the document is not for a frame (`Sec-Fetch-Dest`).
    NotFramed,
    /// `COMPONENT_DIR` holds no built page.
    NotBuilt,
}

impl IntoResponse for FrameRefusal {
    fn into_response(self) -> Response {
        let (status, text) = match self {
            Self::Unreadable => (
                StatusCode::BAD_REQUEST,
                "The payment form was asked for without its options.".to_owned(),
            ),
            Self::Invalid(field) => (
                StatusCode::BAD_REQUEST,
                format!("The payment form's option `{field}` is not valid."),
            ),
            Self::OriginMismatch => (
                StatusCode::FORBIDDEN,
                "The payment form must be opened by the page's own loader (checkout.js)."
                    .to_owned(),
            ),
            Self::OriginNotAllowed(origin) => (
                StatusCode::FORBIDDEN,
                format!("{origin} may not embed this payment form: it is not in ALLOWED_ORIGINS."),
            ),
            Self::NotFramed => (
                StatusCode::FORBIDDEN,
                "This payment form opens only inside the shop's checkout page. Go back to the \
                 shop to pay."
                    .to_owned(),
            ),
            Self::NotBuilt => (
                StatusCode::SERVICE_UNAVAILABLE,
                "The payment form is not built on this server (see COMPONENT_DIR).".to_owned(),
            ),
        };
        tracing::warn!(status = status.as_u16(), reason = %text, "frame document refused");
        // Plain text, no script: it may show inside any page's frame so the shop's developer
        // reads why.
        (
            status,
            [
                (CONTENT_TYPE, "text/plain; charset=utf-8"),
                (CACHE_CONTROL, "no-store"),
                (
                    CONTENT_SECURITY_POLICY,
                    "default-src 'none'; frame-ancestors *",
                ),
            ],
            text,
        )
            .into_response()
    }
}

/// The frame document for the page that posted `form`.
pub async fn serve(
    State(state): State<AppState>,
    headers: HeaderMap,
    form: Result<Form<FrameRequest>, FormRejection>,
) -> Result<Response, FrameRefusal> {
    if !for_a_frame(&headers) {
        return Err(FrameRefusal::NotFramed);
    }
    let Form(request) = form.map_err(|_| FrameRefusal::Unreadable)?;
    // A page with `Referrer-Policy: no-referrer` posts with `Origin: null`; then the CSP's
    // `frame-ancestors` alone keeps any other page from showing the document.
    match headers.get(ORIGIN).map(HeaderValue::as_bytes) {
        None | Some(b"null") => {}
        Some(sent) if sent == request.origin.as_bytes() => {}
        Some(_) => return Err(FrameRefusal::OriginMismatch),
    }
    allowed(&state, &request.origin)?;
    let mode = mode(&request.mode)?;
    let requested_locale = option("locale", &request.locale)?;
    let locale = Locale::choose(Some(requested_locale), first_language(&headers));
    let config = FrameConfig {
        origin: &request.origin,
        session: option("session", &request.session)?,
        client_secret: option("client_secret", &request.client_secret)?,
        customer_token: option("customer_token", &request.customer_token)?,
        mode,
        locale: requested_locale,
        theme: theme(&request.theme)?,
        title: title(mode, locale),
        three_ds: DialogTexts::of(locale),
        build: None,
    };
    let view = if matches!(mode, "" | "checkout") {
        carried_view(&state, config.session, config.client_secret).await
    } else {
        None
    };
    let template = page(template(&state, mode).await?, mode, locale, &config);
    let html = with_config(&template, &config, view.as_ref()).ok_or(FrameRefusal::NotBuilt)?;
    let html = with_form(html, mode, view.as_ref(), locale, &config.theme);
    let policy = HeaderValue::from_str(&frame_policy(&template, &request.origin))
        .map_err(|_| FrameRefusal::Invalid("origin"))?;
    Ok((
        [
            (
                CONTENT_TYPE,
                HeaderValue::from_static("text/html; charset=utf-8"),
            ),
            (CACHE_CONTROL, HeaderValue::from_static("no-store")),
            (CONTENT_SECURITY_POLICY, policy),
        ],
        html,
    )
        .into_response())
}

/// The frame's title in `locale` for `mode`.
pub(super) fn title(mode: &str, locale: Locale) -> &'static str {
    locale.text(if mode == "subscriptions" {
        Msg::SubscriptionsTitle
    } else {
        Msg::FrameTitle
    })
}

/// `mode` if the component knows it (empty: checkout).
pub(super) fn mode(mode: &str) -> Result<&str, FrameRefusal> {
    match mode {
        "" | "checkout" | "result" | "subscriptions" => Ok(mode),
        _ => Err(FrameRefusal::Invalid("mode")),
    }
}

/// Nothing when `origin` is one of `ALLOWED_ORIGINS` or this server's own.
pub(super) fn allowed(state: &AppState, origin: &str) -> Result<(), FrameRefusal> {
    let trusted = TrustedOrigins::new(&state.config.merchant.allowed_origins, &state.urls.base);
    if trusted.admits(Some(origin.as_bytes()), None) {
        Ok(())
    } else {
        Err(FrameRefusal::OriginNotAllowed(origin.to_owned()))
    }
}

/// The built page of `mode` ([`built`]), read for each frame (a few KB): a rebuilt component is
/// served without a restart.
pub(super) async fn template(state: &AppState, mode: &str) -> Result<String, FrameRefusal> {
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
pub(super) fn form_html(
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

/// Whether the request may be for a frame: `Sec-Fetch-Dest: iframe`, or no Fetch Metadata.
pub(super) fn for_a_frame(headers: &HeaderMap) -> bool {
    headers
        .get("sec-fetch-dest")
        .is_none_or(|dest| dest.as_bytes() == b"iframe")
}

/// The first language of `Accept-Language` (what `navigator.language` usually is).
pub(super) fn first_language(headers: &HeaderMap) -> Option<&str> {
    let accepted = headers.get(ACCEPT_LANGUAGE)?.to_str().ok()?;
    accepted.split([',', ';']).next().map(str::trim)
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

/// `value` if it is short and printable.
pub(super) fn option<'a>(field: &'static str, value: &'a str) -> Result<&'a str, FrameRefusal> {
    let printable = value.chars().all(|c| !c.is_control());
    if value.chars().count() <= MAX_OPTION_CHARS && printable {
        Ok(value)
    } else {
        Err(FrameRefusal::Invalid(field))
    }
}

/// The theme's custom properties (`--cc-` names) and `color-scheme`, with values that cannot
/// leave a declaration or load anything (no `;`, braces, angle brackets, backslashes or
/// `url(`).
pub(super) fn theme(json: &str) -> Result<BTreeMap<String, String>, FrameRefusal> {
    if json.is_empty() {
        return Ok(BTreeMap::new());
    }
    let properties: BTreeMap<String, String> =
        serde_json::from_str(json).map_err(|_| FrameRefusal::Invalid("theme"))?;
    if properties.len() > MAX_THEME_PROPERTIES {
        return Err(FrameRefusal::Invalid("theme"));
    }
    let name_ok = |name: &str| {
        name == "color-scheme"
            || name.strip_prefix("--cc-").is_some_and(|rest| {
                !rest.is_empty()
                    && rest.len() <= 40
                    && rest.bytes().all(|b| b.is_ascii_lowercase() || b == b'-')
            })
    };
    let value_ok = |value: &str| {
        value.chars().count() <= MAX_THEME_VALUE_CHARS
            && !value.to_ascii_lowercase().contains("url(")
            && !value
                .chars()
                .any(|c| c.is_control() || matches!(c, ';' | '{' | '}' | '<' | '>' | '\\'))
    };
    if properties
        .iter()
        .all(|(name, value)| name_ok(name) && value_ok(value))
    {
        Ok(properties)
    } else {
        Err(FrameRefusal::Invalid("theme"))
    }
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
fn data_block(id: &str, value: &impl Serialize) -> Option<String> {
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

    #[test]
    fn theme_takes_only_plain_custom_properties() {
        let good = theme(r##"{"--cc-accent": "#0a7", "--cc-font": "\"Inter\", sans-serif"}"##)
            .expect("valid");
        assert_eq!(good.len(), 2);
        assert!(theme("").expect("empty").is_empty());
        for bad in [
            r#"{"color": "red"}"#,
            r#"{"--cc-accent": "red; background: url(x)"}"#,
            r#"{"--cc-accent": "URL(https://x)"}"#,
            r#"{"--cc-accent": "}</style>"}"#,
            r#"{"--cc-Accent": "red"}"#,
            r#"["--cc-accent"]"#,
        ] {
            assert_eq!(theme(bad), Err(FrameRefusal::Invalid("theme")), "{bad}");
        }
    }

    #[test]
    fn options_must_be_short_and_printable() {
        assert_eq!(option("session", "s_1"), Ok("s_1"));
        assert!(option("session", "a\nb").is_err());
        assert!(option("session", &"x".repeat(MAX_OPTION_CHARS + 1)).is_err());
    }
}
