//! The pay call: validate everything, claim the session, record the payment, call the
//! gateway, answer with the 3DS redirect or the result.
//!
//! - a new card on a one-off session → `paymentv2` / `authorizationv2` (3D Secure), with
//!   `return_url` pointing at this server's own paths for this payment;
//! - a saved card → the token form of `/payment` / `/authorization` (no 3DS, answered at once);
//! - a subscription session → `/subscription/payment` ([`super::subscription`]).
//!
//! Purchase or authorization is chosen by the session's capture mode, i.e. by endpoint.

use checkout::card::YearMonth;
use checkout::contract::{BillingField, PayRequest, PayResponse, PaymentResult, PaymentState};

use super::card_input::ParsedCard;
use super::outcome::{Attempt, is_unknown};
use super::request::{Shopper, billing_address, browser_info, time_zone, with_address_on_file};
use super::screen::Screened;
use super::{PaymentError, PaymentService, now, payment_result};
use crate::risk::returning::ProofCard;
use crate::risk::{CardFingerprint, TryKind};
use crate::store::model::{
    CardSummary, NewPayment, Payment, PaymentChanges, PaymentKind, SavedCardRecord, Session,
};
use checkout::wire::{Address, PaymentMethod, PaymentRequest, RequestAmount};

/// Billing fields every checkout form asks for (the gateway wants a billing address; these
/// two are what issuers' risk checks use most).
pub const BILLING_FIELDS: [BillingField; 2] = [BillingField::Country, BillingField::PostalCode];

/// How the shopper pays.
#[derive(Debug)]
enum Method {
    /// A card typed now.
    Card(Box<ParsedCard>),
    /// A card saved earlier by the session's customer.
    Saved(SavedCardRecord),
}

/// The validated, session-independent parts of a pay request.
struct Prepared {
    method: Method,
    billing: Address,
    time_zone: String,
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
    /// Pays `session` as `request` asks. Validation errors name the field; nothing reaches the
    /// gateway until every field is valid and the session is claimed.
    pub async fn pay(
        &self,
        session: &Session,
        request: &PayRequest,
        shopper: &Shopper,
    ) -> Result<PayResponse, PaymentError> {
        self.pay_with(session, request, shopper, SavedCardLookup::NotRead)
            .await
    }

