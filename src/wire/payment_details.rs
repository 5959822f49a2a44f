//! `payment_details` of a transaction response (gateway-interface.md, "Transaction response").

use serde::{Deserialize, Serialize};

use super::amount::ResponseAmount;
use super::scalars::lenient;

/// Amount, outcome code and the (masked) card of a transaction.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaymentDetails {
    /// Amount in minor units; a number on the wire, a string accepted.
    pub amount: ResponseAmount,
    /// Acquirer response code: 0 approved; see gateway-notes.md "Decline and error codes".
    #[serde(deserialize_with = "lenient::int")]
    pub response_code: i64,
    /// Authorization code; may be null.
    #[serde(default)]
    pub auth_code: Option<String>,
    /// Currency code.
    pub currency: String,
    /// Payment method name; may be null.
    #[serde(default)]
    pub payment_method: Option<String>,
    /// Card scheme ("MASTERCARD", "VISA", ...); may be null.
    #[serde(default)]
    pub scheme: Option<String>,
    /// The card as the gateway echoes it (number masked).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card: Option<ResponseCard>,
    /// `additional_data.payment_data_source.type` (`card` seen).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub additional_data: Option<AdditionalData>,
    /// `responseDescription`: only on the status response.
    #[serde(
        rename = "responseDescription",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub response_description: Option<String>,
}

impl PaymentDetails {
    /// True when `response_code` is 0.
    pub fn is_approved(&self) -> bool {
        self.response_code == 0
    }
}

/// The card in a response. `number` is already masked by the gateway (first six, `******`,
/// last four), so it is a plain string.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResponseCard {
    /// Cardholder name; may be null.
    #[serde(default)]
    pub name: Option<String>,
    /// Masked number, e.g. `520000******1005`.
    pub number: String,
    /// Expiry month as sent by the gateway.
    #[serde(deserialize_with = "lenient::string")]
    pub exp_month: String,
    /// Expiry year as sent by the gateway.
    #[serde(deserialize_with = "lenient::string")]
    pub exp_year: String,
}

/// `additional_data`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AdditionalData {
    /// `payment_data_source`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payment_data_source: Option<PaymentDataSource>,
}

/// `additional_data.payment_data_source`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaymentDataSource {
    /// `type`: `card` seen.
    #[serde(rename = "type")]
    pub kind: String,
}
