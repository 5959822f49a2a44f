//! The card payment request, card form and token form (gateway-interface.md, "Card payment
//! request"), the body of `/payment`, `/authorization`, `/paymentv2` and `/authorizationv2`.
//!
//! One struct covers both forms because the notes combine them: storing a card sends `card`
//! together with `payment_method: {type, store_payment_method: true}`. [`PaymentRequest::validate`]
//! enforces the combinations the contract allows.

use serde::{Deserialize, Serialize};

use super::address::Address;
use super::amount::RequestAmount;
use super::browser_info::BrowserInfo;
use super::card::Card;
use super::payment_method::PaymentMethod;
use super::return_url::ReturnUrl;
use super::validate::{self, Validation, WireValidationError};

/// Body of a payment or authorization request.
///
/// Card form: `card` set, `payment_method` absent or `{type, store_payment_method}`.
/// Token form: `card` and `browser_info` absent, `payment_method.stored_payment_method_id` set.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PaymentRequest {
    /// Amount in minor units, sent as a string.
    pub amount: RequestAmount,
    /// Three-letter currency code.
    pub currency: String,
    /// Card details (card form only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card: Option<Card>,
    /// Token or store flag (token form; optional in the card form).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payment_method: Option<PaymentMethod>,
    /// Merchant identifier, at most 128 characters.
    pub merchant_id: String,
    /// Cardholder's billing address.
    pub billing_address: Address,
    /// Merchant's transaction reference, at most 45 characters.
    pub merchant_txn_ref: String,
    /// Cardholder's IP address, at most 45 characters.
    pub customer_ip: String,
    /// Webhook, success and decline addresses; mandatory for 3D Secure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub return_url: Option<ReturnUrl>,
    /// Optional shipping address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shipping_address: Option<Address>,
    /// Optional browser details (card form only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub browser_info: Option<BrowserInfo>,
    /// Region/city time zone, at most 128 characters.
    pub time_zone: String,
}

/// Which of the two request forms a [`PaymentRequest`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PaymentForm {
    /// Full card details.
    Card,
    /// A stored payment method id in place of card details.
    Token,
}

impl PaymentRequest {
    /// The request's form, once [`validate`](Self::validate) has passed.
    pub fn form(&self) -> PaymentForm {
        if self.card.is_some() {
            PaymentForm::Card
        } else {
            PaymentForm::Token
        }
    }

    /// Checks the contract's limits and form rules. `three_ds` requires `return_url`.
    pub fn validate(&self, three_ds: bool) -> Validation {
        validate_common(&CommonFields {
            amount: self.amount,
            currency: &self.currency,
            merchant_id: &self.merchant_id,
            merchant_txn_ref: &self.merchant_txn_ref,
            customer_ip: &self.customer_ip,
            time_zone: &self.time_zone,
        })?;
        let token = self
            .payment_method
            .as_ref()
            .and_then(|method| method.stored_payment_method_id.as_deref());
        match (&self.card, token) {
            (Some(_), Some(_)) => {
                return Err(WireValidationError::new(
                    "payment_method.stored_payment_method_id",
                    "must not be sent together with `card`",
                ));
            }
            (None, None) => {
                return Err(WireValidationError::new(
                    "card",
                    "either `card` or `payment_method.stored_payment_method_id` is required",
                ));
            }
            (Some(card), None) => validate_card(card)?,
            (None, Some(token)) => {
                validate::bounded("payment_method.stored_payment_method_id", token, 128)?;
                if self.browser_info.is_some() {
                    return Err(WireValidationError::new(
                        "browser_info",
                        "is not used in the token form",
                    ));
                }
            }
        }
        if three_ds && self.return_url.is_none() {
            return Err(WireValidationError::new(
                "return_url",
                "is mandatory for 3D Secure payments",
            ));
        }
        Ok(())
    }
}

/// The top-level fields shared by payment and subscription requests.
pub(crate) struct CommonFields<'a> {
    pub amount: RequestAmount,
    pub currency: &'a str,
    pub merchant_id: &'a str,
    pub merchant_txn_ref: &'a str,
    pub customer_ip: &'a str,
    pub time_zone: &'a str,
}

/// Limits from the contract's "Limits" table; amounts must be positive.
pub(crate) fn validate_common(fields: &CommonFields<'_>) -> Validation {
    if fields.amount.minor_units() == 0 {
        return Err(WireValidationError::new(
            "amount",
            "must be greater than zero",
        ));
    }
    validate::currency("currency", fields.currency)?;
    validate::bounded("merchant_id", fields.merchant_id, 128)?;
    validate::bounded("merchant_txn_ref", fields.merchant_txn_ref, 45)?;
    validate::ip_address("customer_ip", fields.customer_ip)?;
    validate::bounded("time_zone", fields.time_zone, 128)
}

/// Shape checks on card fields; brand and Luhn rules belong to the `checkout::card` module.
pub(crate) fn validate_card(card: &Card) -> Validation {
    validate::digits("card.number", card.number.expose(), 12, 19)?;
    validate::digits("card.cvc", card.cvc.expose(), 3, 4)?;
    validate::digits("card.expiry_month", &card.expiry_month, 2, 2)?;
    let month_ok = matches!(card.expiry_month.parse::<u8>(), Ok(1..=12));
    if !month_ok {
        return Err(WireValidationError::new(
            "card.expiry_month",
            "must be 01 to 12",
        ));
    }
    let year = card.expiry_year.as_str();
    if !(validate::digits("card.expiry_year", year, 2, 2).is_ok()
        || validate::digits("card.expiry_year", year, 4, 4).is_ok())
    {
        return Err(WireValidationError::new(
            "card.expiry_year",
            "must be 2 or 4 digits",
        ));
    }
    validate::bounded("card.name", &card.name, 128)
}
