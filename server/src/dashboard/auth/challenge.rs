//! The half-logged-in state between a right password and the code of an account with
//! two-factor sign-in: a random token in its own cookie (`dashboard_login`, `__Host-` prefixed
//! on https, [`LIFETIME`] long), its SHA-256 in the store's login challenges. It is not a
//! session: the session extractor never looks at this cookie or that table, so the token
//! opens no page; only the code page (`/login/code`) reads it, and a login ends it.

use axum::http::{HeaderMap, HeaderValue};
use secrecy::ExposeSecret as _;
use time::{Duration, OffsetDateTime};

use super::session::{cookie_value, set_cookie};
use crate::dashboard::error::DashboardError;
use crate::dashboard::state::DashboardState;
use crate::store::prelude::*;

/// How long the code may be typed after the password.
pub const LIFETIME: Duration = Duration::minutes(5);

/// The cookie's name.
pub fn cookie_name(secure: bool) -> &'static str {
    if secure {
        "__Host-dashboard_login"
    } else {
        "dashboard_login"
    }
}

/// Opens a challenge for `user` and returns its `Set-Cookie` value.
pub async fn open(state: &DashboardState, user: &StaffUser) -> Result<HeaderValue, DashboardError> {
    let token = generate_token("");
    state
        .app
        .store
        .create_login_challenge(
            &SecretHash::of(token.expose_secret()),
            &user.id,
            OffsetDateTime::now_utc() + LIFETIME,
        )
        .await?;
    header(&set_cookie(
        cookie_name(state.secure),
        token.expose_secret(),
        state.secure,
        Some(LIFETIME.whole_seconds()),
    ))
}

/// A challenge the request carries: its account (as stored now) and token hash.
pub struct Challenge {
    /// The account whose password was right.
    pub user: StaffUser,
    /// The challenge's token hash.
    pub token_hash: SecretHash,
}

/// The live challenge the request's cookie names, if any.
pub async fn current(
    state: &DashboardState,
    headers: &HeaderMap,
) -> Result<Option<Challenge>, DashboardError> {
    let Some(token) = cookie_value(headers, cookie_name(state.secure)) else {
        return Ok(None);
    };
    let token_hash = SecretHash::of(token.expose_secret());
    let user = state
        .app
        .store
        .login_challenge(&token_hash, OffsetDateTime::now_utc())
        .await?;
    Ok(user.map(|user| Challenge { user, token_hash }))
}

/// Ends `challenge` and returns the `Set-Cookie` value that removes its cookie.
pub async fn close(
    state: &DashboardState,
    challenge: &Challenge,
) -> Result<HeaderValue, DashboardError> {
    state
        .app
        .store
        .end_login_challenge(&challenge.token_hash)
        .await?;
    header(&set_cookie(
        cookie_name(state.secure),
        "",
        state.secure,
        Some(0),
    ))
}

fn header(value: &str) -> Result<HeaderValue, DashboardError> {
    HeaderValue::from_str(value)
        .map_err(|_| DashboardError::Internal("login cookie is not a header value".into()))
}
