//! The checks every frame answer makes of what it is asked: the page's origin, the request's
//! destination (`Sec-Fetch-Dest`), the shopper's first language, the mode, and the options and
//! theme the loader sends (short, printable, nothing that can leave a CSS declaration).

use std::collections::BTreeMap;

use axum::http::HeaderMap;
use axum::http::header::ACCEPT_LANGUAGE;

use super::refusal::FrameRefusal;
use crate::web::AppState;
use crate::web::protect::csrf::TrustedOrigins;

/// Longest option value accepted (ids, secrets, tokens, tags).
const MAX_OPTION_CHARS: usize = 256;
/// Longest theme value accepted (a font stack, a colour, a shadow).
const MAX_THEME_VALUE_CHARS: usize = 200;
/// Most theme properties accepted.
const MAX_THEME_PROPERTIES: usize = 32;

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

#[cfg(test)]
mod tests {
    use super::*;

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
