//! Confirming an outcome with the status endpoint. Return visits, webhooks and the reconciler
//! all come here with (at most) a hint of the gateway's transaction id; nothing is recorded
//! until `GET /transaction/status/{id}` has answered and its amount, currency, reference and
//! transaction type match the payment's own record.
//!
//! A hint is looked up before it is written down, so a forged id cannot re-point a payment;
//! an id the store already gave another payment is refused. A hint whose lookup failed (the
//! gateway down or slow) is kept apart from the payment's id ([`Payment::transaction_hint`]):
//! the reconciler looks it up later, a lookup that disowns it drops it, and any other id named
//! later (the real webhook's) is still looked up and settles the payment. So an outsider who
//! names a bogus id on the return page while the gateway is slow delays nothing. A webhook
//! recorded but never judged (the database failed between the two) still names its id: with
//! no other, the reconciler looks that one up.

use checkout::contract::{DeclineCode, PaymentState};
use secrecy::SecretString;

use super::outcome::{approved_state, changes_from, decline_code};
use super::{PaymentError, PaymentService, now};
use crate::gateway::GatewayError;
use crate::store::StoreError;
use crate::store::model::{Payment, PaymentKind, WebhookVerdict};
use checkout::wire::{GatewayResponseType, TransactionResponse, TransactionType};

/// Where the gateway says a transaction stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GatewayState {
    /// Approved: the state the payment reaches (`authorized` or `captured`).
    Approved(PaymentState),
    /// Declined, with the shopper-facing reason.
    Declined(DeclineCode),
    /// No final answer yet (3DS not completed).
    Pending,
}

/// Who named a transaction id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HintFrom {
    /// A webhook on the payment's secret path: kept over an earlier return visit's hint.
    Webhook,
    /// A return visit (`transaction_id` in the query): anyone may send one, so it is kept
    /// only where no hint is.
    ReturnVisit,
    /// A staff member who found the id in the gateway's own portal (the review queue):
    /// kept over an earlier hint, like a webhook's.
    Staff,
}

/// A transaction id named for a payment, not yet confirmed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hint<'a> {
    /// The id named.
    pub id: &'a str,
    /// Who named it.
    pub from: HintFrom,
}

/// Where the id a settle attempt looks up came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Candidate {
    /// The payment's own, confirmed id.
    Confirmed,
    /// A hint given to this call.
    Named(HintFrom),
    /// The hint kept from an earlier attempt whose lookup failed.
    Kept,
}

/// What a settle attempt found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StatusVerdict {
    /// The payment was final already; no lookup was made.
    AlreadySettled,
    /// No gateway id is known and no hint was given: nothing to look up.
    NoTransactionId,
    /// The status endpoint answered and the record matched; `moved` says whether this call
    /// changed the payment.
    Confirmed {
        /// The gateway's view.
        state: GatewayState,
        /// Whether this call moved the payment.
        moved: bool,
    },
    /// The transaction does not match the payment (amount, currency, reference, type, id).
    Mismatch(&'static str),
    /// The gateway does not know the transaction id.
    UnknownTransaction,
    /// The id belongs to another payment.
    HintRejected,
    /// The lookup failed (gateway unreachable); try again later.
    LookupFailed(String),
}

/// A payment after a settle attempt, and what was found.
#[derive(Debug, Clone)]
pub struct Settlement {
    /// The payment as it stands now.
    pub payment: Payment,
    /// What the attempt found.
    pub verdict: StatusVerdict,
    /// The card token the confirmed status lookup carried, if any.
    pub card_token: Option<SecretString>,
}

