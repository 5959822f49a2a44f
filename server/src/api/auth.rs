//! Merchant authentication: `Authorization: Bearer <MERCHANT_SECRET_KEY>` on every merchant
//! endpoint, checked against the state's [`MerchantKey`](crate::web::merchant_key::MerchantKey)
//! (SHA-256 digests compared in constant time).

use axum::extract::FromRequestParts;
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;

use crate::web::{ApiFailure, AppState};

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
    fn reads_bearer_credentials() {
        assert_eq!(bearer_token("Bearer abc"), Some("abc"));
        assert_eq!(bearer_token("bearer   abc "), Some("abc"));
        assert_eq!(bearer_token("Basic abc"), None);
        assert_eq!(bearer_token("Bearer "), None);
        assert_eq!(bearer_token("Bearer"), None);
    }
}
