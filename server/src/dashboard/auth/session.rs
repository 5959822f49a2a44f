//! Staff sessions: a random token in a cookie (`HttpOnly; SameSite=Strict; Path=/`, and
//! `Secure` with the `__Host-` prefix when the dashboard is https), its SHA-256 in the store.
//! A session ends after [`SESSION_IDLE`] without a request, [`SESSION_ABSOLUTE`] after login,
//! at logout (deleted server-side), or when its account is disabled.
//!
//! [`Staff`] is the extractor every page takes: no live session is a redirect to the login
//! page.

use axum::extract::FromRequestParts;
use axum::http::header::COOKIE;
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue};
use secrecy::{ExposeSecret as _, SecretString};
use time::OffsetDateTime;

use super::csrf;
use super::required::must_enrol;
use crate::config::{SESSION_ABSOLUTE, SESSION_IDLE};
use crate::dashboard::error::DashboardError;
use crate::dashboard::state::DashboardState;
use crate::store::prelude::*;

/// The cookie's name: `__Host-` prefixed on https (the browser then refuses it unless it is
/// `Secure`, host-only and `Path=/`).
pub fn cookie_name(secure: bool) -> &'static str {
    if secure {
        "__Host-dashboard_session"
    } else {
        "dashboard_session"
    }
}

/// A `Set-Cookie` value for a dashboard cookie: `HttpOnly; SameSite=Strict; Path=/`, `Secure`
/// on https, and `Max-Age` when given (`Some(0)` removes it).
pub fn set_cookie(name: &str, value: &str, secure: bool, max_age: Option<i64>) -> String {
    let max_age = max_age.map_or_else(String::new, |s| format!("; Max-Age={s}"));
    let secure_attr = if secure { "; Secure" } else { "" };
    format!("{name}={value}; Path=/; HttpOnly; SameSite=Strict{max_age}{secure_attr}")
}

/// The `Set-Cookie` value carrying `token`.
pub fn session_cookie(secure: bool, token: &SecretString) -> String {
    set_cookie(cookie_name(secure), token.expose_secret(), secure, None)
}

/// The `Set-Cookie` value that removes the cookie.
pub fn cleared_cookie(secure: bool) -> String {
    set_cookie(cookie_name(secure), "", secure, Some(0))
}

/// The value of the request's cookie `name` (at most 128 characters, not empty).
pub fn cookie_value(headers: &HeaderMap, name: &str) -> Option<SecretString> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, value)| *key == name && !value.is_empty() && value.len() <= 128)
        .map(|(_, value)| SecretString::from(value.to_owned()))
}

/// The session token the request's cookie carries.
pub fn presented_token(headers: &HeaderMap, secure: bool) -> Option<SecretString> {
    cookie_value(headers, cookie_name(secure))
}

/// Starts a session for `user`: stores its hash and returns the `Set-Cookie` value.
pub async fn start(
    state: &DashboardState,
    user: &StaffUser,
) -> Result<HeaderValue, DashboardError> {
    let token = generate_token("");
    let now = OffsetDateTime::now_utc();
    state
        .app
        .store
        .create_staff_session(NewStaffSession {
            token_hash: SecretHash::of(token.expose_secret()),
            staff_id: user.id.clone(),
            created_at: now,
            expires_at: now + SESSION_ABSOLUTE,
        })
        .await?;
    HeaderValue::from_str(&session_cookie(state.secure, &token))
        .map_err(|_| DashboardError::Internal("session cookie is not a header value".into()))
}

/// A logged-in staff member, with the CSRF token of their session.
#[derive(Debug, Clone)]
pub struct Staff {
    /// The account.
    pub user: StaffUser,
    /// The session's CSRF token, for the forms of the page.
    pub csrf: String,
    token_hash: SecretHash,
}

impl Staff {
    /// Whether the account has `role` or a higher one.
    pub fn can(&self, role: StaffRole) -> bool {
        self.user.role >= role
    }

    /// `Forbidden` unless the account has `role` or a higher one.
    pub fn require(&self, role: StaffRole) -> Result<(), DashboardError> {
        if self.can(role) {
            Ok(())
        } else {
            Err(DashboardError::Forbidden("your role does not allow this"))
        }
    }

    /// `Forbidden` unless `presented` is this session's CSRF token.
    pub fn check_csrf(&self, presented: &str) -> Result<(), DashboardError> {
        if csrf::matches(&self.csrf, presented) {
            Ok(())
        } else {
            Err(DashboardError::Forbidden(
                "missing or wrong CSRF token; reload the page",
            ))
        }
    }

    /// Ends this session server-side.
    pub async fn end(&self, state: &DashboardState) -> Result<(), DashboardError> {
        state.app.store.end_staff_session(&self.token_hash).await?;
        Ok(())
    }
}

impl Staff {
    /// The staff member whose live session the request's cookie names.
    pub(super) async fn of_request(
        parts: &Parts,
        state: &DashboardState,
    ) -> Result<Self, DashboardError> {
        let token = presented_token(&parts.headers, state.secure).ok_or(DashboardError::Login)?;
        let token_hash = SecretHash::of(token.expose_secret());
        let user = state
            .app
            .store
            .touch_staff_session(&token_hash, OffsetDateTime::now_utc(), SESSION_IDLE)
            .await?
            .ok_or(DashboardError::Login)?;
        Ok(Self {
            user,
            csrf: csrf::token_for(&token),
            token_hash,
        })
    }
}

/// Every page but the account page and logout: a live session, and (under
/// `DASHBOARD_REQUIRE_2FA`) an admin's two-factor sign-in set up.
impl FromRequestParts<DashboardState> for Staff {
    type Rejection = DashboardError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &DashboardState,
    ) -> Result<Self, Self::Rejection> {
        let staff = Self::of_request(parts, state).await?;
        if must_enrol(state, &staff.user) {
            return Err(DashboardError::EnrolFirst);
        }
        Ok(staff)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cookies_are_strict_and_host_prefixed_on_https() {
        let token = SecretString::from("abc".to_owned());
        assert_eq!(
            session_cookie(true, &token),
            "__Host-dashboard_session=abc; Path=/; HttpOnly; SameSite=Strict; Secure"
        );
        assert_eq!(
            session_cookie(false, &token),
            "dashboard_session=abc; Path=/; HttpOnly; SameSite=Strict"
        );
        let mut headers = HeaderMap::new();
        headers.insert(
            COOKIE,
            HeaderValue::from_static("a=1; dashboard_session=tok; b=2"),
        );
        assert_eq!(
            presented_token(&headers, false).map(|t| t.expose_secret().to_owned()),
            Some("tok".into())
        );
        assert!(presented_token(&headers, true).is_none());
    }
}