impl PaymentService {
    /// Confirms the payment's outcome through the status endpoint, using its known gateway id,
    /// or else `hint`, or else the hint kept from an earlier attempt, and records it if it
    /// matches. Safe to call any number of times, from any number of places at once: the
    /// store's compare-and-set applies a step once.
    pub async fn settle(
        &self,
        payment_id: &str,
        hint: Option<Hint<'_>>,
    ) -> Result<Settlement, PaymentError> {
        let payment = self
            .store()
            .get_payment(payment_id)
            .await?
            .ok_or(PaymentError::NotFound("payment"))?;
        let settled = |payment, verdict| {
            Ok(Settlement {
                payment,
                verdict,
                card_token: None,
            })
        };
        if payment.outcome_is_final() {
            return settled(payment, StatusVerdict::AlreadySettled);
        }
        let named = hint.filter(|hint| is_transaction_id(hint.id));
        let (candidate, source) = match (&payment.gateway_transaction_id, named) {
            (Some(known), _) => (known.clone(), Candidate::Confirmed),
            (None, Some(hint)) => (hint.id.to_owned(), Candidate::Named(hint.from)),
            (None, None) => match &payment.transaction_hint {
                Some(kept) => (kept.clone(), Candidate::Kept),
                None => match self.unjudged_webhook_id(&payment.id).await? {
                    Some(id) => (id, Candidate::Named(HintFrom::Webhook)),
                    None => return settled(payment, StatusVerdict::NoTransactionId),
                },
            },
        };
        let started = now();
        let lookup = self.gateway().transaction_status(&candidate).await;
        self.log_attempt(Some(&payment.id), "transaction/status", started, &lookup)
            .await;
        let response = match lookup {
            Ok(response) => response,
            Err(GatewayError::NotFound) => {
                tracing::warn!(
                    payment_id,
                    "the gateway does not know the transaction named for this payment"
                );
                let payment = self.disown(payment, &candidate, source).await;
                return settled(payment, StatusVerdict::UnknownTransaction);
            }
            Err(error) => {
                let payment = match source {
                    Candidate::Named(from) => self.keep_hint(payment, &candidate, from).await,
                    Candidate::Confirmed | Candidate::Kept => payment,
                };
                return settled(payment, StatusVerdict::LookupFailed(error.to_string()));
            }
        };
        if let Err(reason) = matches_record(&payment, &candidate, &response) {
            tracing::warn!(
                payment_id,
                reason,
                "status lookup does not match the payment; nothing recorded"
            );
            let payment = self.disown(payment, &candidate, source).await;
            return settled(payment, StatusVerdict::Mismatch(reason));
        }
        let card_token = response
            .transaction_details
            .as_ref()
            .and_then(|details| details.token())
            .map(|token| SecretString::from(token.to_owned()));
        // The lookup proved the id belongs to this payment: note it durably before recording
        // the outcome, so a crash between the two leaves a payment the reconciler settles by id
        // (the webhook that brought the hint was already answered and will not come again).
        let Some(payment) = self.note_confirmed_id(payment.clone(), &candidate).await? else {
            tracing::warn!(
                payment_id,
                "the named transaction belongs to another payment"
            );
            let payment = self.disown(payment, &candidate, source).await;
            return settled(payment, StatusVerdict::HintRejected);
        };
        let state = gateway_state(&response, payment.kind);
        let mut changes = changes_from(&response);
        changes.gateway_transaction_id = Some(candidate.clone());
        let stepped = match state {
            GatewayState::Pending => {
                let verdict = StatusVerdict::Confirmed {
                    state,
                    moved: false,
                };
                return settled(payment, verdict);
            }
            GatewayState::Approved(to) => self.step(payment.clone(), to, changes).await,
            GatewayState::Declined(code) => {
                changes.decline_code = Some(code);
                self.step(payment.clone(), PaymentState::Declined, changes)
                    .await
            }
        };
        match stepped {
            Ok(after) => {
                let moved = after.state != payment.state;
                Ok(Settlement {
                    payment: after,
                    verdict: StatusVerdict::Confirmed { state, moved },
                    card_token,
                })
            }
            Err(PaymentError::Store(StoreError::Conflict(_))) => {
                tracing::warn!(
                    payment_id,
                    "the named transaction belongs to another payment"
                );
                settled(payment, StatusVerdict::HintRejected)
            }
            Err(error) => Err(error),
        }
    }

    /// The transaction id the payment's newest webhook named, when that webhook was recorded
    /// but never judged (its judgement failed, e.g. the database went away in between): the
    /// gateway will not send it again, so its id is the way to settle the payment.
    async fn unjudged_webhook_id(&self, payment_id: &str) -> Result<Option<String>, PaymentError> {
        let events = self.store().list_webhooks(payment_id).await?;
        Ok(events
            .into_iter()
            .rev()
            .filter(|event| event.verdict == WebhookVerdict::Received)
            .filter(|event| event.duplicate_of.is_none())
            .find_map(|event| event.gateway_transaction_id))
    }

