//! The two credentials every gateway call carries, checked in constant time (the middleware
//! that asks is `crate::web::require_credentials`).
//!
//! gateway-interface.md, "Authentication": `Authorization: Basic <base64 of the API key>` (the
//! key is the Basic username, no password) and `x-api-key: <X_API_KEY>`. Both `base64(key)`
//! and `base64(key:)` are accepted, since HTTP clients that build Basic credentials from a
//! username and an empty password send the latter. A refusal names the header that is
//! missing but never repeats a submitted value.

use axum::http::HeaderMap;
use axum::http::header::AUTHORIZATION;
use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD};
use secrecy::{ExposeSecret, SecretSlice, SecretString};
use subtle::{Choice, ConstantTimeEq};

use super::error::SandboxError;

/// Name of the second credential header.
pub const X_API_KEY: &str = "x-api-key";

/// The keys one emulator instance accepts.
#[derive(Debug, Clone)]
pub struct Credentials {
    api_key: SecretSlice<u8>,
    x_api_key: SecretSlice<u8>,
}

impl Credentials {
    /// Accepts `api_key` as the Basic username and `x_api_key` as the `x-api-key` header.
    pub fn new(api_key: &SecretString, x_api_key: &SecretString) -> Self {
        Self {
            api_key: api_key.expose_secret().as_bytes().to_vec().into(),
            x_api_key: x_api_key.expose_secret().as_bytes().to_vec().into(),
        }
    }

    /// Checks both headers. Both are always compared, so timing does not tell which was wrong.
    pub fn check(&self, headers: &HeaderMap) -> Result<(), SandboxError> {
        let authorization = headers.get(AUTHORIZATION);
        let x_api_key = headers.get(X_API_KEY);
        let (authorization, x_api_key) = match (authorization, x_api_key) {
            (Some(a), Some(x)) => (a, x),
            (None, None) => {
                return Err(SandboxError::Unauthorized(
                    "missing `Authorization` and `x-api-key` headers".into(),
                ));
            }
            (None, Some(_)) => {
                return Err(SandboxError::Unauthorized(
                    "missing `Authorization` header (expected `Basic <base64 of the API key>`)"
                        .into(),
                ));
            }
            (Some(_), None) => {
                return Err(SandboxError::Unauthorized(
                    "missing `x-api-key` header".into(),
                ));
            }
        };
        let Some(username) = basic_username(authorization.as_bytes()) else {
            return Err(SandboxError::Unauthorized(
                "`Authorization` must be `Basic` followed by the base64-encoded API key".into(),
            ));
        };
        let api_key_ok = constant_time_eq(&username, self.api_key.expose_secret());
        let x_api_key_ok = constant_time_eq(x_api_key.as_bytes(), self.x_api_key.expose_secret());
        if bool::from(api_key_ok & x_api_key_ok) {
            Ok(())
        } else {
            Err(SandboxError::Unauthorized(
                "invalid credentials in `Authorization` or `x-api-key`".into(),
            ))
        }
    }
}

/// The decoded Basic username: `base64(key)` or `base64(key:)` with an empty password.
/// `None` for another scheme, bad base64 or a non-empty password.
fn basic_username(header: &[u8]) -> Option<Vec<u8>> {
    let (scheme, encoded) = header.split_at_checked(6)?;
    if !scheme.eq_ignore_ascii_case(b"basic ") {
        return None;
    }
    let encoded = encoded.trim_ascii();
    let mut decoded = STANDARD
        .decode(encoded)
        .or_else(|_| STANDARD_NO_PAD.decode(encoded))
        .ok()?;
    if let Some(colon) = decoded.iter().position(|&b| b == b':') {
        if colon + 1 != decoded.len() {
            return None;
        }
        decoded.truncate(colon);
    }
    Some(decoded)
}

/// Compares in time that depends only on the lengths, never on where the bytes differ.
fn constant_time_eq(given: &[u8], expected: &[u8]) -> Choice {
    let mut equal = Choice::from(u8::from(given.len() == expected.len()));
    for (index, expected_byte) in expected.iter().enumerate() {
        let given_byte = given.get(index).copied().unwrap_or(0);
        equal &= given_byte.ct_eq(expected_byte);
    }
    equal
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn credentials() -> Credentials {
        Credentials::new(&SecretString::from("key_1"), &SecretString::from("xkey_1"))
    }

    fn headers(authorization: Option<&str>, x_api_key: Option<&str>) -> HeaderMap {
        let mut headers = HeaderMap::new();
        if let Some(value) = authorization {
            headers.insert(AUTHORIZATION, HeaderValue::from_str(value).expect("ascii"));
        }
        if let Some(value) = x_api_key {
            headers.insert(X_API_KEY, HeaderValue::from_str(value).expect("ascii"));
        }
        headers
    }

    fn basic(text: &str) -> String {
        format!("Basic {}", STANDARD.encode(text))
    }

    #[test]
    fn accepts_key_with_and_without_empty_password() {
        let credentials = credentials();
        assert!(
            credentials
                .check(&headers(Some(&basic("key_1")), Some("xkey_1")))
                .is_ok()
        );
        assert!(
            credentials
                .check(&headers(Some(&basic("key_1:")), Some("xkey_1")))
                .is_ok()
        );
        let lower = format!("basic {}", STANDARD_NO_PAD.encode("key_1"));
        assert!(
            credentials
                .check(&headers(Some(&lower), Some("xkey_1")))
                .is_ok()
        );
    }

    #[test]
    fn refuses_wrong_values_without_echoing_them() {
        let credentials = credentials();
        for (authorization, x_api_key) in [
            (basic("key_2"), "xkey_1"),
            (basic("key_1"), "xkey_2"),
            (basic("key_1:secret"), "xkey_1"),
            (basic("key_"), "xkey_1"),
            (basic("key_1x"), "xkey_1"),
            ("Bearer key_1".to_owned(), "xkey_1"),
            ("Basic !!!".to_owned(), "xkey_1"),
        ] {
            let error = credentials
                .check(&headers(Some(&authorization), Some(x_api_key)))
                .expect_err("must refuse");
            let message = error.to_string();
            assert!(!message.contains("key_"), "{message}");
            assert!(!message.contains(&authorization), "{message}");
        }
    }

    #[test]
    fn names_the_missing_header() {
        let credentials = credentials();
        let missing_x = credentials
            .check(&headers(Some(&basic("key_1")), None))
            .expect_err("refused");
        assert!(missing_x.to_string().contains("x-api-key"));
        let missing_auth = credentials
            .check(&headers(None, Some("xkey_1")))
            .expect_err("refused");
        assert!(missing_auth.to_string().contains("Authorization"));
        let none = credentials
            .check(&headers(None, None))
            .expect_err("refused");
        assert!(
            none.to_string().contains("Authorization") && none.to_string().contains("x-api-key")
        );
    }
}
