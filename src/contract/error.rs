//! The one error shape every server endpoint answers with.

use super::ProofChallenge;
use serde::{Deserialize, Serialize};

/// `{ "error": { "code", "message", "field"?, "challenge"? } }`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApiError {
    /// The error itself.
    pub error: ApiErrorBody,
}

/// Body of [`ApiError`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApiErrorBody {
    /// Stable machine code, e.g. `invalid_request`, `luhn_failed`, `rate_limited`.
    pub code: String,
    /// English sentence for developers; the component shows its own localised text.
    pub message: String,
    /// The request field at fault, as a dotted path (`card.number`), when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// With `proof_of_work_required`: the puzzle to solve before paying again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub challenge: Option<Box<ProofChallenge>>,
}

impl ApiError {
    /// An error about the whole request.
    pub fn new(code: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            error: ApiErrorBody {
                code: code.into(),
                message: message.into(),
                field: None,
                challenge: None,
            },
        }
    }

    /// An error naming the field at fault.
    pub fn for_field(
        code: impl Into<String>,
        message: impl Into<String>,
        field: impl Into<String>,
    ) -> Self {
        let mut err = Self::new(code, message);
        err.error.field = Some(field.into());
        err
    }
}