    /// The lookup of a named id failed (gateway unreachable or slow): keep the hint apart
    /// from the payment's id, so the reconciler can confirm it later instead of the payment
    /// waiting for review for want of an id (a lost webhook, a return visit during an
    /// outage). A webhook's hint replaces a kept one; a return visit's only fills an empty
    /// place. Nothing is recorded as an outcome, or as the payment's id, until a lookup
    /// confirms it.
    async fn keep_hint(&self, payment: Payment, candidate: &str, from: HintFrom) -> Payment {
        let replace = from != HintFrom::ReturnVisit;
        match self
            .store()
            .keep_transaction_hint(&payment.id, candidate, replace)
            .await
        {
            Ok(true) => self.reread(payment).await,
            Ok(false) => payment,
            Err(error) => {
                tracing::warn!(payment_id = %payment.id, %error, "could not keep a transaction hint");
                payment
            }
        }
    }

    /// A lookup disowned `candidate` (unknown, another payment's, or not matching): a kept
    /// hint of that id is dropped, so it is not looked up again.
    async fn disown(&self, payment: Payment, candidate: &str, source: Candidate) -> Payment {
        if source != Candidate::Kept {
            return payment;
        }
        match self
            .store()
            .drop_transaction_hint(&payment.id, candidate)
            .await
        {
            Ok(true) => self.reread(payment).await,
            Ok(false) => payment,
            Err(error) => {
                tracing::warn!(payment_id = %payment.id, %error, "could not drop a transaction hint");
                payment
            }
        }
    }

    /// `payment` as the store has it now (or as it was, if it cannot be read).
    async fn reread(&self, payment: Payment) -> Payment {
        match self.store().get_payment(&payment.id).await {
            Ok(Some(updated)) => updated,
            _ => payment,
        }
    }

    /// Notes `candidate`, which a status lookup just matched to `payment`, as its gateway id
    /// unless one is known. `None` when the id already belongs to another payment.
    async fn note_confirmed_id(
        &self,
        payment: Payment,
        candidate: &str,
    ) -> Result<Option<Payment>, PaymentError> {
        if payment.gateway_transaction_id.is_some() {
            return Ok(Some(payment));
        }
        match self
            .store()
            .note_gateway_transaction(&payment.id, candidate)
            .await
        {
            Ok(_) => {}
            Err(StoreError::Conflict(_)) => return Ok(None),
            Err(error) => return Err(error.into()),
        }
        let noted = self.store().get_payment(&payment.id).await?;
        noted.map(Some).ok_or(PaymentError::NotFound("payment"))
    }
}

/// What the status response says, for a payment of `kind`.
pub fn gateway_state(response: &TransactionResponse, kind: PaymentKind) -> GatewayState {
    match &response.payment_details {
        Some(_) if response.is_approved() => GatewayState::Approved(approved_state(kind)),
        _ if response.gateway_response.kind == GatewayResponseType::Info => GatewayState::Pending,
        Some(details) => GatewayState::Declined(decline_code(
            details.response_code,
            &response.gateway_response.code,
        )),
        None => GatewayState::Declined(DeclineCode::Other),
    }
}

/// Checks the looked-up transaction is this payment's: its id, amount, currency, reference
/// and type. Returns the first mismatch.
pub fn matches_record(
    payment: &Payment,
    candidate: &str,
    response: &TransactionResponse,
) -> Result<(), &'static str> {
    if response.transaction_id().is_some_and(|id| id != candidate) {
        return Err("transaction id");
    }
    let Some(details) = &response.payment_details else {
        return Err("no payment details");
    };
    if details.amount.minor_units() != payment.amount {
        return Err("amount");
    }
    if !details.currency.eq_ignore_ascii_case(&payment.currency) {
        return Err("currency");
    }
    if response
        .merchant_txn_ref()
        .is_some_and(|r| r != payment.merchant_txn_ref)
    {
        return Err("merchant_txn_ref");
    }
    let expected = match approved_state(payment.kind) {
        PaymentState::Authorized => TransactionType::PreAuth,
        _ => TransactionType::Capture,
    };
    if response
        .transaction_type
        .as_ref()
        .is_some_and(|t| *t != expected)
    {
        return Err("transaction_type");
    }
    Ok(())
}

/// A gateway transaction id: 36 characters of hex digits and dashes.
pub fn is_transaction_id(text: &str) -> bool {
    text.len() == 36 && text.bytes().all(|b| b.is_ascii_hexdigit() || b == b'-')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transaction_ids() {
        assert!(is_transaction_id("0b6f3a52-3c6e-4f0e-9a53-1d2c3b4a5f60"));
        assert!(!is_transaction_id("0b6f3a52-3c6e-4f0e-9a53-1d2c3b4a5f6"));
        assert!(!is_transaction_id("../../../../../../../../../../etc/pw"));
    }
}
