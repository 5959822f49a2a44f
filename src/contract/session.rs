//! What the component is allowed to know about a checkout session.

use super::PlanTerms;
use crate::card::{Brand, YearMonth};
use crate::i18n::{fill, number_text};
use serde::{Deserialize, Serialize};

/// `GET /v1/checkout/{session_id}`: the public view of a session (no secrets, no totals the
/// browser could alter: it only displays them).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckoutView {
    /// Session id.
    pub id: String,
    /// Amount in minor units of `currency` (for a subscription: the first charge).
    pub amount: u64,
    /// ISO 4217 code.
    pub currency: String,
    /// Digits after the decimal point for `currency` (JPY 0, EUR 2, KWD 3).
    pub currency_exponent: u8,
    /// Shown above the form.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The shop's name as the shopper knows it.
    pub merchant_name: String,
    /// One-off payment or subscription.
    pub kind: CheckoutKind,
    /// Billing address fields the form must ask for.
    #[serde(default)]
    pub billing_fields: Vec<BillingField>,
    /// Cards the session's customer saved earlier (empty without a customer).
    #[serde(default)]
    pub saved_cards: Vec<SavedCard>,
    /// Whether the form may offer "save this card" (the session has a customer).
    #[serde(default)]
    pub can_save_card: bool,
}

/// The kind of a checkout session.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum CheckoutKind {
    /// A single payment.
    Payment,
    /// A subscription to a plan; the terms are shown before pay.
    Subscription {
        /// The plan's terms.
        plan: PlanTerms,
    },
}

/// A billing address field a session can require.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BillingField {
    /// Two-letter country code.
    Country,
    /// E-mail address.
    Email,
    /// Phone number.
    Phone,
    /// Street address.
    Address,
    /// City.
    City,
    /// State or region.
    State,
    /// Postal code.
    PostalCode,
}

/// A saved card as the shopper sees it: never more than brand, last four and expiry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedCard {
    /// Id to send back as `saved_card_id`.
    pub id: String,
    /// Card brand.
    pub brand: Brand,
    /// Last four digits.
    pub last4: String,
    /// Expiry month, 1–12.
    pub expiry_month: u8,
    /// Four-digit expiry year.
    pub expiry_year: u16,
    /// The card keeps the billing address it was saved with, covering every field the
    /// session asks for: with it chosen, the form asks for no address (one click on pay).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub billing_on_file: bool,
}

impl SavedCard {
    /// Not expired in the month `today`: the card may be chosen.
    pub fn usable(&self, today: YearMonth) -> bool {
        (self.expiry_year, self.expiry_month) >= (today.year(), today.month())
    }

    /// What the shopper reads beside the card's radio button: "Visa •••• 4242 · expires
    /// 12/30", `expires` being the catalogue's `SavedCardExpires` template.
    pub fn choice_label(&self, expires: &str) -> String {
        let two_digits = |n: u16| {
            let digits = number_text(u64::from(n % 100));
            if digits.len() < 2 {
                ["0", &digits].concat()
            } else {
                digits
            }
        };
        let expiry = [
            two_digits(u16::from(self.expiry_month)),
            "/".into(),
            two_digits(self.expiry_year),
        ]
        .concat();
        [
            self.brand.display_name(),
            " •••• ",
            &self.last4,
            " · ",
            &fill(expires, &[&expiry]),
        ]
        .concat()
    }
}
