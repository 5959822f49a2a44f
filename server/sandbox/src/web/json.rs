//! The emulator's JSON bodies: [`checkout::json`] reads and parses them (the one extractor the
//! emulator and checkout-server's API share) and this file gives its failures the gateway's
//! failure body: 400 naming the field, 413 over the body limit, never axum's plain-text
//! rejections. Unlike the API, the emulator does not insist on a `Content-Type`.

use axum::extract::{FromRequest, Request};
use checkout::json::JsonRejection;
use serde::de::DeserializeOwned;

use crate::error::SandboxError;
use crate::state::SandboxState;

/// A JSON request body of type `T`.
#[derive(Debug, Clone)]
pub struct WireJson<T>(pub T);

impl<T: DeserializeOwned> FromRequest<SandboxState> for WireJson<T> {
    type Rejection = SandboxError;

    async fn from_request(request: Request, state: &SandboxState) -> Result<Self, Self::Rejection> {
        match checkout::json::Json::from_request(request, state).await {
            Ok(checkout::json::Json(value)) => Ok(Self(value)),
            Err(JsonRejection::TooLarge) => Err(SandboxError::BodyTooLarge {
                limit: state.config.body_limit,
            }),
            Err(rejection) => Err(SandboxError::MalformedBody(rejection.to_string())),
        }
    }
}
