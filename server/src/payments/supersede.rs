//! Paying a session again while its earlier 3-D Secure payment waits at the bank (issue 32).
//!
//! A shopper who pressed Back on the bank's page, or closed the in-page 3-D Secure dialog,
//! leaves a `pending` payment whose gateway call was answered with a redirect (noted durably:
//! [`RetryStore::note_three_ds_redirect`]). No call of ours is in flight for it, so a new pay
//! of the session supersedes it: the store marks it superseded by the new payment and records
//! the new one under the same held claim, in one transaction that locks the claim first
//! ([`RetryStore::supersede_and_create_pending_payment`]). A payment whose gateway call may
//! still be running, or whose outcome is unknown, still makes the pay `payment_in_progress`.
//!
//! A superseded payment may still be approved by the bank later: the surplus rule
//! ([`super::surplus`]) reverses whichever charge of the session came second.

use super::{PaymentError, PaymentService, now};
use crate::store::model::{IdempotencyKey, NewPayment, Payment};
use crate::store::prelude::*;

/// How many times a pay looks again when the claim was given back or taken between two of
/// its statements.
const SUPERSEDE_TRIES: u32 = 3;
/// A payment redirected to the bank less than this long ago is not superseded: a pay that
/// comes so soon is the same click again (double click, three tabs at once), not a shopper
/// back from the bank, and is answered `payment_in_progress` as before.
pub const DOUBLE_CLICK_GUARD: std::time::Duration = std::time::Duration::from_secs(1);

impl PaymentService {
    /// Notes that `payment_id`'s 3-D Secure start sent the shopper to the bank. A failure is
    /// logged: the payment then only blocks a new pay as before (until its review).
    pub(crate) async fn note_at_the_bank(&self, payment_id: &str) {
        if let Err(error) = self.store().note_three_ds_redirect(payment_id, now()).await {
            tracing::error!(payment_id, %error, "could not note the 3DS redirect");
        }
    }

    /// With the session's claim `key` held: records `new` in place of the session's payments
    /// waiting at the bank, when those are all that hold it. `None` when something else holds
    /// the claim (the caller waits or answers `payment_in_progress`); `session_paid` when the
    /// session is paid.
    pub(crate) async fn supersede_at_the_bank(
        &self,
        key: &IdempotencyKey,
        digest: &BodyDigest,
        new: &NewPayment,
    ) -> Result<Option<Payment>, PaymentError> {
        let store = self.store();
        let guard = time::Duration::try_from(DOUBLE_CLICK_GUARD).unwrap_or(time::Duration::SECOND);
        for _ in 0..SUPERSEDE_TRIES {
            match store
                .supersede_and_create_pending_payment(
                    key,
                    new.clone(),
                    now(),
                    now().saturating_sub(guard),
                )
                .await?
            {
                Supersede::Recorded {
                    payment,
                    superseded,
                } => {
                    for old in &superseded {
                        tracing::info!(payment_id = %old, superseded_by = %payment.id, "3DS payment left at the bank superseded by a new pay");
                    }
                    return Ok(Some(*payment));
                }
                Supersede::ClaimFree => {
                    if let Some(payment) = store
                        .claim_and_create_pending_payment(key, digest, new.clone())
                        .await?
                    {
                        return Ok(Some(payment));
                    }
                }
                Supersede::Paid => return Err(session_paid()),
                Supersede::Busy => return Ok(None),
            }
        }
        Ok(None)
    }
}

/// The session has been paid: it takes no other pay, whatever happened to that payment since.
pub(crate) fn session_paid() -> PaymentError {
    PaymentError::conflict(
        "session_paid",
        "this checkout session has already been paid; it accepts no other payment (the shop \
         can start a new checkout session)",
    )
}
