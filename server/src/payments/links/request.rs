//! What a merchant asks for when making a link, as the merchant API's body and the
//! dashboard's form both give it (field names as in the API), turned into the link's terms
//! (each bad value a 400 naming its field).

use checkout::contract::BillingField;
use time::OffsetDateTime;

use super::LinkError;
use super::error::invalid;
use crate::config::PlanCatalogue;
use crate::store::model::link::parse_billing_field;
use crate::store::model::{AfterPayment, Ask, LinkAmount, NewPaymentLink};

/// A link as asked for.
#[derive(Debug, Clone, Default)]
pub struct LinkRequest {
    /// The item or the invoice.
    pub description: String,
    /// ISO 4217 code (from the plan when `plan_id` is given).
    pub currency: Option<String>,
    /// A fixed amount, minor units.
    pub amount: Option<u64>,
    /// The least a payer may choose (with `max_amount`, instead of `amount`).
    pub min_amount: Option<u64>,
    /// The most a payer may choose.
    pub max_amount: Option<u64>,
    /// The payer may buy up to this many.
    pub quantity_max: Option<u64>,
    /// Several payments, or one only.
    pub reusable: bool,
    /// At most this many payments (reusable links).
    pub payment_limit: Option<u64>,
    /// After this the link takes no payment.
    pub expires_at: Option<OffsetDateTime>,
    /// `off` (absent), `optional` or `required`.
    pub ask_email: Option<String>,
    /// `off` (absent), `optional` or `required`.
    pub ask_payer_reference: Option<String>,
    /// Billing address fields the card form asks for.
    pub billing_fields: Vec<String>,
    /// After paying, send the payer here instead of the receipt.
    pub redirect_url: Option<String>,
    /// Sign the payer up to this plan instead of a one-off payment.
    pub plan_id: Option<String>,
}

impl LinkRequest {
    /// The link this body asks for, against the plans on offer.
    pub fn into_new(self, plans: &PlanCatalogue) -> Result<NewPaymentLink, LinkError> {
        let plan = match &self.plan_id {
            Some(id) => Some(
                plans
                    .get(id)
                    .ok_or_else(|| invalid("plan_id", "no plan with this id is offered"))?,
            ),
            None => None,
        };
        let currency = match (self.currency, plan) {
            (Some(currency), _) => currency.trim().to_ascii_uppercase(),
            (None, Some(plan)) => plan.currency.clone(),
            (None, None) => return Err(missing("currency")),
        };
        let amount = match (self.amount, self.min_amount, self.max_amount, plan) {
            (Some(amount), None, None, _) => LinkAmount::Fixed { amount },
            (None, None, None, Some(plan)) => LinkAmount::Fixed {
                amount: plan.amount,
            },
            (None, Some(min), Some(max), None) => LinkAmount::PayerChosen { min, max },
            (None, None, None, None) => return Err(missing("amount")),
            (None, Some(_), None, None) => return Err(missing("max_amount")),
            (None, None, Some(_), None) => return Err(missing("min_amount")),
            (None, _, _, Some(_)) => {
                return Err(invalid(
                    "min_amount",
                    "a subscription link's amount is the plan's",
                ));
            }
            (Some(_), _, _, _) => {
                return Err(invalid(
                    "min_amount",
                    "give either amount or min_amount and max_amount",
                ));
            }
        };
        Ok(NewPaymentLink {
            description: self.description,
            currency,
            amount,
            quantity_max: count(self.quantity_max, "quantity_max")?,
            reusable: self.reusable,
            payment_limit: count(self.payment_limit, "payment_limit")?,
            expires_at: self.expires_at,
            ask_email: ask(self.ask_email.as_deref(), "ask_email")?,
            ask_payer_reference: ask(self.ask_payer_reference.as_deref(), "ask_payer_reference")?,
            billing_fields: billing_fields(self.billing_fields)?,
            after_payment: self
                .redirect_url
                .map_or(AfterPayment::Receipt, AfterPayment::Redirect),
            plan_id: self.plan_id,
        })
    }
}

/// A count that must fit 32 bits.
fn count(value: Option<u64>, field: &'static str) -> Result<Option<u32>, LinkError> {
    value
        .map(|n| u32::try_from(n).map_err(|_| invalid(field, "is too large")))
        .transpose()
}

/// `off`, `optional` or `required` (absent: `off`).
fn ask(value: Option<&str>, field: &'static str) -> Result<Ask, LinkError> {
    value.map_or(Ok(Ask::Off), |name| {
        Ask::parse(name).ok_or_else(|| invalid(field, "must be off, optional or required"))
    })
}

/// The named billing fields, each once.
fn billing_fields(names: Vec<String>) -> Result<Vec<BillingField>, LinkError> {
    let mut fields = Vec::new();
    for name in names {
        let field = parse_billing_field(&name).ok_or_else(|| {
            invalid(
                "billing_fields",
                "each must be country, email, phone, address, city, state or postal_code",
            )
        })?;
        if !fields.contains(&field) {
            fields.push(field);
        }
    }
    Ok(fields)
}

fn missing(field: &'static str) -> LinkError {
    invalid(field, "is required")
}
