//! The failure body. The contract publishes none ("Failure response shape ... not shown");
//! its Errors section says every body carries `success`, `status_code` and
//! `gateway_response`, so the emulator writes
//! `{success: false, status_code, is_live?, gateway_response: {version?, type: "ERROR", code, message}}`.
//! The client reads it leniently and survives bodies that are not JSON at all.

use serde::{Deserialize, Serialize};

use super::envelope::{GatewayResponse, StatusCodeField};

/// A failure response body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailureBody {
    /// Always false.
    pub success: bool,
    /// `status_code` (the HTTP status, e.g. 400, 401, 404, 406, 412).
    #[serde(flatten)]
    pub status_code: StatusCodeField,
    /// Live or test.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_live: Option<bool>,
    /// `{version?, type: "ERROR", code, message}`.
    pub gateway_response: GatewayResponse,
}

impl FailureBody {
    /// A failure with `status_code` set to `status` and an `ERROR` gateway response.
    pub fn new(status: u16, code: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            success: false,
            status_code: StatusCodeField::snake(status),
            is_live: Some(false),
            gateway_response: GatewayResponse::error(code, message),
        }
    }
}
