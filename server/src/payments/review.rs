//! The review queue's service calls: which payments need a person, a transaction id a staff
//! member found in the gateway's portal (confirmed by the status endpoint like any other hint,
//! so nobody can mark a payment paid by hand), and resolving a payment as failed with a note.
//! Only forward steps of the store's state machine; the dashboard only adapts these.

use std::time::Duration;

use checkout::contract::{DeclineCode, PaymentState};
use time::OffsetDateTime;

use super::settle::{Hint, HintFrom, Settlement, is_transaction_id};
use super::{PaymentError, PaymentService};
use crate::store::model::{Payment, PaymentChanges, PaymentQuery};
use crate::store::transitions::state_name;

/// The most payments of one state the queue reads (pages of the store's listing).
const QUEUE_READ_LIMIT: usize = 1_000;
/// The longest note accepted when resolving as failed.
const NOTE_MAX_CHARS: usize = 500;

impl PaymentService {
    /// Every `needs_review` payment and every `pending` one created at least `pending_after`
    /// before `now`, oldest first, at most `limit`.
    pub async fn review_queue(
        &self,
        now: OffsetDateTime,
        pending_after: Duration,
        limit: usize,
    ) -> Result<Vec<Payment>, PaymentError> {
        let age = time::Duration::try_from(pending_after).unwrap_or(time::Duration::DAY);
        let mut queue = self
            .all_payments(PaymentQuery {
                state: Some(PaymentState::NeedsReview),
                ..PaymentQuery::default()
            })
            .await?;
        let stale = self
            .all_payments(PaymentQuery {
                state: Some(PaymentState::Pending),
                created_before: Some(now.saturating_sub(age)),
                ..PaymentQuery::default()
            })
            .await?;
        queue.extend(stale);
        queue.sort_by(|a, b| (a.created_at, &a.id).cmp(&(b.created_at, &b.id)));
        queue.truncate(limit);
        Ok(queue)
    }

    /// The payments `query` matches, every page, up to [`QUEUE_READ_LIMIT`].
    async fn all_payments(&self, mut query: PaymentQuery) -> Result<Vec<Payment>, PaymentError> {
        query.limit = crate::store::model::MAX_PAGE_SIZE;
        let mut found = Vec::new();
        loop {
            let page = self.store().list_payments(query.clone()).await?;
            found.extend(page.items);
            match page.next {
                Some(cursor) if found.len() < QUEUE_READ_LIMIT => query.after = Some(cursor),
                _ => return Ok(found),
            }
        }
    }

    /// Settles a `pending` or `needs_review` payment with `transaction_id`, which a staff
    /// member found in the gateway's portal: it is looked up, and only if its amount,
    /// currency, reference and type match the payment is the outcome (paid or declined)
    /// recorded. A mismatch or an id the gateway does not know changes nothing; the verdict
    /// says which. A payment already final answers [`StatusVerdict::AlreadySettled`].
    ///
    /// [`StatusVerdict::AlreadySettled`]: super::StatusVerdict::AlreadySettled
    pub async fn attach_transaction_id(
        &self,
        payment_id: &str,
        transaction_id: &str,
    ) -> Result<Settlement, PaymentError> {
        let transaction_id = transaction_id.trim();
        if !is_transaction_id(transaction_id) {
            return Err(PaymentError::invalid(
                "invalid_field",
                "transaction_id",
                "must be the gateway's transaction id: 36 hex digits and dashes",
            ));
        }
        let payment = self.existing(payment_id).await?;
        if !payment.outcome_is_final() {
            in_review(&payment, "attach a transaction id to")?;
            if let Some(known) = &payment.gateway_transaction_id
                && !known.eq_ignore_ascii_case(transaction_id)
            {
                return Err(PaymentError::Conflict {
                    code: "transaction_mismatch",
                    message: format!(
                        "the payment already has gateway transaction {known}; ask the gateway about that one"
                    ),
                    field: Some("transaction_id".to_owned()),
                });
            }
        }
        let hint = Hint {
            id: transaction_id,
            from: HintFrom::Staff,
        };
        self.settle(payment_id, Some(hint)).await
    }

