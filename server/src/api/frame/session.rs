//! `POST /frame/session`: the session's part of a shell's form ([`super::shell`]), asked for by
//! the frame itself (`www/frame.js`) once the page has handed it the session and client secret
//! in a message. The secret travels in the request body, never in a URL.
//!
//! The answer is what `POST /frame/` writes into its document: the session's view (the answer
//! of `GET /v1/checkout/{id}`, which the component takes instead of fetching it) and, for a
//! one-off payment, the form as HTML with the amount, description and saved cards
//! ([`super::skeleton`]), which replaces the shell's; plus the current build, which the loader
//! names in the next shell's address. Only the frame's own origin may ask (`Sec-Fetch-Site`),
//! and nothing of it is stored.

use axum::Form;
use axum::Json;
use axum::extract::State;
use axum::extract::rejection::FormRejection;
use axum::http::header::CACHE_CONTROL;
use axum::http::{HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use checkout::contract::CheckoutView;
use checkout::i18n::Locale;
use serde::{Deserialize, Serialize};

use super::options::{first_language, option, theme};
use super::page::{carried_view, form_html};
use super::refusal::FrameRefusal;
use super::shell::current_build;
use crate::web::AppState;

/// What the frame posts.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct SessionRequest {
    session: String,
    client_secret: String,
    locale: String,
    /// JSON object of the element's `--cc-*` custom properties, as in the shell's address.
    theme: String,
}

/// The session's part of the frame.
#[derive(Debug, Serialize)]
struct SessionPart {
    /// `None` when the session or secret is wrong: the component then asks and shows why.
    view: Option<CheckoutView>,
    /// The form as HTML for `view`.
    form: Option<String>,
    /// The card form's current build.
    build: Option<String>,
}

/// The view and form of the posted session.
pub async fn serve(
    State(state): State<AppState>,
    headers: HeaderMap,
    form: Result<Form<SessionRequest>, FormRejection>,
) -> Result<Response, FrameRefusal> {
    let same_origin = headers
        .get("sec-fetch-site")
        .is_none_or(|site| site.as_bytes() == b"same-origin");
    if !same_origin {
        return Err(FrameRefusal::NotFramed);
    }
    let Form(request) = form.map_err(|_| FrameRefusal::Unreadable)?;
    let session = option("session", &request.session)?;
    let client_secret = option("client_secret", &request.client_secret)?;
    let locale = Locale::choose(
        Some(option("locale", &request.locale)?),
        first_language(&headers),
    );
    let theme = theme(&request.theme)?;
    let view = carried_view(&state, session, client_secret).await;
    let form = view
        .as_ref()
        .and_then(|view| form_html("checkout", Some(view), locale, &theme));
    let part = SessionPart {
        view,
        form,
        build: current_build(&state).await,
    };
    Ok((
        [(CACHE_CONTROL, HeaderValue::from_static("no-store"))],
        Json(part),
    )
        .into_response())
}
