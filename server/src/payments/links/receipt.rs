//! The receipt of a session started from a link: what the payer's receipt page shows, found by
//! the receipt id only the payer was given. No card data beyond brand and last four.

use checkout::card::Brand;
use checkout::contract::PaymentState;
use time::OffsetDateTime;

use super::{LinkError, PaymentLinkService};

/// Length of the receipt ids this server issues (43 URL-safe characters).
const RECEIPT_ID_CHARS: usize = 43;

/// What a receipt page shows.
#[derive(Clone, Debug)]
pub struct Receipt {
    /// The receipt's id (in its address).
    pub receipt_id: String,
    /// The payment: the session's keeper once paid, else its latest attempt.
    pub payment_id: String,
    /// Where that payment stands.
    pub status: PaymentState,
    /// Minor units of `currency`.
    pub amount: u64,
    /// ISO 4217 code.
    pub currency: String,
    /// Digits after the decimal point for `currency`.
    pub currency_exponent: u8,
    /// The card's brand, if known.
    pub card_brand: Option<Brand>,
    /// The card's last four digits, if known.
    pub card_last4: Option<String>,
    /// When it was paid (or, unpaid, when the payment was made).
    pub date: OffsetDateTime,
    /// The merchant's name.
    pub merchant_name: String,
    /// The link's description (with the quantity).
    pub description: Option<String>,
    /// The payer's own reference.
    pub payer_reference: Option<String>,
    /// The link it was paid through.
    pub payment_link_id: String,
    /// The subscription a sign-up made, if any.
    pub subscription_id: Option<String>,
}

impl PaymentLinkService {
    /// The receipt `receipt_id`; `None` when there is none, or no payment was made yet.
    pub async fn receipt(&self, receipt_id: &str) -> Result<Option<Receipt>, LinkError> {
        let plausible = receipt_id.len() == RECEIPT_ID_CHARS
            && receipt_id
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if !plausible {
            return Ok(None);
        }
        let Some(session) = self.store().find_receipt_session(receipt_id).await? else {
            return Ok(None);
        };
        let Some(link) = session.link.clone() else {
            return Ok(None);
        };
        let keeper = self.payments().keeper(&session.id).await?;
        let payment = match keeper {
            Some(keeper) => self.store().get_payment(&keeper.payment_id).await?,
            None => self.payments().latest_payment(&session.id).await?,
        };
        let Some(payment) = payment else {
            return Ok(None);
        };
        Ok(Some(Receipt {
            receipt_id: link.receipt_id,
            payment_id: payment.id,
            status: payment.state,
            amount: payment.amount,
            currency_exponent: checkout::currency::Currency::find(&payment.currency)
                .map_or(2, |c| c.exponent),
            currency: payment.currency,
            card_brand: payment.card.as_ref().map(|card| card.brand),
            card_last4: payment
                .card
                .as_ref()
                .map(|card| card.last4.as_str().to_owned()),
            date: payment.retry.paid_at.unwrap_or(payment.created_at),
            merchant_name: self.settings().merchant_name.clone(),
            description: session.description,
            payer_reference: link.payer_reference,
            payment_link_id: link.payment_link_id,
            subscription_id: payment.subscription_id,
        }))
    }
}
