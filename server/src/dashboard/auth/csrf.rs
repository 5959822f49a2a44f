//! Cross-site request forgery, two guards on every state-changing request:
//! - [`check_origin`] (middleware): a POST must carry `Origin` (or, without it, `Referer`)
//!   naming the dashboard's own origin; a browser sets these and a page elsewhere cannot
//!   forge them. Pages send `Referrer-Policy: same-origin`, since under `no-referrer`
//!   browsers send `Origin: null` on same-origin form posts.
//! - a synchronizer token in every form, [`token_for`] the session: an HMAC of the session
//!   token, so nothing more is stored and it changes with every login; checked in constant
//!   time by [`Staff::check_csrf`](super::session::Staff::check_csrf).

use axum::extract::{Request, State};
use axum::http::Method;
use axum::http::header::{ORIGIN, REFERER};
use axum::middleware::Next;
use axum::response::{IntoResponse as _, Response};
use hmac::{Hmac, Mac as _};
use secrecy::{ExposeSecret as _, SecretString};
use sha2::Sha256;
use subtle::ConstantTimeEq as _;

use crate::dashboard::error::DashboardError;
use crate::dashboard::state::DashboardState;

/// The CSRF token of the session whose cookie token is `session_token`.
pub fn token_for(session_token: &SecretString) -> String {
    let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(session_token.expose_secret().as_bytes())
    else {
        return String::new();
    };
    mac.update(b"checkout dashboard csrf v1");
    mac.finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Whether `presented` is `expected` (constant time; an empty token never matches).
pub fn matches(expected: &str, presented: &str) -> bool {
    !expected.is_empty() && bool::from(expected.as_bytes().ct_eq(presented.as_bytes()))
}

/// Middleware: refuses (403) a request other than GET/HEAD whose `Origin` (or `Referer`)
/// is not the dashboard's origin.
pub async fn check_origin(
    State(state): State<DashboardState>,
    request: Request,
    next: Next,
) -> Response {
    if matches!(*request.method(), Method::GET | Method::HEAD) {
        return next.run(request).await;
    }
    let headers = request.headers();
    let origin = headers.get(ORIGIN).and_then(|v| v.to_str().ok());
    let referer = headers.get(REFERER).and_then(|v| v.to_str().ok());
    let same = match (origin, referer) {
        (Some(origin), _) => origin.eq_ignore_ascii_case(&state.origin),
        (None, Some(referer)) => referer
            .strip_prefix(state.origin.as_str())
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/')),
        (None, None) => false,
    };
    if same {
        next.run(request).await
    } else {
        DashboardError::Forbidden("this request did not come from the dashboard's own pages")
            .into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_follow_the_session() {
        let one = token_for(&SecretString::from("session-one".to_owned()));
        let two = token_for(&SecretString::from("session-two".to_owned()));
        assert_eq!(one.len(), 64);
        assert_ne!(one, two);
        assert!(matches(&one, &one.clone()));
        assert!(!matches(&one, &two));
        assert!(!matches(&one, ""));
        assert!(!matches("", ""));
    }
}
