//! The emulator's failure responses: one error enum, one JSON body shape, one code table.
//!
//! The contract publishes no failure body, so this shape is the emulator's choice (documented
//! in docs/sandbox.md): the envelope every response carries, with `type: "ERROR"`.
//!
//! ```json
//! {"success": false, "status_code": 400, "is_live": false,
//!  "gateway_response": {"version": "1", "type": "ERROR", "code": "ERR0003",
//!                       "message": "invalid `merchant_txn_ref`: must be at most 45 characters, got 46"}}
//! ```
//!
//! Messages name the field and never repeat a submitted value (it may be card data).

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use checkout::wire::FailureBody;

/// `gateway_response.code` values of failure bodies and declines.
pub mod codes {
    /// 401: `Authorization` or `x-api-key` missing or wrong.
    pub const UNAUTHORIZED: &str = "ERR0001";
    /// 400: the body is not JSON, or a field has the wrong JSON type.
    pub const MALFORMED_BODY: &str = "ERR0002";
    /// 400: a field breaks a contract rule (length, currency, amount, missing `return_url`).
    pub const INVALID_FIELD: &str = "ERR0003";
    /// 406: the card number fails Luhn, the card has expired, or the CVC has the wrong length.
    pub const INVALID_CARD: &str = "ERR0004";
    /// 404: unknown transaction, subscription or endpoint.
    pub const NOT_FOUND: &str = "ERR0005";
    /// 413: the body is larger than the configured limit.
    pub const BODY_TOO_LARGE: &str = "ERR0006";
    /// 400: `payment_method.stored_payment_method_id` names no stored card.
    pub const UNKNOWN_TOKEN: &str = "ERR0007";
    /// 405: the endpoint exists but not for this HTTP method.
    pub const METHOD_NOT_ALLOWED: &str = "ERR0008";
    /// 400: capture of a transaction that is not an authorization (`PRE_AUTH`).
    pub const CAPTURE_NOT_AUTHORIZATION: &str = "ERR1001";
    /// 400: capture amount above the authorized amount.
    pub const CAPTURE_EXCEEDS_AUTHORIZED: &str = "ERR1002";
    /// 400: the authorization was already captured or voided.
    pub const CAPTURE_NOT_OPEN: &str = "ERR1003";
    /// 400: refund of a transaction that took no money (an uncaptured authorization, a
    /// refund, a void).
    pub const REFUND_NOT_CAPTURED: &str = "ERR1004";
    /// 400: refund amount above the captured amount minus what was already refunded.
    pub const REFUND_EXCEEDS_CAPTURED: &str = "ERR1005";
    /// 400: void of anything but an open (uncaptured, unvoided) authorization.
    pub const VOID_NOT_OPEN: &str = "ERR1006";
    /// 400: the transaction was declined or is still pending, so nothing can follow it.
    pub const NOT_APPROVED: &str = "ERR1007";
    /// Decline (HTTP 412): the issuer refused; `payment_details.response_code` says why.
    pub const ISSUER_DECLINED: &str = "ERR2001";
    /// Decline (HTTP 412): the cardholder rejected 3-D Secure authentication.
    pub const THREE_DS_REJECTED: &str = "ERR2002";
    /// Decline (HTTP 412): velocity risk rule, the same card used more than twice in ten minutes.
    pub const RISK_VELOCITY: &str = "ERR3010";
    /// 5xx: a fault injected on purpose (see docs/sandbox.md, "Fault injection").
    pub const INJECTED_FAULT: &str = "ERR9000";
    /// 500: the emulator itself failed; a bug.
    pub const INTERNAL: &str = "ERR9001";
}

/// Every way an emulator request can fail before (or instead of) producing a transaction.
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    /// Missing or wrong credentials; the message never contains the submitted value.
    #[error("{0}")]
    Unauthorized(String),
    /// Unparseable body or a field of the wrong JSON type.
    #[error("malformed request body: {0}")]
    MalformedBody(String),
    /// A field breaks a contract rule.
    #[error("invalid `{field}`: {reason}")]
    InvalidField {
        /// JSON path of the field (`card.number`, `amount`).
        field: String,
        /// What is wrong, without the value.
        reason: String,
    },
    /// The card is not usable: Luhn, expiry or CVC.
    #[error("invalid card `{field}`: {reason}")]
    InvalidCard {
        /// `card.number`, `card.expiry_month`, `card.expiry_year` or `card.cvc`.
        field: String,
        /// What is wrong, without the value.
        reason: String,
    },
    /// Nothing with this id (or no such endpoint).
    #[error("{0} not found")]
    NotFound(String),
    /// The endpoint does not take this method.
    #[error("this endpoint does not accept {0}")]
    MethodNotAllowed(String),
    /// The body is larger than the limit.
    #[error("request body is larger than the limit of {limit} bytes")]
    BodyTooLarge {
        /// The configured limit in bytes.
        limit: usize,
    },
    /// A request the current state does not allow (capture twice, refund too much, ...).
    #[error("{message}")]
    Refused {
        /// One of the [`codes`] (or a subscription code).
        code: &'static str,
        /// Why, in a sentence.
        message: String,
    },
    /// A fault injected on purpose with this HTTP status.
    #[error("{message}")]
    InjectedFault {
        /// A 5xx status.
        status: StatusCode,
        /// Says whether the request was processed before the fault.
        message: String,
    },
    /// A bug in the emulator; details are logged, not sent.
    #[error("internal emulator error")]
    Internal,
}

