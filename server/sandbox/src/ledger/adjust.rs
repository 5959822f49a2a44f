//! Capture, refund and void: the rules that move money after a payment, each checked and
//! applied under the ledger lock so concurrent calls cannot both spend the same amount.
//!
//! - capture: only an approved authorization (`PRE_AUTH`) not yet captured or voided, for at
//!   most the authorized amount; capturing less releases the rest (one capture per
//!   authorization).
//! - refund: a purchase, a captured authorization or its capture transaction, for at most what
//!   was captured minus what was already refunded; several partial refunds are allowed.
//! - void: only an approved authorization with nothing captured and not already voided.
//!
//! Each creates its own transaction (own id and ref, findable by status) and updates the
//! original's [`MoneyState`], which its status then reflects.

use std::collections::HashMap;
use std::sync::Arc;

use time::OffsetDateTime;
use uuid::Uuid;

use super::Ledger;
use super::record::{MoneyState, Outcome, RecordKind, TransactionRecord, auth_code_for};
use crate::error::{SandboxError, codes};

impl Ledger {
    /// Captures `amount` of the authorization `target`; returns the capture transaction.
    pub fn capture(
        &self,
        target: &Uuid,
        merchant_id: &str,
        amount: u64,
        now: OffsetDateTime,
    ) -> Result<TransactionRecord, SandboxError> {
        let reference = self.next_reference();
        let mut records = self.lock();
        let original = find(&mut records, target, merchant_id)?;
        if original.kind != RecordKind::Authorization {
            return Err(SandboxError::refused(
                codes::CAPTURE_NOT_AUTHORIZATION,
                format!(
                    "only an authorization (PRE_AUTH) can be captured; this transaction is {}",
                    kind_name(original.kind)
                ),
            ));
        }
        require_approved(original)?;
        if original.money.voided {
            return Err(SandboxError::refused(
                codes::CAPTURE_NOT_OPEN,
                "the authorization was voided",
            ));
        }
        if original.money.captured > 0 {
            return Err(SandboxError::refused(
                codes::CAPTURE_NOT_OPEN,
                "the authorization was already captured",
            ));
        }
        if amount > original.amount {
            return Err(SandboxError::refused(
                codes::CAPTURE_EXCEEDS_AUTHORIZED,
                format!(
                    "`amount` {amount} exceeds the authorized amount {}",
                    original.amount
                ),
            ));
        }
        original.money.captured = amount;
        let capture = follow_up(original, RecordKind::Capture, amount, reference, now);
        records.insert(capture.id, capture.clone());
        self.changes.mark();
        Ok(capture)
    }

    /// Refunds `amount` of the purchase or capture `target`; returns the refund transaction.
    pub fn refund(
        &self,
        target: &Uuid,
        merchant_id: &str,
        amount: u64,
        now: OffsetDateTime,
    ) -> Result<TransactionRecord, SandboxError> {
        let reference = self.next_reference();
        let mut records = self.lock();
        let named = find(&mut records, target, merchant_id)?;
        let root_id = match named.kind {
            RecordKind::Capture => named.parent.ok_or(SandboxError::Internal)?,
            RecordKind::Purchase | RecordKind::Authorization => named.id,
            RecordKind::Refund | RecordKind::Void => {
                return Err(SandboxError::refused(
                    codes::REFUND_NOT_CAPTURED,
                    format!("{} cannot be refunded", kind_name(named.kind)),
                ));
            }
        };
        let original = records.get_mut(&root_id).ok_or(SandboxError::Internal)?;
        require_approved(original)?;
        let MoneyState {
            captured, refunded, ..
        } = original.money;
        if captured == 0 {
            return Err(SandboxError::refused(
                codes::REFUND_NOT_CAPTURED,
                "nothing was captured on this transaction, so nothing can be refunded",
            ));
        }
        let refundable = captured - refunded;
        if amount > refundable {
            return Err(SandboxError::refused(
                codes::REFUND_EXCEEDS_CAPTURED,
                format!(
                    "`amount` {amount} exceeds the refundable amount {refundable} (captured {captured}, refunded {refunded})"
                ),
            ));
        }
        original.money.refunded += amount;
        let refund = follow_up(original, RecordKind::Refund, amount, reference, now);
        records.insert(refund.id, refund.clone());
        self.changes.mark();
        Ok(refund)
    }

    /// Voids the authorization `target`; returns the void transaction.
    pub fn void(
        &self,
        target: &Uuid,
        merchant_id: &str,
        now: OffsetDateTime,
    ) -> Result<TransactionRecord, SandboxError> {
        let reference = self.next_reference();
        let mut records = self.lock();
        let original = find(&mut records, target, merchant_id)?;
        if original.kind != RecordKind::Authorization {
            return Err(SandboxError::refused(
                codes::VOID_NOT_OPEN,
                format!(
                    "only an uncaptured authorization can be voided; this transaction is {}",
                    kind_name(original.kind)
                ),
            ));
        }
        require_approved(original)?;
        if original.money.voided {
            return Err(SandboxError::refused(
                codes::VOID_NOT_OPEN,
                "the authorization was already voided",
            ));
        }
        if original.money.captured > 0 {
            return Err(SandboxError::refused(
                codes::VOID_NOT_OPEN,
                "the authorization was captured; refund it instead",
            ));
        }
        original.money.voided = true;
        let amount = original.amount;
        let void = follow_up(original, RecordKind::Void, amount, reference, now);
        records.insert(void.id, void.clone());
        self.changes.mark();
        Ok(void)
    }
}

/// The transaction `id` of `merchant_id`; another merchant's transaction is "not found".
fn find<'a>(
    records: &'a mut HashMap<Uuid, TransactionRecord>,
    id: &Uuid,
    merchant_id: &str,
) -> Result<&'a mut TransactionRecord, SandboxError> {
    records
        .get_mut(id)
        .filter(|record| record.merchant.merchant_id == merchant_id)
        .ok_or_else(|| SandboxError::NotFound("transaction".to_owned()))
}

fn require_approved(record: &TransactionRecord) -> Result<(), SandboxError> {
    match record.outcome {
        Outcome::Approved => Ok(()),
        Outcome::Pending => Err(SandboxError::refused(
            codes::NOT_APPROVED,
            "the transaction is still pending 3-D Secure authentication",
        )),
        Outcome::Declined(_) => Err(SandboxError::refused(
            codes::NOT_APPROVED,
            "the transaction was declined",
        )),
    }
}

fn kind_name(kind: RecordKind) -> &'static str {
    match kind {
        RecordKind::Purchase => "a purchase (CAPTURE)",
        RecordKind::Authorization => "an authorization (PRE_AUTH)",
        RecordKind::Capture => "a capture (CAPTURE)",
        RecordKind::Refund => "a refund (REFUND)",
        RecordKind::Void => "a void (VOID)",
    }
}

/// The capture, refund or void transaction recorded against `original`.
fn follow_up(
    original: &TransactionRecord,
    kind: RecordKind,
    amount: u64,
    reference: u64,
    now: OffsetDateTime,
) -> TransactionRecord {
    TransactionRecord {
        id: Uuid::new_v4(),
        reference,
        kind,
        created_at: now,
        amount,
        currency: original.currency,
        outcome: Outcome::Approved,
        auth_code: Some(auth_code_for(reference)),
        card: Arc::clone(&original.card),
        stored_payment_method_id: None,
        merchant: Arc::clone(&original.merchant),
        parent: Some(original.id),
        money: MoneyState::default(),
    }
}

#[cfg(test)]
mod tests;
