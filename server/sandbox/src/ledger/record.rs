//! One recorded transaction: what was charged, how it ended, and (for purchases and
//! authorizations) how much has since been captured, refunded or voided.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::card_check::CardSnapshot;
use checkout::currency::Currency;
use checkout::wire::{Address, TransactionType};

/// What a transaction is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum RecordKind {
    /// A sale: authorized and captured at once (`/payment`, `/paymentv2`, subscription cycles).
    Purchase,
    /// An authorization only (`/authorization`, `/authorizationv2`).
    Authorization,
    /// The capture of an authorization.
    Capture,
    /// A refund of captured money.
    Refund,
    /// The void of an authorization.
    Void,
}

impl RecordKind {
    /// The wire `transaction_type`.
    pub fn transaction_type(self) -> TransactionType {
        match self {
            Self::Purchase | Self::Capture => TransactionType::Capture,
            Self::Authorization => TransactionType::PreAuth,
            Self::Refund => TransactionType::Refund,
            Self::Void => TransactionType::Void,
        }
    }
}

/// How a transaction ended, or that it has not yet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    /// Waiting for 3-D Secure authentication (the ACS page was not completed).
    Pending,
    /// Approved (`response_code` 0).
    Approved,
    /// Declined by the issuer, the risk rules or the cardholder's 3DS rejection.
    Declined(Decline),
}

/// Why a transaction was declined.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decline {
    /// `payment_details.response_code`.
    pub response_code: i64,
    /// `gateway_response.code` (`ERR2001`, `ERR2002`, `ERR3010`).
    #[serde(with = "crate::snapshot_fields::gateway_code")]
    pub code: GatewayCode,
    /// Short reason (`insufficient funds`).
    pub reason: String,
}

/// A `gateway_response.code`: one of the emulator's constants (`error::codes`). Named so
/// serde's derive does not take the field for text borrowed from the input (it does so for a
/// literal `&str`), which would tie a `Decline` read back to the input's lifetime.
pub type GatewayCode = &'static str;

/// The merchant-side facts of a payment, shared (one `Arc`) by its captures, refunds and voids.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MerchantContext {
    /// `merchant_id` as sent.
    pub merchant_id: String,
    /// `merchant_txn_ref` as sent.
    pub merchant_txn_ref: String,
    /// `customer_ip` as sent.
    pub customer_ip: String,
    /// The address the request came from, when known.
    pub merchant_ip: Option<String>,
    /// `billing_address` as sent.
    pub billing_address: Address,
    /// `shipping_address` as sent.
    pub shipping_address: Option<Address>,
}

/// Money movements after a purchase or authorization, in minor units.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoneyState {
    /// Captured so far: the whole amount for an approved purchase, the captured part for an
    /// authorization (the rest was released).
    pub captured: u64,
    /// Refunded so far (never above `captured`).
    pub refunded: u64,
    /// The authorization was voided.
    pub voided: bool,
}

/// A transaction as the emulator keeps it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TransactionRecord {
    /// `transaction_details.id`.
    pub id: Uuid,
    /// `transaction_details.ref`, increasing.
    pub reference: u64,
    /// Purchase, authorization, capture, refund or void.
    pub kind: RecordKind,
    /// When it was created (sandbox clock).
    pub created_at: OffsetDateTime,
    /// Amount in minor units.
    pub amount: u64,
    /// Currency.
    #[serde(with = "crate::snapshot_fields::currency_code")]
    pub currency: Currency,
    /// Pending, approved or declined.
    pub outcome: Outcome,
    /// Authorization code of an approval.
    pub auth_code: Option<String>,
    /// The masked card.
    pub card: Arc<CardSnapshot>,
    /// The token created with (or used for) this payment.
    pub stored_payment_method_id: Option<String>,
    /// Merchant facts shared with related transactions.
    pub merchant: Arc<MerchantContext>,
    /// The purchase or authorization a capture, refund or void belongs to.
    pub parent: Option<Uuid>,
    /// Captured, refunded, voided (purchases and authorizations only).
    pub money: MoneyState,
}

impl TransactionRecord {
    /// True when approved.
    pub fn is_approved(&self) -> bool {
        self.outcome == Outcome::Approved
    }

    /// `payment_details.response_code`: 0 approved, the decline's code, or
    /// [`PENDING_RESPONSE_CODE`] while pending.
    pub fn response_code(&self) -> i64 {
        match &self.outcome {
            Outcome::Pending => PENDING_RESPONSE_CODE,
            Outcome::Approved => 0,
            Outcome::Declined(decline) => decline.response_code,
        }
    }
}

/// `payment_details.response_code` of a transaction still waiting for 3-D Secure: no acquirer
/// answer exists yet. Together with `success: false` and `gateway_response.type: "INFO"`,
/// code [`PENDING_CODE`], it marks a pending transaction (docs/sandbox.md, "Pending").
pub const PENDING_RESPONSE_CODE: i64 = -2;

/// `gateway_response.code` of a pending transaction.
pub const PENDING_CODE: &str = "INFO0100";

/// An authorization code for an approval: six digits derived from the reference.
pub fn auth_code_for(reference: u64) -> String {
    format!("{:06}", reference.wrapping_mul(7919) % 1_000_000)
}
