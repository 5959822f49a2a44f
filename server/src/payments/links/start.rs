//! A payer presses Pay on a link's page: the server checks what they entered against the
//! link (each refusal names its field), prices the session itself (amount × quantity) and
//! makes an ordinary checkout session carrying the link's id. This is the only write the
//! hosted page causes before paying; the place of a limited link is taken later, when the
//! payment is recorded (migration 0038).

use checkout::contract::Address;
use secrecy::{ExposeSecret as _, SecretString};

use super::error::invalid;
use super::{LinkError, PaymentLinkService};
use crate::config::first_charge;
use crate::payments::client_secret::derive;
use crate::payments::later;
use crate::payments::request::billing_address;
use crate::payments::urls::link_landing;
use crate::store::model::{
    AfterPayment, Ask, CaptureMode, LinkAmount, NewSession, PaymentLink, SessionLink, is_email,
    new_session_id,
};
use crate::store::prelude::*;

/// Longest payer's reference.
pub const MAX_PAYER_REFERENCE_CHARS: usize = 100;

/// What the payer entered on the link's page.
#[derive(Clone, Debug, Default)]
pub struct PayerInput {
    /// The amount chosen, in minor units: required by a payer-chosen link, and equal to the
    /// link's amount if given for a fixed one.
    pub amount: Option<u64>,
    /// How many (1 when left out).
    pub quantity: Option<u32>,
    /// The payer's e-mail.
    pub email: Option<String>,
    /// The payer's own reference (an order or invoice number).
    pub payer_reference: Option<String>,
    /// The billing address, checked for the link's billing fields (the card form sends it
    /// again with the pay call, which checks it as for any session).
    pub billing_address: Option<Address>,
}

/// A session started from a link, for the card form.
#[derive(Debug)]
pub struct StartedCheckout {
    /// The checkout session's id.
    pub session_id: String,
    /// Its client secret (`X-Client-Secret` of the browser API).
    pub client_secret: SecretString,
    /// What it charges (amount × quantity), minor units.
    pub amount: u64,
    /// ISO 4217 code.
    pub currency: String,
    /// The id of its receipt page, the payer's to keep.
    pub receipt_id: String,
    /// Receipt or redirect after paying.
    pub after_payment: AfterPayment,
}

impl PaymentLinkService {
    /// Checks `input` against the link `public_id` and starts its checkout session.
    pub async fn start_checkout(
        &self,
        public_id: &str,
        input: PayerInput,
    ) -> Result<StartedCheckout, LinkError> {
        let link = self.available_link(public_id).await?;
        let (amount, currency, plan_id, customer_id) = match &link.terms.plan_id {
            Some(plan_id) => {
                let plan = self.plan(plan_id)?;
                // A fresh customer per sign-up: a payer through a link has no account here.
                let customer = format!("plink-customer-{}", uuid::Uuid::new_v4().simple());
                (
                    first_charge(&plan),
                    plan.currency,
                    Some(plan.id),
                    Some(customer),
                )
            }
            None => (
                self.price(&link, &input)?,
                link.terms.currency.clone(),
                None,
                None,
            ),
        };
        let email = asked("email", link.terms.ask_email, input.email.as_deref())?;
        if let Some(email) = &email
            && !is_email(email)
        {
            return Err(invalid("email", "must be an e-mail address"));
        }
        let payer_reference = asked(
            "payer_reference",
            link.terms.ask_payer_reference,
            input.payer_reference.as_deref(),
        )?;
        if let Some(reference) = &payer_reference
            && (reference.chars().count() > MAX_PAYER_REFERENCE_CHARS
                || reference.chars().any(char::is_control))
        {
            return Err(invalid(
                "payer_reference",
                "must be at most 100 characters without control characters",
            ));
        }
        if !link.terms.billing_fields.is_empty() {
            let address = input.billing_address.unwrap_or_default();
            billing_address(&address, &link.terms.billing_fields, email.as_deref())?;
        }
        let id = new_session_id();
        let secret = derive(&self.settings().secret_key, &id);
        let receipt_id = generate_token("").expose_secret().to_owned();
        let session = self
            .store()
            .create_session(NewSession {
                client_secret_hash: SecretHash::of(secret.expose_secret()),
                amount,
                currency,
                // What the gateway's reports show: the link (≤ 45 with the attempt number).
                reference: link.id.clone(),
                capture_mode: CaptureMode::Capture,
                customer_id,
                email,
                plan_id,
                description: Some(describe(&link, input.quantity)),
                expires_at: self.session_expiry(&link),
                link: Some(SessionLink {
                    payment_link_id: link.id.clone(),
                    payer_reference,
                    receipt_id: receipt_id.clone(),
                }),
                id,
            })
            .await?;
        tracing::info!(
            session_id = %session.id,
            payment_link_id = %link.id,
            amount = session.amount,
            "checkout session started from a payment link"
        );
        let after_payment = match link.terms.after_payment {
            AfterPayment::Redirect(page) => {
                AfterPayment::Redirect(link_landing(&page, &link.id, &session.id))
            }
            receipt => receipt,
        };
        Ok(StartedCheckout {
            session_id: session.id,
            client_secret: secret,
            amount: session.amount,
            currency: session.currency,
            receipt_id,
            after_payment,
        })
    }

