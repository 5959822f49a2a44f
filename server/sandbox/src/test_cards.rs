//! The test-card table: which card numbers approve, decline, trip the velocity rule, hang,
//! or ask for 3-D Secure. Documented in docs/sandbox.md; every number passes Luhn.
//! Any other valid number is approved.

/// How the emulated issuer treats a card.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CardBehaviour {
    /// Approved everywhere.
    Approve,
    /// Declined with this acquirer response code.
    Decline(IssuerDecline),
    /// Approved until it is used for the third time within ten minutes (sandbox clock); that
    /// use and later ones in the window are rejected by the risk rule (`ERR3010`, -8009).
    Velocity,
    /// Approved, but the gateway call answers only after the configured hang duration.
    Hang,
    /// Approved on the first charge with card details; declined 51 when charged again through
    /// its stored token or on subscription cycles after the first.
    ApproveOnce,
    /// 3-D Secure without a challenge: approved straight through on the v2 endpoints.
    Frictionless,
    /// 3-D Secure with a challenge: the v2 endpoints show the ACS page. Approved elsewhere.
    Challenge,
}

/// An issuer decline: the ISO 8583-style response code and its meaning.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IssuerDecline {
    /// `payment_details.response_code`.
    pub response_code: i64,
    /// What the code means, for `gateway_response.message` and `responseDescription`.
    pub description: &'static str,
}

/// Do not honour.
pub const DO_NOT_HONOUR: IssuerDecline = IssuerDecline {
    response_code: 5,
    description: "do not honour",
};
/// Insufficient funds.
pub const INSUFFICIENT_FUNDS: IssuerDecline = IssuerDecline {
    response_code: 51,
    description: "insufficient funds",
};
/// Expired card.
pub const EXPIRED_CARD: IssuerDecline = IssuerDecline {
    response_code: 54,
    description: "expired card",
};
/// Lost or stolen card.
pub const LOST_OR_STOLEN: IssuerDecline = IssuerDecline {
    response_code: 43,
    description: "lost or stolen card",
};
/// Issuer or switch unavailable.
pub const ISSUER_UNAVAILABLE: IssuerDecline = IssuerDecline {
    response_code: 91,
    description: "issuer unavailable",
};

/// The table, number → behaviour. Kept in the order of docs/sandbox.md.
pub const TEST_CARDS: &[(&str, CardBehaviour)] = &[
    ("4242424242424242", CardBehaviour::Approve),
    ("5200000000001005", CardBehaviour::Approve),
    ("2223003122003222", CardBehaviour::Approve),
    ("378282246310005", CardBehaviour::Approve),
    ("4000000000000002", CardBehaviour::Decline(DO_NOT_HONOUR)),
    (
        "4000000000009995",
        CardBehaviour::Decline(INSUFFICIENT_FUNDS),
    ),
    ("4000000000000069", CardBehaviour::Decline(EXPIRED_CARD)),
    ("4000000000009987", CardBehaviour::Decline(LOST_OR_STOLEN)),
    (
        "4000000000000119",
        CardBehaviour::Decline(ISSUER_UNAVAILABLE),
    ),
    ("4000000000006975", CardBehaviour::Velocity),
    ("4000000000000259", CardBehaviour::Hang),
    ("4000000000000341", CardBehaviour::ApproveOnce),
    ("4000000000001000", CardBehaviour::Frictionless),
    ("4000002500003155", CardBehaviour::Challenge),
    ("4000000000001091", CardBehaviour::Challenge),
];

/// The behaviour of a card given its full digits.
pub fn behaviour_of(digits: &str) -> CardBehaviour {
    TEST_CARDS
        .iter()
        .find(|(number, _)| *number == digits)
        .map_or(CardBehaviour::Approve, |(_, behaviour)| *behaviour)
}

#[cfg(test)]
mod tests {
    use checkout::card::{CardNumber, luhn};

    use super::*;

    #[test]
    fn every_test_card_passes_luhn_and_parses() {
        for (number, _) in TEST_CARDS {
            assert!(luhn::is_valid(number), "{number}");
            assert!(CardNumber::parse(number).is_ok(), "{number}");
        }
    }

    #[test]
    fn unknown_numbers_are_approved() {
        assert_eq!(behaviour_of("4111111111111111"), CardBehaviour::Approve);
        assert_eq!(
            behaviour_of("4000000000009995"),
            CardBehaviour::Decline(INSUFFICIENT_FUNDS)
        );
        assert_eq!(behaviour_of("4000002500003155"), CardBehaviour::Challenge);
    }
}
