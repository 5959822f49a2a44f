//! Recording a payment before its gateway call, one payment at a time per session.
//!
//! Before a pay call reaches the gateway it claims the session through the store's atomic
//! idempotency record (scope `session-pay`, key = session id), so of two concurrent pays —
//! double click, two tabs, different idempotency keys — only one charges. The claim is
//! released when that payment ends declined or failed (the shopper may try another card) and
//! kept while it is in flight or once the session is paid. A paid session (one with a keeper,
//! [`super::keeper`]) is never claimed again: the claim insert itself refuses it, in the same
//! statement, so no release, however late, can let a second charge in.
//!
//! The common case, a free claim, is one round trip: [`PaymentService::claim_and_open`] takes
//! the claim and records the payment together, and reads the card-testing counts of it in the
//! same statement (`store::sql::counted_claim`). A claim held only by 3-D Secure payments whose
//! shopper was sent to the bank passes to the new payment at once ([`super::supersede`]).
//! Any other held claim goes through the waiting and take-over of
//! [`PaymentService::claim_session`].

use checkout::contract::PaymentState;
use checkout::wire::ReturnUrl;

use super::pay_method::unknown_saved_card;
use super::{PaymentError, PaymentService, abandoned_after, later, now};
use crate::store::model::{
    CardSummary, IdempotencyKey, NewPayment, Payment, PaymentKind, RiskFacts, Session,
};
use crate::store::prelude::*;

/// Idempotency scope of session claims.
const SCOPE: &str = "session-pay";
/// The fixed "request" a claim records: every claim of a session is the same request.
const CLAIM_BODY: &[u8] = b"session-pay-claim";
/// Looks at a held claim this many times, [`CLAIM_RETRY_DELAY`] apart, before answering
/// `payment_in_progress` (about 200 ms in all).
const CLAIM_TRIES: u32 = 8;
/// Pause between two looks at a held claim.
const CLAIM_RETRY_DELAY: std::time::Duration = std::time::Duration::from_millis(25);

/// A payment just recorded for the pay call, holding its session's claim.
#[derive(Debug)]
pub(crate) struct Opened {
    pub(crate) payment: Payment,
    /// Its card-testing counts, when they were read with it (`None`: read them now).
    pub(crate) counts: Option<StoreResult<RiskCounts>>,
}

impl Opened {
    /// `payment`, its counts not read yet.
    pub(crate) fn uncounted(payment: Payment) -> Self {
        Self {
            payment,
            counts: None,
        }
    }
}

impl PaymentService {
    /// Records the payment, durably and directly in `pending`: the gateway is called next. (No
    /// separate `created` step: that was one more round trip before every charge, and a
    /// `pending` payment whose call never happened ends in review, never in a second charge.)
    pub(crate) async fn open_payment(
        &self,
        session: &Session,
        kind: PaymentKind,
        amount: u64,
        card: Option<CardSummary>,
        risk: RiskFacts,
    ) -> Result<Payment, PaymentError> {
        let new = NewPayment {
            risk,
            ..self.new_payment(session, kind, amount, card, None)
        };
        Ok(self.store().create_pending_payment(new).await?)
    }

    /// The `return_url` of `payment`, just recorded (the only time its webhook path secret
    /// is known).
    pub(crate) fn return_url(&self, payment: &Payment) -> Result<ReturnUrl, PaymentError> {
        self.settings()
            .urls
            .return_url(payment)
            .ok_or(PaymentError::Store(StoreError::Corrupt("webhook_token")))
    }

    /// The record of a payment of `session` about to be sent to the gateway.
    pub(crate) fn new_payment(
        &self,
        session: &Session,
        kind: PaymentKind,
        amount: u64,
        card: Option<CardSummary>,
        saved_card_id: Option<String>,
    ) -> NewPayment {
        let timing = self.settings().timing;
        NewPayment {
            session_id: session.id.clone(),
            customer_id: session.customer_id.clone(),
            kind,
            amount,
            currency: session.currency.clone(),
            merchant_txn_ref: session.reference.clone(),
            card,
            saved_card_id,
            save_card: false,
            save_card_billing: None,
            next_check_at: later(timing.payment_first_check),
            review_deadline: later(timing.payment_review_after),
            risk: RiskFacts::default(),
        }
    }

