//! Decline reasons as the overview names them: a short label for the chart, the gateway's
//! codes behind each (`payment_details.response_code`, and the emulator's `ERR2002` and
//! `ERR30xx` risk codes, docs/sandbox.md) and what they mean for the merchant.

use checkout::contract::DeclineCode;

/// Label, gateway codes and meaning of `code`.
pub fn describe(code: DeclineCode) -> (&'static str, &'static str, &'static str) {
    match code {
        DeclineCode::DoNotHonour => (
            "do not honour",
            "5",
            "the issuer refused without giving a reason; the shopper should call their bank or use another card",
        ),
        DeclineCode::InsufficientFunds => (
            "insufficient funds",
            "51",
            "not enough money or credit on the card",
        ),
        DeclineCode::ExpiredCard => ("expired card", "54", "the card is past its expiry date"),
        DeclineCode::LostOrStolen => (
            "lost or stolen",
            "41, 43",
            "the card was reported lost or stolen; do not retry it",
        ),
        DeclineCode::IssuerUnavailable => (
            "issuer unavailable",
            "91, 96",
            "the issuer or its network could not be reached; a retry later may pass",
        ),
        DeclineCode::RiskRejected => (
            "risk rules",
            "-8000 to -8015 (ERR30xx)",
            "refused by the gateway's risk rules, e.g. too many uses of one card",
        ),
        DeclineCode::AuthenticationFailed => (
            "3-D Secure failed",
            "ERR2002 (5)",
            "the cardholder did not pass 3-D Secure authentication",
        ),
        DeclineCode::Other => (
            "other",
            "any other code",
            "declined for a reason the gateway did not name",
        ),
    }
}
