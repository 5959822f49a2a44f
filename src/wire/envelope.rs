//! Pieces every response carries: `gateway_response` and the status code, whose key is
//! `status_code` on most responses and `statusCode` on the 3DS start (gateway-interface.md,
//! "3D Secure initiation response"; gateway-notes.md, "Responses are inconsistent").

use serde::{Deserialize, Serialize};

use super::enums::GatewayResponseType;
use super::scalars::lenient;

/// `gateway_response`: `{version, type, code, message}`.
///
/// `version` is `"1"` in every sample; `type` is `INFO` for informative responses and `ERROR`
/// on failure bodies. `code` is e.g. `INFO0000` (payment), `INFO3000` (subscription update),
/// `ERR3006` (risk rule).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GatewayResponse {
    /// Interface version, `"1"`; numbers are read as their text.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt_string"
    )]
    pub version: Option<String>,
    /// `INFO` or `ERROR`.
    #[serde(rename = "type")]
    pub kind: GatewayResponseType,
    /// Machine-readable code.
    #[serde(deserialize_with = "lenient::string")]
    pub code: String,
    /// Human-readable message.
    pub message: String,
}

impl GatewayResponse {
    /// An `INFO` response with version `"1"`.
    pub fn info(code: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            version: Some("1".into()),
            kind: GatewayResponseType::Info,
            code: code.into(),
            message: message.into(),
        }
    }

    /// An `ERROR` response with version `"1"`.
    pub fn error(code: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            version: Some("1".into()),
            kind: GatewayResponseType::Error,
            code: code.into(),
            message: message.into(),
        }
    }
}

/// The response status code under either key. Flattened into each response type; whichever
/// key was read is the one written back. Read it with [`get`](Self::get).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatusCodeField {
    /// `status_code` (most responses).
    #[serde(
        rename = "status_code",
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt_int"
    )]
    pub snake: Option<u16>,
    /// `statusCode` (the 3DS start response).
    #[serde(
        rename = "statusCode",
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt_int"
    )]
    pub camel: Option<u16>,
}

impl StatusCodeField {
    /// Written as `status_code`.
    pub fn snake(code: u16) -> Self {
        Self {
            snake: Some(code),
            camel: None,
        }
    }

    /// Written as `statusCode`.
    pub fn camel(code: u16) -> Self {
        Self {
            snake: None,
            camel: Some(code),
        }
    }

    /// The status code under whichever key was present (`status_code` first).
    pub fn get(&self) -> Option<u16> {
        self.snake.or(self.camel)
    }
}
