//! `GET /frame/shell`: the frame document without the session, so a browser can keep it. The
//! loader sets it as the `<iframe>`'s address, so the frame's request leaves as the element
//! is inserted, and a shopper who comes back to the shop gets it from the cache.
//!
//! Its address holds only what is the same for every session of a shop: the page's origin,
//! mode, locale and theme, and `v`, the build it was made from. Nothing secret: the session id,
//! client secret and customer token reach the frame afterwards in a message from the page
//! (`www/frame.js`), and the session's part of the form comes from [`super::session`].
//!
//! The guards are those of `POST /frame/` ([`super::document`]): only for a frame
//! (`Sec-Fetch-Dest`), only for an origin of `ALLOWED_ORIGINS` (or this server's), framed only
//! by that origin (CSP `frame-ancestors`). A GET navigation carries no `Origin` header to
//! compare with; `frame-ancestors` is what keeps any other page from showing it, and the
//! document carries no session to show. The answer varies with `Sec-Fetch-Dest`, so no cache
//! hands a frame's copy to a top-level navigation (and with `Accept-Language`, which picks the
//! labels when the page names no locale). Cached for good (`immutable`) when `v` is
//! the current build, revalidated on every use otherwise.

use std::collections::BTreeMap;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, VARY};
use axum::http::{HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use checkout::i18n::Locale;
use serde::Deserialize;
use sha2::{Digest as _, Sha256};

use super::dialog_texts::DialogTexts;
use super::options::{allowed, first_language, for_a_frame, mode, option, theme};
use super::page::{FrameConfig, page, template, title, with_config, with_form};
use super::policy::frame_policy;
use super::refusal::FrameRefusal;
use super::result_page;
use crate::api::checkout::shell_view;
use crate::web::AppState;

/// A shell whose address names the current build never changes.
const FOREVER: &str = "private, max-age=31536000, immutable";
/// Any other: an old build's address, or none.
const REVALIDATE: &str = "no-cache";

/// What the loader puts in the shell's address.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ShellRequest {
    /// The build the loader expects ([`build_of`]); empty when it does not know one.
    v: String,
    /// The embedding page's origin (`location.origin`).
    origin: String,
    mode: String,
    locale: String,
    /// JSON object of the element's `--cc-*` custom properties.
    theme: String,
}

/// The build of a page template and the shop's name the shell shows: 16 characters of their
/// hash, which change with any file the template names (trunk puts content hashes in their
/// names).
pub fn build_of(template: &str, merchant_name: &str) -> String {
    let mut hash = Sha256::new();
    hash.update(template.as_bytes());
    hash.update([0]);
    hash.update(merchant_name.as_bytes());
    URL_SAFE_NO_PAD.encode(&hash.finalize()[..12])
}

/// The card form's current build, `None` when `COMPONENT_DIR` holds none.
pub async fn current_build(state: &AppState) -> Option<String> {
    let template = template(state, "").await.ok()?;
    Some(build_of(&template, &state.config.merchant.name))
}

/// The shell for the page its address names.
pub async fn serve(
    State(state): State<AppState>,
    headers: HeaderMap,
    query: Result<Query<ShellRequest>, QueryRejection>,
) -> Result<Response, FrameRefusal> {
    if !for_a_frame(&headers) {
        return Err(FrameRefusal::NotFramed);
    }
    let Query(request) = query.map_err(|_| FrameRefusal::Unreadable)?;
    allowed(&state, &request.origin)?;
    let mode = mode(&request.mode)?;
    let requested_locale = option("locale", &request.locale)?;
    let locale = Locale::choose(Some(requested_locale), first_language(&headers));
    let template = template(&state, mode).await?;
    let build = match mode {
        // Its own build (never the card form's, which the loader names): the page also
        // holds the result page's script.
        "result" => build_of(
            &[template.as_str(), result_page::RESULT_JS].concat(),
            &state.config.merchant.name,
        ),
        _ => build_of(&template, &state.config.merchant.name),
    };
    let theme: BTreeMap<String, String> = theme(&request.theme)?;
    let config = FrameConfig {
        origin: &request.origin,
        session: "",
        client_secret: "",
        customer_token: "",
        mode,
        locale: requested_locale,
        theme,
        title: title(mode, locale),
        three_ds: DialogTexts::of(locale),
        build: Some(&build),
    };
    let template = page(template, mode, locale, &config);
    let html = with_config(&template, &config, None).ok_or(FrameRefusal::NotBuilt)?;
    let view = matches!(mode, "" | "checkout").then(|| shell_view(&state));
    let html = with_form(html, mode, view.as_ref(), locale, &config.theme);
    let policy = HeaderValue::from_str(&frame_policy(&template, &request.origin))
        .map_err(|_| FrameRefusal::Invalid("origin"))?;
    let cache = if request.v == build {
        FOREVER
    } else {
        REVALIDATE
    };
    Ok((
        [
            (
                CONTENT_TYPE,
                HeaderValue::from_static("text/html; charset=utf-8"),
            ),
            (CACHE_CONTROL, HeaderValue::from_static(cache)),
            // The labels follow Accept-Language when the page names no locale.
            (
                VARY,
                HeaderValue::from_static("Sec-Fetch-Dest, Accept-Language"),
            ),
            (CONTENT_SECURITY_POLICY, policy),
        ],
        html,
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_build_changes_with_its_template_and_the_shops_name() {
        let page = "<script src=\"/frame/checkout-1a2b.js\"></script>";
        let one = build_of(page, "Shop");
        assert_eq!(one.len(), 16, "{one}");
        assert_eq!(one, build_of(page, "Shop"));
        let rebuilt = "<script src=\"/frame/checkout-3c4d.js\"></script>";
        assert_ne!(one, build_of(rebuilt, "Shop"));
        assert_ne!(
            one,
            build_of(page, "Another shop"),
            "the shell shows the shop's name"
        );
    }
}
