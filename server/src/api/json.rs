//! The API's JSON bodies: [`checkout::json`] reads and parses them (the one extractor the API
//! and the emulator share), and this file gives its failures the contract's error shape: 415
//! when the body is not declared JSON, 413 when it is too large, and 400 naming the field
//! (`card.expiry_month`) when it does not parse or fit the type.

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::response::{IntoResponse, Response};
use checkout::json::{InvalidJson, JsonRejection, declares_json};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::store::secret::BodyDigest;
use crate::web::ApiFailure;

/// A JSON request body of type `T` (as an extractor) or a JSON response (as a return value).
#[derive(Debug, Clone, Copy, Default)]
pub struct Json<T>(pub T);

/// A JSON request body together with the digest of its raw bytes (for `Idempotency-Key`).
#[derive(Debug, Clone)]
pub struct JsonWithDigest<T> {
    /// The parsed body.
    pub value: T,
    /// SHA-256 of the bytes as received.
    pub digest: BodyDigest,
}

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for Json<T> {
    type Rejection = ApiFailure;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        require_json(&req)?;
        let bytes = body_bytes(req, state).await?;
        require_object(&bytes)?;
        Ok(Self(checkout::json::parse(&bytes)?))
    }
}

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for JsonWithDigest<T> {
    type Rejection = ApiFailure;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        require_json(&req)?;
        let bytes = body_bytes(req, state).await?;
        require_object(&bytes)?;
        Ok(Self {
            value: checkout::json::parse(&bytes)?,
            digest: BodyDigest::of(&bytes),
        })
    }
}

/// An optional JSON request body: an empty body is `None` (no `Content-Type` needed); a
/// non-empty one must be JSON and parse as `T`. The digest covers the bytes as received.
#[derive(Debug, Clone)]
pub struct MaybeJson<T> {
    /// The parsed body, if one was sent.
    pub value: Option<T>,
    /// SHA-256 of the bytes as received (empty body included).
    pub digest: BodyDigest,
}

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for MaybeJson<T> {
    type Rejection = ApiFailure;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let declared = declares_json(req.headers());
        let bytes = body_bytes(req, state).await?;
        let digest = BodyDigest::of(&bytes);
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(Self {
                value: None,
                digest,
            });
        }
        if !declared {
            return Err(ApiFailure::UnsupportedMediaType);
        }
        require_object(&bytes)?;
        Ok(Self {
            value: Some(checkout::json::parse(&bytes)?),
            digest,
        })
    }
}

impl<T: Serialize> IntoResponse for Json<T> {
    fn into_response(self) -> Response {
        axum::Json(self.0).into_response()
    }
}

impl From<JsonRejection> for ApiFailure {
    fn from(rejection: JsonRejection) -> Self {
        match rejection {
            JsonRejection::TooLarge => Self::PayloadTooLarge,
            JsonRejection::Unreadable => Self::BadRequest {
                code: "invalid_body",
                message: rejection.to_string(),
                field: None,
            },
            JsonRejection::Invalid(invalid) => invalid.into(),
        }
    }
}

impl From<InvalidJson> for ApiFailure {
    fn from(invalid: InvalidJson) -> Self {
        Self::BadRequest {
            code: if invalid.is_syntax() {
                "invalid_json"
            } else {
                "invalid_field"
            },
            message: invalid.message,
            field: invalid.field,
        }
    }
}

/// 400 unless the body is a JSON object: every body this API takes is one, and serde would
/// otherwise read a JSON array as the fields in order (`[null, null]`).
fn require_object(bytes: &[u8]) -> Result<(), ApiFailure> {
    match bytes.iter().find(|b| !b.is_ascii_whitespace()) {
        Some(b'{') => Ok(()),
        _ => Err(ApiFailure::BadRequest {
            code: "invalid_body",
            message: "the body must be a JSON object".to_owned(),
            field: None,
        }),
    }
}

/// 415 unless the request declares a JSON body.
fn require_json(req: &Request) -> Result<(), ApiFailure> {
    if declares_json(req.headers()) {
        Ok(())
    } else {
        Err(ApiFailure::UnsupportedMediaType)
    }
}

/// The body as bytes, with the shared extractor's reading rules (413 over the limit).
async fn body_bytes<S: Send + Sync>(req: Request, state: &S) -> Result<Bytes, ApiFailure> {
    Ok(checkout::json::read_body(req, state).await?)
}
