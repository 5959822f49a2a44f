//! The pay call and its answer: `POST /v1/checkout/{session_id}/pay`, `GET .../result`.

use super::absent::null_is_default;
use super::{BrowserInfo, DeclineCode, ProofOfWork};
use crate::card::CardSecret;
use serde::{Deserialize, Serialize};

/// Body of the pay call. Exactly one of `card` and `saved_card_id` is present. Any field but
/// `browser_info` may be `null`, the same as leaving it out.
///
/// There is no amount here on purpose: the server prices the session itself.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PayRequest {
    /// A new card typed by the shopper.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card: Option<CardFields>,
    /// A card the customer saved earlier.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub saved_card_id: Option<String>,
    /// Billing address (only the fields the session asked for need be filled).
    #[serde(default, deserialize_with = "null_is_default")]
    pub billing_address: Address,
    /// 3D Secure browser data.
    pub browser_info: BrowserInfo,
    /// Store the new card for the session's customer.
    #[serde(default, deserialize_with = "null_is_default")]
    pub save_card: bool,
    /// The answer to the challenge of a pay call refused with `proof_of_work_required`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proof_of_work: Option<ProofOfWork>,
}

/// A card as typed. The server parses it with `checkout::card`, the same rules the form used.
/// The number and CVC stay in [`CardSecret`]s: `Debug` never shows them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardFields {
    /// Card number, spaces allowed.
    #[serde(serialize_with = "CardSecret::serialize_exposed")]
    pub number: CardSecret,
    /// `1`..`12`, one or two digits.
    pub expiry_month: String,
    /// Two or four digits.
    pub expiry_year: String,
    /// Security code.
    #[serde(serialize_with = "CardSecret::serialize_exposed")]
    pub cvc: CardSecret,
    /// Cardholder name.
    pub name: String,
}

/// Billing address; empty strings (and `null`) are treated as absent.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Address {
    /// Two-letter country code.
    #[serde(default, deserialize_with = "null_is_default")]
    pub country: String,
    /// E-mail address.
    #[serde(default, deserialize_with = "null_is_default")]
    pub email: String,
    /// Phone number.
    #[serde(default, deserialize_with = "null_is_default")]
    pub phone_number: String,
    /// Street address.
    #[serde(default, deserialize_with = "null_is_default")]
    pub address1: String,
    /// City.
    #[serde(default, deserialize_with = "null_is_default")]
    pub city: String,
    /// State or region.
    #[serde(default, deserialize_with = "null_is_default")]
    pub state: String,
    /// Postal code.
    #[serde(default, deserialize_with = "null_is_default")]
    pub postal_code: String,
}

/// Answer to the pay call: either send the browser to 3D Secure, or the result is known.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "next_action", rename_all = "snake_case")]
pub enum PayResponse {
    /// Navigate the top window to `redirect_url` (the issuer's 3DS page).
    Redirect {
        /// The 3D Secure page.
        redirect_url: String,
    },
    /// No further step: show `result`.
    None {
        /// Where the payment stands.
        result: PaymentResult,
    },
}

/// Where a session's payment stands, for the component's result view.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaymentResult {
    /// The server's payment id.
    pub payment_id: String,
    /// Current state.
    pub state: PaymentState,
    /// Amount in minor units.
    pub amount: u64,
    /// ISO 4217 code.
    pub currency: String,
    /// Why it was declined, when it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decline: Option<DeclineCode>,
    /// The subscription this payment started, for subscription sessions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subscription_id: Option<String>,
}

/// Payment states. They only move forward: created → pending → authorized / captured /
/// declined / failed, then refunded / voided; `needs_review` when the outcome could not be
/// learned by the deadline; `blocked` when checkout-server's own card-testing rules refused
/// the try before the gateway was called.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PaymentState {
    /// Recorded, gateway not called yet.
    Created,
    /// Gateway called; outcome not known yet (3DS in progress, or unknown after a fault).
    Pending,
    /// Authorized, not captured.
    Authorized,
    /// Money taken.
    Captured,
    /// Refused by issuer, risk rules or 3DS.
    Declined,
    /// Failed for a reason other than a decline (e.g. gateway rejected the request).
    Failed,
    /// Captured, then partly refunded.
    PartiallyRefunded,
    /// Captured, then fully refunded.
    Refunded,
    /// Authorized, then released.
    Voided,
    /// Outcome unknown past the deadline: a person must look.
    NeedsReview,
    /// Refused by checkout-server's card-testing rules before the gateway was called (the
    /// merchant sees the rule). The browser is told `blocked` and nothing more: no decline code,
    /// never the rule, shown as one neutral refusal.
    Blocked,
}

impl PaymentState {
    /// True when nothing will change without a merchant action.
    pub fn is_settled(self) -> bool {
        !matches!(self, Self::Created | Self::Pending)
    }

    /// True when the shopper has paid (or the amount is reserved).
    pub fn is_paid(self) -> bool {
        matches!(
            self,
            Self::Authorized | Self::Captured | Self::PartiallyRefunded | Self::Refunded
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redirect_answer_has_the_documented_shape() {
        let r = PayResponse::Redirect {
            redirect_url: "https://acs.example/x".into(),
        };
        assert_eq!(
            serde_json::to_value(&r).unwrap(),
            serde_json::json!({"next_action": "redirect", "redirect_url": "https://acs.example/x"})
        );
    }

    #[test]
    fn card_fields_debug_never_shows_the_number_or_cvc() {
        let card = CardFields {
            number: CardSecret::new("4242 4242 4242 4242"),
            expiry_month: "12".into(),
            expiry_year: "30".into(),
            cvc: CardSecret::new("987"),
            name: "A Person".into(),
        };
        let shown = format!("{card:?}");
        assert!(!shown.contains("4242"));
        assert!(!shown.contains("987"));
        let json = serde_json::to_value(&card).unwrap();
        assert_eq!(json["number"], "4242 4242 4242 4242");
        assert_eq!(json["cvc"], "987");
        assert_eq!(serde_json::from_value::<CardFields>(json).unwrap(), card);
    }

    #[test]
    fn null_is_the_same_as_leaving_a_field_out() {
        let browser = serde_json::json!({
            "screen_width": 1280, "screen_height": 800, "color_depth": 24,
            "java_enabled": false, "language": "en", "user_agent": "test",
            "time_zone": "UTC", "time_zone_offset_minutes": 0, "challenge_window": "05"
        });
        let left_out = serde_json::json!({"saved_card_id": "card_1", "browser_info": browser});
        let nulls = serde_json::json!({
            "card": null, "saved_card_id": "card_1", "browser_info": browser,
            "billing_address": null, "save_card": null, "proof_of_work": null
        });
        let expected = serde_json::from_value::<PayRequest>(left_out).expect("valid");
        assert_eq!(
            serde_json::from_value::<PayRequest>(nulls).expect("nulls"),
            expected
        );
        let address = serde_json::json!({"country": "DE", "email": null, "city": null});
        let address = serde_json::from_value::<Address>(address).expect("nulls");
        assert_eq!(address.country, "DE");
        assert_eq!(address.email, "");
    }
}
