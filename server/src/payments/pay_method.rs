//! What a pay request pays with, validated before the session is claimed: the card typed
//! now or one saved earlier by the session's customer (in date, the customer's), the billing
//! address the checkout asks for and the browser's time zone. A bad field is a `400` naming it.

use checkout::card::YearMonth;
use checkout::contract::{BillingField, PayRequest};
use checkout::wire::Address;

use super::card_input::ParsedCard;
use super::request::{billing_address, browser_info, time_zone, with_address_on_file};
use super::{PaymentError, PaymentService};
use crate::store::model::{SavedCardRecord, Session};

/// Billing fields every checkout form asks for (the gateway wants a billing address; these
/// two are what issuers' risk checks use most).
pub const BILLING_FIELDS: [BillingField; 2] = [BillingField::Country, BillingField::PostalCode];

/// How the shopper pays.
#[derive(Debug)]
pub(super) enum Method {
    /// A card typed now.
    Card(Box<ParsedCard>),
    /// A card saved earlier by the session's customer.
    Saved(SavedCardRecord),
}

/// The validated, session-independent parts of a pay request.
pub(super) struct Prepared {
    pub(super) method: Method,
    pub(super) billing: Address,
    pub(super) time_zone: String,
}

/// The saved card a pay request names, when the caller already read it with the session
/// ([`Store::get_session_with_card`](crate::store::traits::SessionStore::get_session_with_card)),
/// perhaps from a copy kept in memory: recording the payment re-checks it
/// (`PaymentService::claim_and_open`).
#[derive(Debug)]
pub enum SavedCardLookup {
    /// Not read yet: the pay call reads it.
    NotRead,
    /// Read with the session: the card, if it exists and is the session customer's.
    Read(Option<SavedCardRecord>),
}

impl PaymentService {
    /// The validated, session-independent parts of `request` for `session`.
    pub(super) async fn prepare(
        &self,
        session: &Session,
        request: &PayRequest,
        today: YearMonth,
        lookup: SavedCardLookup,
    ) -> Result<Prepared, PaymentError> {
        if session.plan_id.is_some() && request.saved_card_id.is_some() {
            return Err(PaymentError::invalid(
                "invalid_field",
                "saved_card_id",
                "a subscription starts with card details",
            ));
        }
        let method = match (&request.card, &request.saved_card_id) {
            (Some(card), None) => Method::Card(Box::new(ParsedCard::parse(card, today)?)),
            (None, Some(id)) => Method::Saved(self.saved_card(session, id, today, lookup).await?),
            (Some(_), Some(_)) => {
                return Err(PaymentError::invalid(
                    "invalid_field",
                    "saved_card_id",
                    "send either `card` or `saved_card_id`, not both",
                ));
            }
            (None, None) => {
                return Err(PaymentError::invalid(
                    "required",
                    "card",
                    "card details or `saved_card_id` are required",
                ));
            }
        };
        if request.save_card && session.customer_id.is_none() {
            return Err(PaymentError::invalid(
                "invalid_field",
                "save_card",
                "a card can only be saved in a session with a customer",
            ));
        }
        // A saved card fills in the billing address it keeps where the form asked for none.
        let on_file = match &method {
            Method::Saved(card) => card.billing.as_deref(),
            Method::Card(_) => None,
        };
        let billing = billing_address(
            &with_address_on_file(&request.billing_address, on_file),
            &BILLING_FIELDS,
            session.email.as_deref(),
        )?;
        let time_zone = time_zone(&request.browser_info)?;
        if matches!(method, Method::Card(_)) {
            // Checked now so a bad field is reported before the session is claimed.
            browser_info(&request.browser_info, "*/*")?;
        }
        Ok(Prepared {
            method,
            billing,
            time_zone,
        })
    }

    async fn saved_card(
        &self,
        session: &Session,
        card_id: &str,
        today: YearMonth,
        lookup: SavedCardLookup,
    ) -> Result<SavedCardRecord, PaymentError> {
        let Some(customer_id) = &session.customer_id else {
            return Err(unknown_saved_card());
        };
        let card = match lookup {
            SavedCardLookup::NotRead => self.store().get_card(customer_id, card_id).await?,
            SavedCardLookup::Read(card) => {
                card.filter(|c| c.id == card_id && &c.customer_id == customer_id)
            }
        }
        .ok_or_else(unknown_saved_card)?;
        if !is_expired(&card, today) {
            return Ok(card);
        }
        // The copy read with the session may be older than a renewal saved since: look again
        // before refusing. (A card in date is re-checked when the payment is recorded.)
        match self.store().get_card(customer_id, card_id).await? {
            Some(card) if !is_expired(&card, today) => Ok(card),
            Some(_) => Err(PaymentError::invalid(
                "expired",
                "saved_card_id",
                "the saved card has expired",
            )),
            None => Err(unknown_saved_card()),
        }
    }
}

/// `saved_card_id` names no card of the session's customer.
pub(crate) fn unknown_saved_card() -> PaymentError {
    PaymentError::invalid(
        "unknown_saved_card",
        "saved_card_id",
        "no such saved card for this customer",
    )
}

/// Whether `card` expired before the month `today`.
fn is_expired(card: &SavedCardRecord, today: YearMonth) -> bool {
    YearMonth::new(card.expiry_year, card.expiry_month).is_some_and(|expires| expires < today)
}
