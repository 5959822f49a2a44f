//! Capture, refund and void against the ledger's rules: what each allows, refuses and leaves
//! behind.

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
