//! The hosted page of a link that takes no payment: says why in the payer's language, with no
//! form and no script. Unknown: 404; turned off, expired or used up: 410 (it was there, and
//! will not be again).

use axum::http::StatusCode;
use axum::response::Response;
use checkout::i18n::Locale;

use super::languages::switcher;
use super::plain::Plain;
use super::texts::Text;
use crate::payments::links::LinkUnavailable;

/// The page for a link that is `unavailable`.
pub fn page(unavailable: LinkUnavailable, locale: Locale) -> Response {
    let (status, why) = match unavailable {
        LinkUnavailable::NotFound => (StatusCode::NOT_FOUND, Text::NotFound),
        LinkUnavailable::Inactive => (StatusCode::GONE, Text::Inactive),
        LinkUnavailable::Expired => (StatusCode::GONE, Text::Expired),
        LinkUnavailable::UsedUp => (StatusCode::GONE, Text::UsedUp),
    };
    let title = Text::Unavailable.of(locale);
    let main = format!(
        "{}<h1>{title}</h1><p id=\"hp-unavailable\" data-reason=\"{}\">{}</p>",
        switcher(locale),
        unavailable.code(),
        why.of(locale)
    );
    Plain {
        locale,
        title,
        main: &main,
        script: None,
    }
    .respond(status)
}
