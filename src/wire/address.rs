//! The Address object, used for `billing_address` and `shipping_address` in requests and in
//! response `billing_details` (gateway-interface.md, "Address").

use serde::{Deserialize, Serialize};

/// A postal address with contact details. Every field is optional because the contract does
/// not say which are required ("Field requirements: ... not shown"); absent fields are left
/// out of the serialised JSON.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Address {
    /// Two-letter country code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub country: Option<String>,
    /// Email address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// Phone number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phone_number: Option<String>,
    /// Street line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address1: Option<String>,
    /// City.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub city: Option<String>,
    /// State or region.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    /// Postal code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub postal_code: Option<String>,
}