impl SandboxError {
    /// A 400 for `field`.
    pub fn invalid(field: impl Into<String>, reason: impl Into<String>) -> Self {
        Self::InvalidField {
            field: field.into(),
            reason: reason.into(),
        }
    }

    /// A 400 refusal with `code`.
    pub fn refused(code: &'static str, message: impl Into<String>) -> Self {
        Self::Refused {
            code,
            message: message.into(),
        }
    }

    /// The HTTP status this error is answered with.
    pub fn status(&self) -> StatusCode {
        match self {
            Self::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            Self::MalformedBody(_) | Self::InvalidField { .. } | Self::Refused { .. } => {
                StatusCode::BAD_REQUEST
            }
            Self::InvalidCard { .. } => StatusCode::NOT_ACCEPTABLE,
            Self::NotFound(_) => StatusCode::NOT_FOUND,
            Self::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            Self::BodyTooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            Self::InjectedFault { status, .. } => *status,
            Self::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The `gateway_response.code` of the failure body.
    pub fn code(&self) -> &'static str {
        match self {
            Self::Unauthorized(_) => codes::UNAUTHORIZED,
            Self::MalformedBody(_) => codes::MALFORMED_BODY,
            Self::InvalidField { .. } => codes::INVALID_FIELD,
            Self::InvalidCard { .. } => codes::INVALID_CARD,
            Self::NotFound(_) => codes::NOT_FOUND,
            Self::MethodNotAllowed(_) => codes::METHOD_NOT_ALLOWED,
            Self::BodyTooLarge { .. } => codes::BODY_TOO_LARGE,
            Self::Refused { code, .. } => code,
            Self::InjectedFault { .. } => codes::INJECTED_FAULT,
            Self::Internal => codes::INTERNAL,
        }
    }

    /// The failure body as a JSON value (also used by fault injection to corrupt it).
    pub fn body(&self) -> FailureBody {
        FailureBody::new(self.status().as_u16(), self.code(), self.to_string())
    }
}

impl IntoResponse for SandboxError {
    fn into_response(self) -> Response {
        let status = self.status();
        if status.is_server_error() && !matches!(self, Self::InjectedFault { .. }) {
            tracing::error!(code = self.code(), "sandbox request failed: {self}");
        } else {
            tracing::debug!(
                code = self.code(),
                status = status.as_u16(),
                "sandbox request refused: {self}"
            );
        }
        (status, Json(self.body())).into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failure_body_has_the_documented_shape() {
        let error = SandboxError::invalid("merchant_txn_ref", "must be at most 45 characters");
        let body = serde_json::to_value(error.body()).expect("serialisable");
        assert_eq!(body["success"], false);
        assert_eq!(body["status_code"], 400);
        assert_eq!(body["is_live"], false);
        assert_eq!(body["gateway_response"]["version"], "1");
        assert_eq!(body["gateway_response"]["type"], "ERROR");
        assert_eq!(body["gateway_response"]["code"], codes::INVALID_FIELD);
        let message = body["gateway_response"]["message"]
            .as_str()
            .expect("string");
        assert!(message.contains("merchant_txn_ref"), "{message}");
    }

    #[test]
    fn statuses_follow_the_vendor_list() {
        assert_eq!(
            SandboxError::Unauthorized("x".into()).status(),
            StatusCode::UNAUTHORIZED
        );
        let card = SandboxError::InvalidCard {
            field: "card.number".into(),
            reason: "fails the Luhn check".into(),
        };
        assert_eq!(card.status(), StatusCode::NOT_ACCEPTABLE);
        assert_eq!(
            SandboxError::NotFound("transaction".into()).status(),
            StatusCode::NOT_FOUND
        );
        assert_eq!(
            SandboxError::BodyTooLarge { limit: 10 }.status(),
            StatusCode::PAYLOAD_TOO_LARGE
        );
        assert_eq!(
            SandboxError::refused(codes::VOID_NOT_OPEN, "no").code(),
            codes::VOID_NOT_OPEN
        );
    }
}
