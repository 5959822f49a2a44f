//! The `payment_method` object (gateway-interface.md, token form and subscription request;
//! gateway-notes.md, "Tokens").

use serde::{Deserialize, Serialize};

use super::enums::PaymentMethodType;

/// How the card is identified or whether it is stored.
///
/// - Storing a card with a payment: `{type: "scheme", store_payment_method: true}` plus `card`.
/// - Paying with a token: `{type: "scheme", stored_payment_method_id: "..."}` and no `card`
///   (`store_payment_method` may accompany it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaymentMethod {
    /// `type`: `scheme` is the value used.
    #[serde(rename = "type")]
    pub kind: PaymentMethodType,
    /// Whether the gateway stores the card and returns a token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub store_payment_method: Option<bool>,
    /// The token that replaces card details.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stored_payment_method_id: Option<String>,
}

impl PaymentMethod {
    /// `{type: "scheme", store_payment_method: store}`: card form, optionally storing the card.
    pub fn scheme(store: bool) -> Self {
        Self {
            kind: PaymentMethodType::Scheme,
            store_payment_method: Some(store),
            stored_payment_method_id: None,
        }
    }

    /// `{type: "scheme", stored_payment_method_id: token}`: token form.
    pub fn token(stored_payment_method_id: impl Into<String>) -> Self {
        Self {
            kind: PaymentMethodType::Scheme,
            store_payment_method: None,
            stored_payment_method_id: Some(stored_payment_method_id.into()),
        }
    }
}
