//! Customer tokens: how a customer reaches the self-service endpoints without the merchant's
//! key. The shop backend, having signed its customer in, asks for a short-lived token
//! (`POST /v1/customers/{id}/tokens`, merchant key) and hands it to the component, which sends
//! it as `X-Customer-Token`. Only the token's hash is stored; it expires after
//! `CUSTOMER_TOKEN_TTL_SECONDS` (or the shorter `ttl_seconds` asked for) and can be revoked by
//! its holder (`DELETE /v1/customer/token`).
//!
//! Issuing is deliberately not idempotent: the token is never stored in clear, so a replay
//! could not hand the same one back. Every call issues a fresh token.

use axum::Router;
use axum::extract::{FromRequestParts, Path, State};
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, post};
use checkout::contract::routes::CUSTOMER_TOKEN_HEADER;
use secrecy::ExposeSecret as _;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;

use super::auth::MerchantAuth;
use super::customer_id;
use super::json::{Json, MaybeJson};
use crate::store::model::NewCustomerToken;
use crate::store::secret::{SecretHash, generate_token};
use crate::views::rfc3339;
use crate::web::ApiFailure;
use crate::web::AppState;

/// Prefix of customer tokens.
pub const TOKEN_PREFIX: &str = "ct_";

/// The token routes: issuing (merchant) and revoking (the token's holder).
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/v1/customers/{id}/tokens", post(issue))
        .route("/v1/customer/token", delete(revoke))
}

/// Optional body of the issuing call.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokenRequest {
    /// Lifetime in seconds, 60 to `CUSTOMER_TOKEN_TTL_SECONDS`.
    #[serde(default, deserialize_with = "super::whole_number::optional")]
    pub ttl_seconds: Option<u64>,
}

/// A freshly issued token.
#[derive(Debug, Serialize)]
pub struct IssuedToken {
    /// The token; send it as `X-Customer-Token`. Shown once, stored only as a hash.
    pub token: String,
    /// Whose it is.
    pub customer_id: String,
    /// When it stops working (RFC 3339).
    pub expires_at: String,
}

async fn issue(
    State(state): State<AppState>,
    _auth: MerchantAuth,
    Path(customer_id): Path<String>,
    body: MaybeJson<TokenRequest>,
) -> Result<Response, ApiFailure> {
    customer_id::check(&customer_id)?;
    let max = state.config.ops.customer_token_ttl.as_secs();
    let ttl = match body.value.unwrap_or_default().ttl_seconds {
        None => max,
        Some(ttl) if (60..=max).contains(&ttl) => ttl,
        Some(_) => {
            return Err(ApiFailure::invalid(
                "invalid_field",
                "ttl_seconds",
                format!("ttl_seconds: must be 60 to {max}"),
            ));
        }
    };
    let token = generate_token(TOKEN_PREFIX);
    let expires_at = OffsetDateTime::now_utc()
        .saturating_add(time::Duration::seconds(i64::try_from(ttl).unwrap_or(60)));
    state
        .store
        .create_customer_token(NewCustomerToken {
            customer_id: customer_id.clone(),
            token_hash: SecretHash::of(token.expose_secret()),
            expires_at,
        })
        .await?;
    let issued = IssuedToken {
        token: token.expose_secret().to_owned(),
        customer_id,
        expires_at: rfc3339(expires_at),
    };
    Ok((StatusCode::CREATED, Json(issued)).into_response())
}

/// Revokes the presented (valid) token.
async fn revoke(
    State(state): State<AppState>,
    _customer: CustomerAuth,
    TokenHeader(token): TokenHeader,
) -> Result<StatusCode, ApiFailure> {
    state.store.revoke_customer_token(&token).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The customer a valid, unexpired `X-Customer-Token` belongs to. Add it as a handler
/// argument on every `/v1/customer/...` route.
#[derive(Debug, Clone)]
pub struct CustomerAuth {
    /// The shop's customer id.
    pub customer_id: String,
}

impl FromRequestParts<AppState> for CustomerAuth {
    type Rejection = ApiFailure;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let TokenHeader(presented) = TokenHeader::from_request_parts(parts, state).await?;
        match state
            .store
            .customer_for_token(&presented, OffsetDateTime::now_utc())
            .await?
        {
            Some(customer_id) => Ok(Self { customer_id }),
            None => Err(ApiFailure::Unauthorized {
                code: "invalid_customer_token",
                message: "the customer token is not valid or has expired",
                challenge: None,
            }),
        }
    }
}

/// The raw `X-Customer-Token` value.
pub struct TokenHeader(String);

impl FromRequestParts<AppState> for TokenHeader {
    type Rejection = ApiFailure;

    async fn from_request_parts(
        parts: &mut Parts,
        _state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        parts
            .headers
            .get(CUSTOMER_TOKEN_HEADER)
            .and_then(|v| v.to_str().ok())
            .map(|v| Self(v.trim().to_owned()))
            .filter(|token| !token.0.is_empty() && token.0.len() <= 128)
            .ok_or(ApiFailure::Unauthorized {
                code: "missing_customer_token",
                message: "send the customer token in X-Customer-Token",
                challenge: None,
            })
    }
}
