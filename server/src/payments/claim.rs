//! One payment at a time per session. Before a pay call reaches the gateway it claims the
//! session through the store's atomic idempotency record (scope `session-pay`, key = session
//! id), so of two concurrent pays — double click, two tabs, different idempotency keys — only
//! one charges. The claim is released when that payment ends declined or failed (the shopper
//! may try another card) and kept while it is in flight or once it is paid.

use checkout::contract::PaymentState;
use time::OffsetDateTime;

use super::{PaymentError, PaymentService, now};
use crate::store::model::{IdempotencyBegin, IdempotencyKey};
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

impl PaymentService {
    /// Claims `session_id` for one payment. Fails with `session_paid` when the session has
    /// been paid, and `payment_in_progress` while another payment of it is in flight.
    pub async fn claim_session(&self, session_id: &str) -> Result<(), PaymentError> {
        let key = claim_key(session_id)?;
        let digest = BodyDigest::of(CLAIM_BODY);
        for _ in 0..CLAIM_TRIES {
            let since = match self.store().begin_idempotent(&key, &digest, now()).await? {
                IdempotencyBegin::New => return Ok(()),
                IdempotencyBegin::InProgress { since } => since,
                IdempotencyBegin::Completed(_) | IdempotencyBegin::Conflict => {
                    OffsetDateTime::UNIX_EPOCH
                }
            };
            self.refuse_if_busy(session_id).await?;
            // Nothing in flight and nothing paid: the claimant died before recording its
            // payment, or its payment ended without releasing. Take over once it is stale.
            let stale_after = time::Duration::try_from(self.settings().gateway_timeout * 2)
                .unwrap_or(time::Duration::MINUTE)
                + time::Duration::seconds(10);
            if now() - since < stale_after {
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

    /// Gives the session back after its payment ended declined or failed. Errors are logged:
    /// a claim left behind only delays the shopper's next attempt until it is stale.
    pub async fn release_session(&self, session_id: &str) {
        let released = match claim_key(session_id) {
            Ok(key) => self
                .store()
                .release_idempotent(&key)
                .await
                .map_err(PaymentError::from),
            Err(error) => Err(error),
        };
        if let Err(error) = released {
            tracing::error!(session_id, %error, "could not release the session's pay claim");
        }
    }

    /// `session_paid` or `payment_in_progress` from the session's payments, if either holds.
    async fn refuse_if_busy(&self, session_id: &str) -> Result<(), PaymentError> {
        let payments = self.session_payments(session_id, 20).await?;
        if payments.items.iter().any(|p| p.state.is_paid()) {
            return Err(PaymentError::conflict(
                "session_paid",
                "this checkout session has already been paid",
            ));
        }
        let in_flight = |state| {
            matches!(
                state,
                PaymentState::Created | PaymentState::Pending | PaymentState::NeedsReview
            )
        };
        if payments.items.iter().any(|p| in_flight(p.state)) {
            return Err(in_progress());
        }
        Ok(())
    }
}

fn claim_key(session_id: &str) -> Result<IdempotencyKey, PaymentError> {
    Ok(IdempotencyKey::new(SCOPE, session_id)?)
}

fn in_progress() -> PaymentError {
    PaymentError::conflict(
        "payment_in_progress",
        "a payment for this checkout session is already in progress",
    )
}
