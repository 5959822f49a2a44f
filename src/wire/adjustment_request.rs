//! Bodies of `/capture`, `/refund` and `/void` (gateway-notes.md, "Endpoints the contract does
//! not show"). Their responses are [`TransactionResponse`](super::TransactionResponse)s.

use serde::{Deserialize, Serialize};

use super::amount::RequestAmount;
use super::validate::{self, Validation, WireValidationError};

/// `{transactionId, amount, merchant_id, notes?}`: capture part or all of an authorization,
/// or refund part or all of a capture.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AmountAdjustmentRequest {
    /// Id of the original transaction (36 characters).
    #[serde(rename = "transactionId")]
    pub transaction_id: String,
    /// Amount to capture or refund, minor units, sent as a string.
    pub amount: RequestAmount,
    /// Merchant identifier, at most 128 characters.
    pub merchant_id: String,
    /// Free-text note; the contract shows no limit, this project caps it at 255 characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
}

/// Body of `POST /capture`.
pub type CaptureRequest = AmountAdjustmentRequest;
/// Body of `POST /refund`.
pub type RefundRequest = AmountAdjustmentRequest;

/// `{transactionId, merchant_id}`: void an authorization.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VoidRequest {
    /// Id of the authorization (36 characters).
    #[serde(rename = "transactionId")]
    pub transaction_id: String,
    /// Merchant identifier, at most 128 characters.
    pub merchant_id: String,
}

impl AmountAdjustmentRequest {
    /// Checks the id, a positive amount, the merchant id and the note's length.
    pub fn validate(&self) -> Validation {
        validate::transaction_id(&self.transaction_id)?;
        if self.amount.minor_units() == 0 {
            return Err(WireValidationError::new(
                "amount",
                "must be greater than zero",
            ));
        }
        validate::bounded("merchant_id", &self.merchant_id, 128)?;
        if let Some(notes) = &self.notes
            && notes.chars().count() > 255
        {
            return Err(WireValidationError::new(
                "notes",
                "must be at most 255 characters",
            ));
        }
        Ok(())
    }
}

impl VoidRequest {
    /// Checks the id and the merchant id.
    pub fn validate(&self) -> Validation {
        validate::transaction_id(&self.transaction_id)?;
        validate::bounded("merchant_id", &self.merchant_id, 128)
    }
}
