//! What a transaction's current state is called: the `gateway_response` code and message and
//! the `responseDescription` the status endpoint shows. The original purchase or authorization
//! reflects the captures, refunds and voids made against it.

use super::record::{Outcome, PENDING_CODE, RecordKind, TransactionRecord};
use crate::error::codes;

/// `gateway_response` and `responseDescription` for a record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StateSummary {
    /// True only for an approved transaction.
    pub success: bool,
    /// `INFO` (true) or `ERROR` (false) response type.
    pub informative: bool,
    /// `gateway_response.code`.
    pub code: &'static str,
    /// `gateway_response.message`.
    pub message: String,
    /// `payment_details.responseDescription`.
    pub description: String,
}

/// Code for a successful payment or authorization.
pub const PAYMENT_OK: &str = "INFO0000";
/// Code for a successful capture.
pub const CAPTURE_OK: &str = "INFO0001";
/// Code for a successful refund.
pub const REFUND_OK: &str = "INFO0002";
/// Code for a successful void.
pub const VOID_OK: &str = "INFO0003";

impl StateSummary {
    /// The summary of `record` as it stands now.
    pub fn of(record: &TransactionRecord) -> Self {
        match &record.outcome {
            Outcome::Pending => Self {
                success: false,
                informative: true,
                code: PENDING_CODE,
                message: "Transaction pending: 3-D Secure authentication not completed.".to_owned(),
                description: "Pending".to_owned(),
            },
            Outcome::Declined(decline) => Self {
                success: false,
                informative: false,
                code: decline.code,
                message: decline_message(decline.code, &decline.reason),
                description: format!("Declined: {}", decline.reason),
            },
            Outcome::Approved => approved(record),
        }
    }
}

fn decline_message(code: &str, reason: &str) -> String {
    match code {
        codes::RISK_VELOCITY => format!("Transaction rejected by risk rule: {reason}."),
        codes::THREE_DS_REJECTED => format!("3-D Secure authentication failed: {reason}."),
        _ => format!("Transaction declined by the issuer: {reason}."),
    }
}

fn approved(record: &TransactionRecord) -> StateSummary {
    let money = record.money;
    let (code, message, description) = match record.kind {
        RecordKind::Capture => (
            CAPTURE_OK,
            "Amount successfully captured.".to_owned(),
            "Captured".to_owned(),
        ),
        RecordKind::Refund => (
            REFUND_OK,
            "Amount successfully refunded.".to_owned(),
            "Refunded".to_owned(),
        ),
        RecordKind::Void => (
            VOID_OK,
            "Transaction successfully voided.".to_owned(),
            "Voided".to_owned(),
        ),
        RecordKind::Authorization if money.voided => (
            VOID_OK,
            "Authorization voided.".to_owned(),
            "Voided".to_owned(),
        ),
        RecordKind::Purchase | RecordKind::Authorization if money.refunded > 0 => {
            let whole = money.refunded == money.captured;
            (
                REFUND_OK,
                format!(
                    "Refunded {} of {} captured.",
                    money.refunded, money.captured
                ),
                if whole {
                    "Refunded"
                } else {
                    "Partially refunded"
                }
                .to_owned(),
            )
        }
        RecordKind::Authorization if money.captured > 0 => {
            let released = record.amount - money.captured;
            (
                CAPTURE_OK,
                format!(
                    "Captured {} of {} authorized; {released} released.",
                    money.captured, record.amount
                ),
                if released == 0 {
                    "Captured"
                } else {
                    "Partially captured"
                }
                .to_owned(),
            )
        }
        RecordKind::Authorization => (
            PAYMENT_OK,
            "Payment authorized successfully.".to_owned(),
            "Authorized".to_owned(),
        ),
        RecordKind::Purchase => (
            PAYMENT_OK,
            "Payment processed successfully.".to_owned(),
            "Approved".to_owned(),
        ),
    };
    StateSummary {
        success: true,
        informative: true,
        code,
        message,
        description,
    }
}
