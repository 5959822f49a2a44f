//! The body of `POST /v1/payment_links`, read into the service's [`LinkRequest`] (bad input
//! is a 400 naming the field).

use serde::Deserialize;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::payments::links::request::LinkRequest;
use crate::web::ApiFailure;

/// Body of `POST /v1/payment_links`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreatePaymentLink {
    /// The item or the invoice.
    pub description: String,
    /// ISO 4217 code (from the plan when `plan_id` is given).
    #[serde(default)]
    pub currency: Option<String>,
    /// A fixed amount, minor units.
    #[serde(default, deserialize_with = "crate::api::whole_number::optional")]
    pub amount: Option<u64>,
    /// The least a payer may choose (with `max_amount`, instead of `amount`).
    #[serde(default, deserialize_with = "crate::api::whole_number::optional")]
    pub min_amount: Option<u64>,
    /// The most a payer may choose.
    #[serde(default, deserialize_with = "crate::api::whole_number::optional")]
    pub max_amount: Option<u64>,
    /// The payer may buy up to this many.
    #[serde(default, deserialize_with = "crate::api::whole_number::optional")]
    pub quantity_max: Option<u64>,
    /// Several payments (true) or one only (default).
    #[serde(default)]
    pub reusable: Option<bool>,
    /// At most this many payments (reusable links).
    #[serde(default, deserialize_with = "crate::api::whole_number::optional")]
    pub payment_limit: Option<u64>,
    /// RFC 3339; after this the link takes no payment.
    #[serde(default)]
    pub expires_at: Option<String>,
    /// `off` (default), `optional` or `required`.
    #[serde(default)]
    pub ask_email: Option<String>,
    /// `off` (default), `optional` or `required`.
    #[serde(default)]
    pub ask_payer_reference: Option<String>,
    /// Billing address fields the card form asks for.
    #[serde(default)]
    pub billing_fields: Option<Vec<String>>,
    /// After paying, send the payer here instead of the receipt.
    #[serde(default)]
    pub redirect_url: Option<String>,
    /// Sign the payer up to this plan instead of a one-off payment.
    #[serde(default)]
    pub plan_id: Option<String>,
}

impl CreatePaymentLink {
    /// The request this body makes.
    pub fn into_request(self) -> Result<LinkRequest, ApiFailure> {
        let expires_at = self
            .expires_at
            .as_deref()
            .map(|text| {
                OffsetDateTime::parse(text.trim(), &Rfc3339).map_err(|_| {
                    ApiFailure::invalid(
                        "invalid_field",
                        "expires_at",
                        "expires_at: must be an RFC 3339 date and time",
                    )
                })
            })
            .transpose()?;
        Ok(LinkRequest {
            description: self.description,
            currency: self.currency,
            amount: self.amount,
            min_amount: self.min_amount,
            max_amount: self.max_amount,
            quantity_max: self.quantity_max,
            reusable: self.reusable.unwrap_or(false),
            payment_limit: self.payment_limit,
            expires_at,
            ask_email: self.ask_email,
            ask_payer_reference: self.ask_payer_reference,
            billing_fields: self.billing_fields.unwrap_or_default(),
            redirect_url: self.redirect_url,
            plan_id: self.plan_id,
        })
    }
}
