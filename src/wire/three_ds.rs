//! The 3D Secure initiation response of `/paymentv2` and `/authorizationv2`
//! (gateway-interface.md, "3D Secure initiation response").

use serde::{Deserialize, Serialize};

use super::envelope::{GatewayResponse, StatusCodeField};

/// `{url, redirect_url, statusCode, success}`. Note the camel-case `statusCode` (200); a
/// `status_code` key is also accepted and kept. It carries no transaction id: the id comes
/// from the webhook or the return redirect (gateway-notes.md).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThreeDsInitiationResponse {
    /// Address of the 3D Secure page.
    pub url: String,
    /// Address to open in the cardholder's browser.
    pub redirect_url: String,
    /// `statusCode` (or `status_code`).
    #[serde(flatten)]
    pub status_code: StatusCodeField,
    /// True when the 3DS flow started.
    pub success: bool,
    /// Not in the sample; kept when present.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_live: Option<bool>,
    /// Not in the sample; kept when present.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gateway_response: Option<GatewayResponse>,
}
