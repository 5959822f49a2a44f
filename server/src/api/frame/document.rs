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

use axum::Form;
use axum::extract::State;
use axum::extract::rejection::FormRejection;
use axum::http::header::{CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, ORIGIN};
use axum::http::{HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use checkout::i18n::Locale;
use serde::Deserialize;

use super::dialog_texts::DialogTexts;
use super::options::{allowed, first_language, for_a_frame, mode, option, theme};
use super::page::{FrameConfig, carried_view, page, template, title, with_config, with_form};
use super::policy::frame_policy;
use super::refusal::FrameRefusal;
use crate::web::AppState;

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
