//! Merchant authentication: `Authorization: Bearer <MERCHANT_SECRET_KEY>` on every merchant
//! endpoint. The presented key and the configured one are compared as SHA-256 digests in
//! constant time, so neither the content nor the length of the key leaks through timing.

use axum::extract::FromRequestParts;
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;
use secrecy::{ExposeSecret as _, SecretString};
use sha2::{Digest as _, Sha256};
use subtle::ConstantTimeEq as _;

use super::error::ApiFailure;
use super::state::AppState;

/// The configured merchant key, kept only as its digest.
#[derive(Clone)]
pub struct MerchantKey([u8; 32]);

impl MerchantKey {
    /// Digest of `key`.
    pub fn new(key: &SecretString) -> Self {
        Self(Sha256::digest(key.expose_secret().as_bytes()).into())
    }

    /// Whether `presented` is the key (constant time).
    pub fn verify(&self, presented: &str) -> bool {
        let candidate: [u8; 32] = Sha256::digest(presented.as_bytes()).into();
        bool::from(self.0.ct_eq(&candidate))
    }
}

impl std::fmt::Debug for MerchantKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("MerchantKey([REDACTED])")
    }
}

/// Proof that the request carries the merchant's secret key. Add it as a handler argument.
#[derive(Debug, Clone, Copy)]
pub struct MerchantAuth;

impl FromRequestParts<AppState> for MerchantAuth {
    type Rejection = ApiFailure;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let presented = parts
            .headers
            .get(AUTHORIZATION)
            .and_then(|value| value.to_str().ok())
            .and_then(bearer_token);
        match presented {
            Some(token) if state.merchant_key.verify(token) => Ok(Self),
            Some(_) => Err(unauthorized("the merchant key is not valid")),
            None => Err(unauthorized(
                "send the merchant key as `Authorization: Bearer <MERCHANT_SECRET_KEY>`",
            )),
        }
    }
}

fn unauthorized(message: &'static str) -> ApiFailure {
    ApiFailure::Unauthorized {
        code: "unauthorized",
        message,
        challenge: Some("Bearer"),
    }
}

/// The token of a `Bearer` credential (scheme case-insensitive).
pub(super) fn bearer_token(value: &str) -> Option<&str> {
    let (scheme, token) = value.trim().split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verifies_only_the_exact_key() {
        let key = MerchantKey::new(&SecretString::from("sk_test_0123456789abcdef"));
        assert!(key.verify("sk_test_0123456789abcdef"));
        assert!(!key.verify("sk_test_0123456789abcdeF"));
        assert!(!key.verify(""));
        assert!(!format!("{key:?}").contains("sk_test"));
    }

    #[test]
    fn reads_bearer_credentials() {
        assert_eq!(bearer_token("Bearer abc"), Some("abc"));
        assert_eq!(bearer_token("bearer   abc "), Some("abc"));
        assert_eq!(bearer_token("Basic abc"), None);
        assert_eq!(bearer_token("Bearer "), None);
        assert_eq!(bearer_token("Bearer"), None);
    }
}
