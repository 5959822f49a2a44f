//! The transaction response (gateway-interface.md, "Transaction response"), in all its forms:
//! payment (`/payment`, `/authorization`, capture/refund/void), status (`/transaction/status`),
//! webhook body, and subscription creation (with `subscription_details`).
//!
//! Fields shown on every form are plain; fields shown on some forms are `Option` and left out
//! when absent; fields the contract says "may be null" serialise `null`.

use serde::{Deserialize, Serialize};

use super::address::Address;
use super::enums::TransactionType;
use super::envelope::{GatewayResponse, StatusCodeField};
use super::payment_details::PaymentDetails;
use super::scalars::{GatewayTimestamp, TransactionRef, lenient};
use super::subscription::SubscriptionDetails;

/// A transaction response. The risk object arrives as `risk-details` (payment, webhook) or
/// `risk_details` (status); both keys are kept so re-serialisation writes the one that came in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TransactionResponse {
    /// True on success, false on failure.
    pub success: bool,
    /// `status_code` (201 on creation, 200 on status) or `statusCode`.
    #[serde(flatten)]
    pub status_code: StatusCodeField,
    /// True for live transactions, false for test ones.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_live: Option<bool>,
    /// `CAPTURE`, `PRE_AUTH`, `REFUND`, `VOID`, ...
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transaction_type: Option<TransactionType>,
    /// `{version, type, code, message}`.
    pub gateway_response: GatewayResponse,
    /// Merchant, billing and device details.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merchant_details: Option<MerchantDetails>,
    /// Amount, response code and card.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payment_details: Option<PaymentDetails>,
    /// Gateway id, ref, timestamp, token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transaction_details: Option<TransactionDetails>,
    /// `risk-details` (payment responses and webhook).
    #[serde(
        rename = "risk-details",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub risk_details_hyphen: Option<RiskDetails>,
    /// `risk_details` (status response).
    #[serde(
        rename = "risk_details",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub risk_details_underscore: Option<RiskDetails>,
    /// The new subscription (subscription creation response only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subscription_details: Option<SubscriptionDetails>,
}

/// Body of the 3D Secure webhook: the payment response envelope with an empty risk object.
pub type WebhookNotification = TransactionResponse;

impl TransactionResponse {
    /// The risk object under whichever key it arrived.
    pub fn risk(&self) -> Option<&RiskDetails> {
        self.risk_details_hyphen
            .as_ref()
            .or(self.risk_details_underscore.as_ref())
    }

    /// The gateway's transaction id, when the response carries one.
    pub fn transaction_id(&self) -> Option<&str> {
        self.transaction_details.as_ref().map(|d| d.id.as_str())
    }

    /// The merchant's reference the transaction carries: `transaction_details`'s, or else
    /// `merchant_details`'s.
    pub fn merchant_txn_ref(&self) -> Option<&str> {
        self.transaction_details
            .as_ref()
            .and_then(|d| d.merchant_txn_ref.as_deref())
            .or_else(|| {
                self.merchant_details
                    .as_ref()
                    .and_then(|m| m.merchant_txn_ref.as_deref())
            })
    }

    /// `payment_details.response_code`, when present.
    pub fn response_code(&self) -> Option<i64> {
        self.payment_details.as_ref().map(|d| d.response_code)
    }

    /// Approved: `success` is true and `response_code` is 0 (or absent, as on responses that
    /// carry no payment details).
    pub fn is_approved(&self) -> bool {
        self.success && self.response_code().is_none_or(|code| code == 0)
    }
}

/// `merchant_details`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MerchantDetails {
    /// Merchant's legal name.
    #[serde(default)]
    pub legal_name: Option<String>,
    /// Merchant id at the gateway.
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub mid: Option<String>,
    /// Merchant's transaction reference as sent.
    #[serde(default)]
    pub merchant_txn_ref: Option<String>,
    /// Billing (and, for subscriptions, shipping) address: payment responses only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub billing_details: Option<BillingDetails>,
    /// IPs seen by the gateway: payment responses only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device_details: Option<DeviceDetails>,
}

/// `billing_details` (under `merchant_details` on payment responses, under
/// `transaction_details` on the status response).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BillingDetails {
    /// Billing address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub billing_address: Option<Address>,
    /// Shipping address (subscriptions and the status response).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shipping_address: Option<Address>,
}

/// `device_details`: `visited_ip`, `merchant_ip`, `customer_ip` (each may be null).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeviceDetails {
    /// IP the gateway saw the request from.
    #[serde(default)]
    pub visited_ip: Option<String>,
    /// Merchant server's IP.
    #[serde(default)]
    pub merchant_ip: Option<String>,
    /// Cardholder's IP as sent.
    #[serde(default)]
    pub customer_ip: Option<String>,
}

/// `transaction_details`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TransactionDetails {
    /// Gateway transaction id (36-character UUID string).
    pub id: String,
    /// Gateway reference: an integer, a string accepted and kept.
    #[serde(rename = "ref")]
    pub reference: TransactionRef,
    /// When the transaction happened, kept verbatim.
    pub timestamp: GatewayTimestamp,
    /// Merchant's transaction reference.
    #[serde(default)]
    pub merchant_txn_ref: Option<String>,
    /// Card token (payment responses only, where it may be null): `None` = key absent,
    /// `Some(None)` = `null`, `Some(Some(token))` = token.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::nullable"
    )]
    pub stored_payment_method_id: Option<Option<String>>,
    /// Billing and shipping addresses (status response only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub billing_details: Option<BillingDetails>,
}

impl TransactionDetails {
    /// The card token, if the gateway returned one.
    pub fn token(&self) -> Option<&str> {
        self.stored_payment_method_id.as_ref()?.as_deref()
    }
}

/// The risk object. Payment and status responses carry `risk_score` (may be null); the
/// webhook sends `{}`. Further fields are not shown by the contract and are ignored.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RiskDetails {
    /// Risk score of any JSON type: `None` = key absent, `Some(None)` = `null`.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::nullable"
    )]
    pub risk_score: Option<Option<serde_json::Value>>,
}
