//! Why a payment was refused, as a stable code the component turns into a human message.

use serde::{Deserialize, Serialize};

/// A decline reason the shopper can act on. The server derives it from the gateway's
/// `payment_details.response_code` (ISO 8583 style) or risk code; the component maps it to a
/// localised sentence and never shows the raw gateway code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeclineCode {
    /// 5: the issuer refused without a reason.
    DoNotHonour,
    /// 51.
    InsufficientFunds,
    /// 54.
    ExpiredCard,
    /// 41, 43: the shopper must use another card.
    LostOrStolen,
    /// 91, 96: try again later.
    IssuerUnavailable,
    /// A risk rule of the gateway refused the payment (ERR30xx, -8000..-8015).
    RiskRejected,
    /// The cardholder did not pass 3D Secure.
    AuthenticationFailed,
    /// -1 or anything unknown.
    Other,
}

impl DeclineCode {
    /// Maps the gateway's `payment_details.response_code`.
    pub fn from_response_code(code: i64) -> Self {
        match code {
            5 => Self::DoNotHonour,
            51 => Self::InsufficientFunds,
            54 => Self::ExpiredCard,
            41 | 43 => Self::LostOrStolen,
            91 | 96 => Self::IssuerUnavailable,
            -8015..=-8000 => Self::RiskRejected,
            _ => Self::Other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn response_codes_map_to_reasons() {
        assert_eq!(
            DeclineCode::from_response_code(51),
            DeclineCode::InsufficientFunds
        );
        assert_eq!(
            DeclineCode::from_response_code(43),
            DeclineCode::LostOrStolen
        );
        assert_eq!(
            DeclineCode::from_response_code(96),
            DeclineCode::IssuerUnavailable
        );
        assert_eq!(
            DeclineCode::from_response_code(-8009),
            DeclineCode::RiskRejected
        );
        assert_eq!(DeclineCode::from_response_code(-1), DeclineCode::Other);
        assert_eq!(
            serde_json::to_string(&DeclineCode::InsufficientFunds).unwrap(),
            "\"insufficient_funds\""
        );
    }
}