    /// What the session charges: the link's amount (or the payer's, within its bounds) times
    /// the quantity, checked by the server whatever the page allowed.
    fn price(&self, link: &PaymentLink, input: &PayerInput) -> Result<u64, LinkError> {
        let unit = match (link.terms.amount, input.amount) {
            (LinkAmount::Fixed { amount }, None) => amount,
            (LinkAmount::Fixed { amount }, Some(given)) if given == amount => amount,
            (LinkAmount::Fixed { .. }, Some(_)) => {
                return Err(invalid("amount", "this link's amount is fixed"));
            }
            (LinkAmount::PayerChosen { .. }, None) => {
                return Err(invalid("amount", "choose an amount"));
            }
            (LinkAmount::PayerChosen { min, max }, Some(given)) => {
                if !(min..=max).contains(&given) {
                    return Err(invalid(
                        "amount",
                        format!("must be from {min} to {max} (minor units)"),
                    ));
                }
                given
            }
        };
        let quantity = match (link.terms.quantity_max, input.quantity) {
            (_, None) | (None, Some(1)) => 1,
            (None, Some(_)) => return Err(invalid("quantity", "this link sells one")),
            (Some(max), Some(quantity)) if (1..=max).contains(&quantity) => quantity,
            (Some(max), Some(_)) => {
                return Err(invalid("quantity", format!("must be from 1 to {max}")));
            }
        };
        unit.checked_mul(u64::from(quantity))
            .filter(|total| i64::try_from(*total).is_ok())
            .ok_or_else(|| invalid("quantity", "makes the amount too large"))
    }

    /// The session's expiry: its usual time to live, but no later than the link's.
    fn session_expiry(&self, link: &PaymentLink) -> time::OffsetDateTime {
        let usual = later(self.settings().session_ttl);
        link.terms.expires_at.map_or(usual, |at| at.min(usual))
    }
}

/// The trimmed value of a field the link asks for as `ask`: refused when not asked, required
/// when it must be given.
fn asked(field: &str, ask: Ask, value: Option<&str>) -> Result<Option<String>, LinkError> {
    let value = value.map(str::trim).filter(|v| !v.is_empty());
    match (ask, value) {
        (Ask::Off, Some(_)) => Err(invalid(field, "this link does not ask for it")),
        (Ask::Required, None) => Err(invalid(field, "is required")),
        (_, value) => Ok(value.map(str::to_owned)),
    }
}

/// The session's description: the link's, with the quantity when more than one.
fn describe(link: &PaymentLink, quantity: Option<u32>) -> String {
    match quantity {
        Some(quantity) if quantity > 1 => format!("{} × {quantity}", link.terms.description),
        _ => link.terms.description.clone(),
    }
}
