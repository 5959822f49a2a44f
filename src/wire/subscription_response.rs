//! Subscription management (pause, resume, cancel), retrieve and list responses
//! (gateway-interface.md, endpoints 5 to 9).

use serde::{Deserialize, Serialize};

use super::envelope::{GatewayResponse, StatusCodeField};
use super::subscription::SubscriptionDetails;

/// One subscription: the response of pause, resume and cancel (with `gateway_response`
/// `INFO3000`) and of retrieve (without `gateway_response`, with transaction history).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SubscriptionResponse {
    /// True on success.
    pub success: bool,
    /// `status_code`, 200.
    #[serde(flatten)]
    pub status_code: StatusCodeField,
    /// Live or test.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_live: Option<bool>,
    /// Present on pause, resume and cancel.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gateway_response: Option<GatewayResponse>,
    /// The subscription, with its updated status.
    pub subscription_details: SubscriptionDetails,
}

/// Response of pause, resume and cancel.
pub type SubscriptionManagementResponse = SubscriptionResponse;
/// Response of retrieve.
pub type SubscriptionRetrieveResponse = SubscriptionResponse;

/// Response of `GET /subscription/list`: `subscription_details` is an array.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SubscriptionListResponse {
    /// True on success.
    pub success: bool,
    /// `status_code`, 200.
    #[serde(flatten)]
    pub status_code: StatusCodeField,
    /// Live or test.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_live: Option<bool>,
    /// Not in the contract's list shape; kept when present.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gateway_response: Option<GatewayResponse>,
    /// Active, cancelled and expired subscriptions.
    pub subscription_details: Vec<SubscriptionDetails>,
}