    /// [`pay`](Self::pay), with the saved card `request` names already read (`lookup`).
    pub async fn pay_with(
        &self,
        session: &Session,
        request: &PayRequest,
        shopper: &Shopper,
        lookup: SavedCardLookup,
    ) -> Result<PayResponse, PaymentError> {
        let at = now();
        if session.is_expired_at(at) {
            return Err(PaymentError::SessionExpired);
        }
        let shopper = &Shopper {
            proof_of_work: request.proof_of_work.clone(),
            ..shopper.clone()
        };
        let prepared = self
            .prepare(session, request, YearMonth::of(at), lookup)
            .await?;
        // While a card-testing alert is open (or always, as configured), nothing is recorded
        // without a proof of work; a known shopper (a saved card, a returning customer, a
        // checkout that already passed, a card that paid from this address) is spared during an
        // alert (`risk::returning`).
        if self.risk().asks_proof() {
            let card = match &prepared.method {
                Method::Card(card) => ProofCard::Typed(self.risk().fingerprint(&card.number)),
                Method::Saved(card) => ProofCard::Saved(card.id.clone()),
            };
            let proof = request.proof_of_work.as_ref();
            self.risk()
                .require_proof_of(session, &card, proof, shopper.ip, at)
                .await
                .map_err(PaymentError::ProofOfWorkRequired)?;
        }
        // Each arm claims the session first; an error after the claim gives it back below.
        let paid = match (&session.plan_id, prepared.method) {
            (Some(plan_id), Method::Card(card)) => {
                self.claim_session(&session.id).await?;
                self.pay_subscription(
                    session,
                    plan_id,
                    &card,
                    prepared.billing,
                    &prepared.time_zone,
                    shopper,
                )
                .await
            }
            (None, Method::Card(card)) => {
                let browser = browser_info(&request.browser_info, &shopper.accept)?;
                let kind = PaymentKind::three_ds_for(session.capture_mode);
                let fingerprint = self.risk().fingerprint(&card.number);
                let facts = self.risk_facts(session, Some(fingerprint), shopper);
                let new = NewPayment {
                    save_card: request.save_card,
                    save_card_billing: request.save_card.then(|| prepared.billing.clone()),
                    risk: facts.clone(),
                    ..self.new_payment(session, kind, session.amount, Some(card.summary()), None)
                };
                let payment = self.claim_and_open(new).await?;
                let payment = match self
                    .screen(payment, &facts, TryKind::TypedCard, shopper)
                    .await?
                {
                    Screened::Allowed(payment) => *payment,
                    Screened::Blocked(answer) => return Ok(answer),
                };
                self.pay_three_ds(
                    session,
                    payment,
                    &card,
                    request.save_card,
                    prepared.billing,
                    browser,
                    prepared.time_zone,
                    shopper,
                )
                .await
            }
            (None, Method::Saved(card)) => {
                let kind = PaymentKind::token_for(session.capture_mode);
                let summary = CardSummary::from_saved(&card);
                // A saved card carries the fingerprint of the payment it was saved from (none
                // if saved before migration 0018): the block lists and the decline rules
                // judge it.
                let fingerprint = card.card_fingerprint.clone().map(CardFingerprint::stored);
                let facts = self.risk_facts(session, fingerprint, shopper);
                let new = NewPayment {
                    risk: facts.clone(),
                    ..self.new_payment(
                        session,
                        kind,
                        session.amount,
                        Some(summary),
                        Some(card.id.clone()),
                    )
                };
                let payment = self.claim_and_open(new).await?;
                let payment = match self
                    .screen(payment, &facts, TryKind::SavedCard, shopper)
                    .await?
                {
                    Screened::Allowed(payment) => *payment,
                    Screened::Blocked(answer) => return Ok(answer),
                };
                self.pay_with_token(
                    session,
                    payment,
                    &card,
                    prepared.billing,
                    prepared.time_zone,
                    shopper,
                )
                .await
            }
            // `prepare` refuses this combination; kept for exhaustiveness.
            (Some(_), Method::Saved(_)) => {
                return Err(PaymentError::invalid(
                    "invalid_field",
                    "saved_card_id",
                    "a subscription starts with card details",
                ));
            }
        };
        if paid.is_err() {
            // Failed before a payment was in flight (storage, a plan gone): let the shopper retry.
            self.release_session_if_idle(&session.id).await;
        }
        paid
    }

    /// The payment of `session` the component's result view shows: its keeper once it is
    /// paid (a superseded payment the bank approved late, while the newer one was declined,
    /// is what the shopper paid with), else the newest.
    pub async fn result(&self, session: &Session) -> Result<PaymentResult, PaymentError> {
        if let Some(keeper) = self.keeper(&session.id).await?
            && let Some(payment) = self.store().get_payment(&keeper.payment_id).await?
        {
            return Ok(payment_result(&payment));
        }
        self.latest_payment(&session.id)
            .await?
            .as_ref()
            .map(payment_result)
            .ok_or(PaymentError::NotFound("payment"))
    }