    /// Resolves a `needs_review` payment as `failed`, for the reason `note` (required; it
    /// belongs in the caller's audit log). A payment already `failed` is returned as it is,
    /// so a repeated call does one thing; a payment in any other state is refused (a pending
    /// one may still be settled by the gateway: ask it first).
    pub async fn resolve_failed(
        &self,
        payment_id: &str,
        note: &str,
    ) -> Result<Payment, PaymentError> {
        check_note(note)?;
        let payment = self.existing(payment_id).await?;
        if payment.state == PaymentState::Failed {
            return Ok(payment);
        }
        if payment.state != PaymentState::NeedsReview {
            return Err(PaymentError::conflict(
                "invalid_state",
                format!(
                    "only a payment in needs_review can be resolved as failed; this one is {}",
                    state_name(payment.state)
                ),
            ));
        }
        let after = self
            .step(
                payment.clone(),
                PaymentState::Failed,
                left_at_the_bank(&payment),
            )
            .await?;
        if after.state != PaymentState::Failed {
            return Err(PaymentError::conflict(
                "invalid_state",
                format!(
                    "the payment became {} meanwhile; nothing was resolved",
                    state_name(after.state)
                ),
            ));
        }
        Ok(after)
    }

    async fn existing(&self, payment_id: &str) -> Result<Payment, PaymentError> {
        self.store()
            .get_payment(payment_id)
            .await?
            .ok_or(PaymentError::NotFound("payment"))
    }
}

/// Refuses a payment that is neither `pending` nor `needs_review`.
fn in_review(payment: &Payment, what: &str) -> Result<(), PaymentError> {
    match payment.state {
        PaymentState::Pending | PaymentState::NeedsReview => Ok(()),
        other => Err(PaymentError::conflict(
            "invalid_state",
            format!("cannot {what} a payment that is {}", state_name(other)),
        )),
    }
}

/// A resolution note: required, at most [`NOTE_MAX_CHARS`], and never a card number.
pub fn check_note(note: &str) -> Result<(), PaymentError> {
    let note = note.trim();
    let bad = |message: &str| Err(PaymentError::invalid("invalid_field", "note", message));
    if note.is_empty() {
        return bad("required: say why the payment is resolved as failed");
    }
    if note.chars().count() > NOTE_MAX_CHARS {
        return bad("at most 500 characters");
    }
    let longest_digit_run = note
        .split(|c: char| !c.is_ascii_digit() && c != ' ' && c != '-')
        .map(|run| run.chars().filter(char::is_ascii_digit).count())
        .max()
        .unwrap_or(0);
    if longest_digit_run >= 13 {
        return bad("must not contain a card number");
    }
    Ok(())
}

/// What resolving `payment` as failed records besides the state: a 3-D Secure payment whose
/// shopper was sent to the bank and whose outcome was never learned was left there (staff
/// found no charge), recorded as the reconciler records an abandoned attempt (reason
/// `authentication_failed`: not completed), so the overview counts it as abandoned rather
/// than as declined after authentication.
fn left_at_the_bank(payment: &Payment) -> PaymentChanges {
    let never_heard_back =
        payment.retry.redirected_at.is_some() && payment.gateway_transaction_id.is_none();
    PaymentChanges {
        decline_code: never_heard_back.then_some(DeclineCode::AuthenticationFailed),
        ..PaymentChanges::default()
    }
}

#[cfg(test)]
mod tests {
    use super::check_note;

    #[test]
    fn notes_are_required_short_and_free_of_card_numbers() {
        assert!(check_note("shopper confirmed by phone the 3DS was abandoned").is_ok());
        assert!(check_note("order 1042, 2 items").is_ok());
        for bad in [
            "",
            "   ",
            "card 4242 4242 4242 4242 declined",
            &"x".repeat(501),
        ] {
            let err = check_note(bad).expect_err(bad).to_string();
            assert!(err.starts_with("note: "), "{err}");
        }
    }
}
