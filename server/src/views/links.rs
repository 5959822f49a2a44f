//! The merchant API's view of payment links (`/v1/payment_links`).

use serde::Serialize;

use super::merchant::rfc3339;
use crate::payments::PublicUrls;
use crate::store::model::link::billing_field_name;
use crate::store::model::{AfterPayment, LinkAmount, PaymentLink};

/// One link.
#[derive(Debug, Clone, Serialize)]
pub struct PaymentLinkView {
    /// `plink_…`.
    pub id: String,
    /// The page payers open: `<public base>/pay/<public id>` (the public id is 256 random bits).
    pub url: String,
    /// The item or the invoice.
    pub description: String,
    /// ISO 4217 code.
    pub currency: String,
    /// Digits after the decimal point of `currency`.
    pub currency_exponent: u8,
    /// The fixed amount, minor units (absent when the payer chooses).
    pub amount: Option<u64>,
    /// The least a payer may choose (absent for a fixed amount).
    pub min_amount: Option<u64>,
    /// The most a payer may choose.
    pub max_amount: Option<u64>,
    /// The payer may buy up to this many.
    pub quantity_max: Option<u32>,
    /// Several payments (true) or one only.
    pub reusable: bool,
    /// At most this many payments.
    pub payment_limit: Option<u32>,
    /// After this it takes no payment (RFC 3339).
    pub expires_at: Option<String>,
    /// `off`, `optional` or `required`.
    pub ask_email: &'static str,
    /// `off`, `optional` or `required`.
    pub ask_payer_reference: &'static str,
    /// Billing address fields the card form asks for.
    pub billing_fields: Vec<&'static str>,
    /// `receipt` or `redirect`.
    pub after_payment: &'static str,
    /// Where a payer goes after paying, with `after_payment` `redirect`.
    pub redirect_url: Option<String>,
    /// The plan a payer signs up to.
    pub plan_id: Option<String>,
    /// False once deactivated.
    pub active: bool,
    /// How often its page was shown.
    pub views: u64,
    /// Creation time (RFC 3339).
    pub created_at: String,
    /// When it was deactivated.
    pub deactivated_at: Option<String>,
}

impl PaymentLinkView {
    /// The view of `link`, whose page is under `urls`.
    pub fn new(link: &PaymentLink, urls: &PublicUrls) -> Self {
        let terms = &link.terms;
        let (amount, min_amount, max_amount) = match terms.amount {
            LinkAmount::Fixed { amount } => (Some(amount), None, None),
            LinkAmount::PayerChosen { min, max } => (None, Some(min), Some(max)),
        };
        let (after_payment, redirect_url) = match &terms.after_payment {
            AfterPayment::Receipt => ("receipt", None),
            AfterPayment::Redirect(url) => ("redirect", Some(url.clone())),
        };
        Self {
            id: link.id.clone(),
            url: urls.link_page(&link.public_id),
            description: terms.description.clone(),
            currency: terms.currency.clone(),
            currency_exponent: checkout::currency::Currency::find(&terms.currency)
                .map_or(2, |c| c.exponent),
            amount,
            min_amount,
            max_amount,
            quantity_max: terms.quantity_max,
            reusable: terms.reusable,
            payment_limit: terms.payment_limit,
            expires_at: terms.expires_at.map(rfc3339),
            ask_email: terms.ask_email.as_str(),
            ask_payer_reference: terms.ask_payer_reference.as_str(),
            billing_fields: terms
                .billing_fields
                .iter()
                .map(|f| billing_field_name(*f))
                .collect(),
            after_payment,
            redirect_url,
            plan_id: terms.plan_id.clone(),
            active: link.active,
            views: link.views,
            created_at: rfc3339(link.created_at),
            deactivated_at: link.deactivated_at.map(rfc3339),
        }
    }
}

/// A page of links, newest first.
#[derive(Debug, Clone, Serialize)]
pub struct PaymentLinkList {
    /// The links.
    pub data: Vec<PaymentLinkView>,
    /// Whether there are more.
    pub has_more: bool,
    /// Pass as `after` for the next page; absent on the last.
    pub next_cursor: Option<String>,
}