    async fn prepare(
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

    /// Sends the recorded (`pending`) `payment` to `paymentv2` / `authorizationv2`.
    #[allow(clippy::too_many_arguments)]
    async fn pay_three_ds(
        &self,
        session: &Session,
        payment: Payment,
        card: &ParsedCard,
        save_card: bool,
        billing: Address,
        browser: checkout::wire::BrowserInfo,
        time_zone: String,
        shopper: &Shopper,
    ) -> Result<PayResponse, PaymentError> {
        let kind = payment.kind;
        let request = PaymentRequest {
            amount: RequestAmount::new(session.amount),
            currency: session.currency.clone(),
            card: Some(card.wire()),
            payment_method: save_card.then(|| PaymentMethod::scheme(true)),
            merchant_id: self.settings().merchant_id.clone(),
            billing_address: billing,
            merchant_txn_ref: payment.merchant_txn_ref.clone(),
            customer_ip: shopper.ip.to_string(),
            return_url: Some(self.return_url(&payment)?),
            shipping_address: None,
            browser_info: Some(browser),
            time_zone,
        };
        let started = now();
        let (endpoint, result) = match kind {
            PaymentKind::AuthorizationV2 => (
                "authorizationv2",
                self.gateway().authorization_v2(&request).await,
            ),
            _ => ("paymentv2", self.gateway().payment_v2(&request).await),
        };
        if !matches!(&result, Err(error) if !is_unknown(error)) {
            self.log_attempt(Some(&payment.id), endpoint, started, &result)
                .await;
        }
        match result {
            Ok(start) if is_http_url(&start.redirect_url) => {
                tracing::info!(payment_id = %payment.id, "3DS started; redirecting the shopper");
                self.note_at_the_bank(&payment.id).await;
                Ok(PayResponse::Redirect {
                    redirect_url: start.redirect_url,
                })
            }
            Ok(_) => {
                tracing::warn!(payment_id = %payment.id, "the 3DS start carried no usable redirect address; payment left pending");
                Ok(answer(&payment))
            }
            Err(error) if is_unknown(&error) => {
                tracing::warn!(payment_id = %payment.id, %error, "3DS start outcome unknown; left pending");
                Ok(answer(&payment))
            }
            Err(error) => {
                let attempt = Attempt::new(endpoint, started);
                let payment = self
                    .finish_charge(payment, attempt, &Err(error), PaymentChanges::default())
                    .await?;
                Ok(answer(&payment))
            }
        }
    }

    /// Sends the recorded (`pending`) `payment` to the token form of `/payment` /
    /// `/authorization` and records the answer.
    async fn pay_with_token(
        &self,
        session: &Session,
        payment: Payment,
        card: &SavedCardRecord,
        billing: Address,
        time_zone: String,
        shopper: &Shopper,
    ) -> Result<PayResponse, PaymentError> {
        use secrecy::ExposeSecret as _;
        let kind = payment.kind;
        let request = PaymentRequest {
            amount: RequestAmount::new(session.amount),
            currency: session.currency.clone(),
            card: None,
            payment_method: Some(PaymentMethod::token(card.gateway_token.expose_secret())),
            merchant_id: self.settings().merchant_id.clone(),
            billing_address: billing,
            merchant_txn_ref: payment.merchant_txn_ref.clone(),
            customer_ip: shopper.ip.to_string(),
            return_url: None,
            shipping_address: None,
            browser_info: None,
            time_zone,
        };
        let started = now();
        let (endpoint, result) = match kind {
            PaymentKind::TokenAuthorization => (
                "authorization",
                self.gateway().authorization(&request).await,
            ),
            _ => ("payment", self.gateway().payment(&request).await),
        };
        let attempt = Attempt::new(endpoint, started);
        let payment = self
            .finish_charge(payment, attempt, &result, PaymentChanges::default())
            .await?;
        Ok(answer(&payment))
    }

    /// Releases the claim when no payment of the session is in flight (a paid session keeps
    /// it: [`release_session`](Self::release_session)).
    pub(crate) async fn release_session_if_idle(&self, session_id: &str) {
        match self.session_payments(session_id, 20).await {
            // A superseded payment still pending at the bank does not hold the claim.
            Ok(page)
                if page.items.iter().all(|p| {
                    matches!(
                        p.state,
                        PaymentState::Declined | PaymentState::Failed | PaymentState::Blocked
                    ) || p.retry.superseded_by.is_some()
                }) =>
            {
                self.release_session(session_id).await;
            }
            Ok(_) => {}
            Err(error) => {
                tracing::error!(session_id, %error, "could not check the session's payments")
            }
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

/// The final (or "processing") answer for `payment`.
pub fn answer(payment: &Payment) -> PayResponse {
    PayResponse::None {
        result: payment_result(payment),
    }
}

/// Only `http`/`https` addresses are handed to the browser.
fn is_http_url(url: &str) -> bool {
    reqwest::Url::parse(url).is_ok_and(|u| matches!(u.scheme(), "http" | "https"))
}
