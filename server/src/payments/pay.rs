//! The pay call: validate everything, claim the session, record the payment, call the
//! gateway, answer with the 3DS redirect or the result.
//!
//! - a new card on a one-off session → `paymentv2` / `authorizationv2` (3D Secure), with
//!   `return_url` pointing at this server's own paths for this payment;
//! - a saved card → the token form of `/payment` / `/authorization` (no 3DS, answered at once);
//! - a subscription session → `/subscription/payment` ([`super::subscription`]).
//!
//! Purchase or authorization is chosen by the session's capture mode, i.e. by endpoint. What
//! the request pays with is validated first ([`super::pay_method`]).

use checkout::card::YearMonth;
use checkout::contract::{PayRequest, PayResponse, PaymentResult, PaymentState};

use super::card_input::ParsedCard;
use super::outcome::{Attempt, is_unknown};
use super::pay_method::{Method, SavedCardLookup};
use super::request::{Shopper, browser_info};
use super::screen::Screened;
use super::{PaymentError, PaymentService, answer, now, payment_result};
use crate::risk::returning::ProofCard;
use crate::risk::{CardFingerprint, TryKind};
use crate::store::model::{
    CardSummary, NewPayment, Payment, PaymentChanges, PaymentKind, SavedCardRecord, Session,
};
use checkout::wire::{Address, PaymentMethod, PaymentRequest, RequestAmount};

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
                let counts = self
                    .risk()
                    .count_query(&new, TryKind::TypedCard, shopper.ip);
                let opened = self.claim_and_open(new, &counts).await?;
                let payment = match self
                    .screen(opened, &facts, TryKind::TypedCard, shopper)
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
                let counts = self
                    .risk()
                    .count_query(&new, TryKind::SavedCard, shopper.ip);
                let opened = self.claim_and_open(new, &counts).await?;
                let payment = match self
                    .screen(opened, &facts, TryKind::SavedCard, shopper)
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

/// Only `http`/`https` addresses are handed to the browser.
fn is_http_url(url: &str) -> bool {
    reqwest::Url::parse(url).is_ok_and(|u| matches!(u.scheme(), "http" | "https"))
}
