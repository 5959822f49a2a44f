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
mod tests {
    use super::*;
    use crate::card_check::CardSnapshot;
    use crate::ledger::{Decline, MerchantContext, StateSummary};
    use checkout::currency::Currency;
    use checkout::wire::Address;

    const MERCHANT: &str = "m-1";

    fn record(ledger: &Ledger, kind: RecordKind, amount: u64, outcome: Outcome) -> Uuid {
        let reference = ledger.next_reference();
        let captured = if kind == RecordKind::Purchase && outcome == Outcome::Approved {
            amount
        } else {
            0
        };
        let record = TransactionRecord {
            id: Uuid::new_v4(),
            reference,
            kind,
            created_at: OffsetDateTime::UNIX_EPOCH,
            amount,
            currency: Currency::find("USD").expect("known"),
            outcome,
            auth_code: None,
            card: Arc::new(CardSnapshot {
                masked_number: "424242******4242".into(),
                name: "Jane".into(),
                exp_month: "05".into(),
                exp_year: "30".into(),
                scheme: "VISA".into(),
            }),
            stored_payment_method_id: None,
            merchant: Arc::new(MerchantContext {
                merchant_id: MERCHANT.into(),
                merchant_txn_ref: "order-1".into(),
                customer_ip: "127.0.0.1".into(),
                merchant_ip: None,
                billing_address: Address::default(),
                shipping_address: None,
            }),
            parent: None,
            money: MoneyState {
                captured,
                ..MoneyState::default()
            },
        };
        let id = record.id;
        ledger.insert(record);
        id
    }

    fn code(result: Result<TransactionRecord, SandboxError>) -> &'static str {
        result.map(|_| "ok").unwrap_or_else(|error| error.code())
    }

    const NOW: OffsetDateTime = OffsetDateTime::UNIX_EPOCH;

    #[test]
    fn partial_capture_releases_the_rest_and_only_once() {
        let ledger = Ledger::default();
        let auth = record(&ledger, RecordKind::Authorization, 1000, Outcome::Approved);
        assert_eq!(
            code(ledger.capture(&auth, MERCHANT, 1001, NOW)),
            codes::CAPTURE_EXCEEDS_AUTHORIZED
        );
        let capture = ledger
            .capture(&auth, MERCHANT, 600, NOW)
            .expect("capturable");
        assert_eq!(
            (capture.kind, capture.amount, capture.parent),
            (RecordKind::Capture, 600, Some(auth))
        );
        let original = ledger.get(&auth).expect("recorded");
        assert_eq!(original.money.captured, 600);
        assert_eq!(
            StateSummary::of(&original).description,
            "Partially captured"
        );
        assert_eq!(
            code(ledger.capture(&auth, MERCHANT, 100, NOW)),
            codes::CAPTURE_NOT_OPEN
        );
        assert_eq!(
            code(ledger.void(&auth, MERCHANT, NOW)),
            codes::VOID_NOT_OPEN
        );
        assert!(ledger.get(&capture.id).is_some());
    }

    #[test]
    fn refunds_add_up_to_the_captured_amount() {
        let ledger = Ledger::default();
        let sale = record(&ledger, RecordKind::Purchase, 1000, Outcome::Approved);
        ledger
            .refund(&sale, MERCHANT, 300, NOW)
            .expect("refundable");
        ledger
            .refund(&sale, MERCHANT, 700, NOW)
            .expect("refundable");
        assert_eq!(
            code(ledger.refund(&sale, MERCHANT, 1, NOW)),
            codes::REFUND_EXCEEDS_CAPTURED
        );
        let original = ledger.get(&sale).expect("recorded");
        assert_eq!(original.money.refunded, 1000);
        assert_eq!(StateSummary::of(&original).description, "Refunded");
    }

    #[test]
    fn refund_through_the_capture_counts_against_the_authorization() {
        let ledger = Ledger::default();
        let auth = record(&ledger, RecordKind::Authorization, 1000, Outcome::Approved);
        assert_eq!(
            code(ledger.refund(&auth, MERCHANT, 1, NOW)),
            codes::REFUND_NOT_CAPTURED
        );
        let capture = ledger
            .capture(&auth, MERCHANT, 500, NOW)
            .expect("capturable");
        ledger
            .refund(&capture.id, MERCHANT, 200, NOW)
            .expect("refundable");
        assert_eq!(
            code(ledger.refund(&auth, MERCHANT, 301, NOW)),
            codes::REFUND_EXCEEDS_CAPTURED
        );
        ledger
            .refund(&auth, MERCHANT, 300, NOW)
            .expect("refundable");
        let refund = ledger.refund(&auth, MERCHANT, 1, NOW);
        assert_eq!(code(refund), codes::REFUND_EXCEEDS_CAPTURED);
    }

    #[test]
    fn refused_transitions_have_their_codes() {
        let ledger = Ledger::default();
        let sale = record(&ledger, RecordKind::Purchase, 1000, Outcome::Approved);
        let auth = record(&ledger, RecordKind::Authorization, 1000, Outcome::Approved);
        let declined = record(
            &ledger,
            RecordKind::Authorization,
            1000,
            Outcome::Declined(Decline {
                response_code: 51,
                code: codes::ISSUER_DECLINED,
                reason: "insufficient funds".into(),
            }),
        );
        let pending = record(&ledger, RecordKind::Purchase, 1000, Outcome::Pending);
        assert_eq!(
            code(ledger.capture(&sale, MERCHANT, 1, NOW)),
            codes::CAPTURE_NOT_AUTHORIZATION
        );
        assert_eq!(
            code(ledger.void(&sale, MERCHANT, NOW)),
            codes::VOID_NOT_OPEN
        );
        assert_eq!(
            code(ledger.capture(&declined, MERCHANT, 1, NOW)),
            codes::NOT_APPROVED
        );
        assert_eq!(
            code(ledger.refund(&pending, MERCHANT, 1, NOW)),
            codes::NOT_APPROVED
        );
        assert_eq!(
            code(ledger.capture(&auth, "other", 1, NOW)),
            codes::NOT_FOUND
        );
        assert_eq!(
            code(ledger.capture(&Uuid::new_v4(), MERCHANT, 1, NOW)),
            codes::NOT_FOUND
        );
        let void = ledger.void(&auth, MERCHANT, NOW).expect("voidable");
        assert_eq!(
            code(ledger.void(&auth, MERCHANT, NOW)),
            codes::VOID_NOT_OPEN
        );
        assert_eq!(
            code(ledger.capture(&auth, MERCHANT, 1, NOW)),
            codes::CAPTURE_NOT_OPEN
        );
        assert_eq!(
            code(ledger.refund(&void.id, MERCHANT, 1, NOW)),
            codes::REFUND_NOT_CAPTURED
        );
        assert_eq!(
            code(ledger.void(&void.id, MERCHANT, NOW)),
            codes::VOID_NOT_OPEN
        );
        let voided = ledger.get(&auth).expect("recorded");
        assert_eq!(StateSummary::of(&voided).code, crate::ledger::VOID_OK);
    }
}
