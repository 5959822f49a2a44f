//! What the hosted page (`/pay/{public_id}`) shows of a link, or why the link takes no
//! payment. Reading it writes nothing; [`PaymentLinkService::record_view`] counts a view.

use checkout::contract::{BillingField, PlanTerms};
use checkout::currency::Currency;

use super::{LinkError, LinkUnavailable, PaymentLinkService};
use crate::payments::now;
use crate::store::model::{AfterPayment, Ask, LinkAmount, PaymentLink};

/// Longest public id this server issues (43); longer ones are refused before any lookup.
const MAX_PUBLIC_ID_CHARS: usize = 64;

/// What the hosted page needs to show a link that takes payments.
#[derive(Clone, Debug)]
pub struct LinkPage {
    /// The id in the page's address.
    pub public_id: String,
    /// The merchant's name (`MERCHANT_NAME`).
    pub merchant_name: String,
    /// The item or the invoice.
    pub description: String,
    /// ISO 4217 code.
    pub currency: String,
    /// Digits after the decimal point for `currency`.
    pub currency_exponent: u8,
    /// Fixed, or the payer's choice within bounds.
    pub amount: LinkAmount,
    /// The payer may choose a quantity up to this.
    pub quantity_max: Option<u32>,
    /// Whether the page asks for the payer's e-mail.
    pub ask_email: Ask,
    /// Whether the page asks for the payer's own reference.
    pub ask_payer_reference: Ask,
    /// Billing address fields the card form asks for.
    pub billing_fields: Vec<BillingField>,
    /// The plan a payer signs up to, for a subscription link.
    pub plan: Option<PlanTerms>,
    /// Receipt or redirect after paying.
    pub after_payment: AfterPayment,
}

#[cfg(test)]
impl LinkPage {
    /// A page for the hosted page's own tests: "Tea" from "Shop" in EUR at `amount`, asking
    /// nothing, with the receipt after paying.
    pub fn example(amount: LinkAmount, quantity_max: Option<u32>) -> LinkPage {
        LinkPage {
            public_id: "p".into(),
            merchant_name: "Shop".into(),
            description: "Tea".into(),
            currency: "EUR".into(),
            currency_exponent: 2,
            amount,
            quantity_max,
            ask_email: Ask::Off,
            ask_payer_reference: Ask::Off,
            billing_fields: Vec::new(),
            plan: None,
            after_payment: AfterPayment::Receipt,
        }
    }
}

impl PaymentLinkService {
    /// The page of the link `public_id`, or why it takes no payment.
    pub async fn for_page(&self, public_id: &str) -> Result<LinkPage, LinkError> {
        let link = self.available_link(public_id).await?;
        let plan = match &link.terms.plan_id {
            Some(plan_id) => Some(self.plan(plan_id)?),
            None => None,
        };
        let terms = link.terms;
        Ok(LinkPage {
            public_id: link.public_id,
            merchant_name: self.settings().merchant_name.clone(),
            currency_exponent: Currency::find(&terms.currency).map_or(2, |c| c.exponent),
            description: terms.description,
            currency: terms.currency,
            amount: terms.amount,
            quantity_max: terms.quantity_max,
            ask_email: terms.ask_email,
            ask_payer_reference: terms.ask_payer_reference,
            billing_fields: terms.billing_fields,
            plan,
            after_payment: terms.after_payment,
        })
    }

    /// Counts one view of the link's page (its figures' "views"); an unknown id counts nothing.
    pub async fn record_view(&self, public_id: &str) -> Result<(), LinkError> {
        if plausible(public_id) {
            self.store().record_link_view(public_id).await?;
        }
        Ok(())
    }

    /// The link `public_id` if it takes payments now: active, not expired, a place free.
    pub(super) async fn available_link(&self, public_id: &str) -> Result<PaymentLink, LinkError> {
        let unavailable = |why| Err(LinkError::Unavailable(why));
        if !plausible(public_id) {
            return unavailable(LinkUnavailable::NotFound);
        }
        let Some(link) = self.store().find_link_by_public_id(public_id).await? else {
            return unavailable(LinkUnavailable::NotFound);
        };
        if !link.active {
            return unavailable(LinkUnavailable::Inactive);
        }
        if link.is_expired_at(now()) {
            return unavailable(LinkUnavailable::Expired);
        }
        if let Some(places) = link.places() {
            let figures = self
                .store()
                .link_figures(&link.id)
                .await?
                .unwrap_or_default();
            if figures.places_taken >= places {
                return unavailable(LinkUnavailable::UsedUp);
            }
        }
        Ok(link)
    }

    /// The terms of the plan `plan_id` (a link's plan no longer offered takes no sign-up).
    pub(super) fn plan(&self, plan_id: &str) -> Result<PlanTerms, LinkError> {
        self.payments()
            .settings()
            .plans
            .get(plan_id)
            .cloned()
            .ok_or_else(|| {
                LinkError::Payment(crate::payments::PaymentError::conflict(
                    "plan_unavailable",
                    "the link's plan is no longer offered",
                ))
            })
    }
}

/// Whether `public_id` could be one this server issued (URL-safe, not too long).
fn plausible(public_id: &str) -> bool {
    !public_id.is_empty()
        && public_id.len() <= MAX_PUBLIC_ID_CHARS
        && public_id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}