    /// Claims the session of `new` and records `new` in `pending`, ready for the gateway call,
    /// with the card-testing counts `counts` when the claim was free (one round trip). Fails
    /// like [`claim_session`](Self::claim_session) when the session is paid or busy; on any
    /// error this call holds no claim.
    pub(crate) async fn claim_and_open(
        &self,
        new: NewPayment,
        counts: &RiskCountQuery,
    ) -> Result<Opened, PaymentError> {
        let key = claim_key(&new.session_id)?;
        let digest = BodyDigest::of(CLAIM_BODY);
        let store = self.store();
        match store
            .claim_create_and_count(&key, &digest, new.clone(), counts)
            .await
        {
            Ok(Some(counted)) => {
                return Ok(Opened {
                    payment: counted.payment,
                    counts: Some(counted.counts),
                });
            }
            Ok(None) => {}
            // Nothing was written (a statement that failed wrote nothing; one whose answer was
            // lost holds the claim, and the claim below finds it held): the defence must not
            // take checkout down with it, so the payment is recorded without the counts, which
            // the check then reads on their own.
            Err(error) => {
                tracing::error!(session_id = %new.session_id, %error, "recording the payment with its card-testing counts failed; recording it without them");
                if let Some(payment) = store
                    .claim_and_create_pending_payment(&key, &digest, new.clone())
                    .await?
                {
                    return Ok(Opened::uncounted(payment));
                }
            }
        }
        if let Some(card_id) = &new.saved_card_id {
            self.confirm_saved_card(&new, card_id).await?;
        }
        // Held by payments left at the bank only: this one takes their place at once.
        if let Some(payment) = self.supersede_at_the_bank(&key, &digest, &new).await? {
            return Ok(Opened::uncounted(payment));
        }
        // Held: wait for it, refuse, or take an abandoned one over; then record the payment.
        let session_id = new.session_id.clone();
        self.claim_session(&session_id).await?;
        match store.create_pending_payment(new).await {
            Ok(payment) => Ok(Opened::uncounted(payment)),
            Err(error) => {
                self.release_session_if_idle(&session_id).await;
                Err(error.into())
            }
        }
    }

    /// After a claim that recorded nothing for a payment with a saved card: fails unless the
    /// card, read again from the database, is still the customer's with the details `new`
    /// was made with (the claim itself re-checks them, so the copy read before may be stale).
    async fn confirm_saved_card(
        &self,
        new: &NewPayment,
        card_id: &str,
    ) -> Result<(), PaymentError> {
        let customer_id = new.customer_id.as_deref().unwrap_or_default();
        let Some(card) = self.store().get_card(customer_id, card_id).await? else {
            return Err(unknown_saved_card());
        };
        if new.card.as_ref() != Some(&CardSummary::from_saved(&card)) {
            return Err(PaymentError::Conflict {
                code: "saved_card_changed",
                message: "the saved card was updated while paying; send the payment again".into(),
                field: Some("saved_card_id".into()),
            });
        }
        Ok(())
    }

    /// Claims `session_id` for one payment. Fails with `session_paid` when the session has
    /// been paid, and `payment_in_progress` while another payment of it is in flight.
    pub async fn claim_session(&self, session_id: &str) -> Result<(), PaymentError> {
        let key = claim_key(session_id)?;
        let digest = BodyDigest::of(CLAIM_BODY);
        for _ in 0..CLAIM_TRIES {
            let begun = self
                .store()
                .begin_session_claim(&key, session_id, &digest, now())
                .await?;
            let since = match begun {
                SessionClaim::Taken => return Ok(()),
                SessionClaim::Paid => return Err(super::supersede::session_paid()),
                SessionClaim::Held { since } => since,
            };
            self.refuse_if_busy(session_id).await?;
            // Nothing in flight and nothing paid: the claimant died before recording its
            // payment, or its payment ended without releasing. Take over once it is stale.
            if now() - since < abandoned_after(self.settings().gateway_timeout) {
                // A payment that just ended declined gives the claim back right after its
                // outcome is recorded: allow that moment before calling the session busy.
                tokio::time::sleep(CLAIM_RETRY_DELAY).await;
                continue;
            }
            tracing::warn!(session_id, "taking over an abandoned pay claim");
            self.store().release_idempotent(&key).await?;
        }
        Err(in_progress())
    }

    /// Gives the session back after its payment ended declined or failed, unless the session
    /// is paid (a payment it superseded was approved meanwhile): a paid session keeps its
    /// claim, and its claim insert refuses it anyway. Errors are logged: a claim left behind
    /// only delays the shopper's next attempt until it is stale.
    pub async fn release_session(&self, session_id: &str) {
        let released = match (claim_key(session_id), self.is_paid(session_id).await) {
            (Ok(_), Ok(true)) => Ok(()),
            (Ok(key), Ok(false)) => self
                .store()
                .release_idempotent(&key)
                .await
                .map_err(PaymentError::from),
            (Err(error), _) | (_, Err(error)) => Err(error),
        };
        if let Err(error) = released {
            tracing::error!(session_id, %error, "could not release the session's pay claim");
        }
    }

    /// `session_paid` when the session is paid, `payment_in_progress` when a payment of it is
    /// in flight.
    async fn refuse_if_busy(&self, session_id: &str) -> Result<(), PaymentError> {
        if self.is_paid(session_id).await? {
            return Err(super::supersede::session_paid());
        }
        let payments = self.session_payments(session_id, 20).await?;
        // A superseded payment no longer holds the claim (a later one took its place).
        let in_flight = |p: &Payment| {
            matches!(
                p.state,
                PaymentState::Created | PaymentState::Pending | PaymentState::NeedsReview
            ) && p.retry.superseded_by.is_none()
        };
        if let Some(busy) = payments.items.iter().find(|p| in_flight(p)) {
            tracing::info!(
                session_id,
                payment_id = %busy.id,
                state = ?busy.state,
                "pay refused: another payment of the session is in flight"
            );
            return Err(in_progress());
        }
        Ok(())
    }
}

fn claim_key(session_id: &str) -> Result<IdempotencyKey, PaymentError> {
    Ok(IdempotencyKey::new(SCOPE, session_id)?)
}

pub(crate) fn in_progress() -> PaymentError {
    PaymentError::conflict(
        "payment_in_progress",
        "a payment for this checkout session is already in progress",
    )
}
