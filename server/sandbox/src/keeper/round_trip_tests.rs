//! A state saved by one emulator and opened by the next: everything that persists comes back
//! equal, references keep increasing, and the file never holds a card number in the clear.

use std::sync::Arc;

use checkout::card::{CardNumber, Expiry, YearMonth};
use checkout::currency::Currency;
use checkout::wire::{Address, ReturnUrl};
use time::OffsetDateTime;
use uuid::Uuid;

use super::StateKeeper;
use crate::acs_sessions::AcsSession;
use crate::card_check::CardSnapshot;
use crate::charge_card::{ChargeCard, ChargePurpose};
use crate::error::codes;
use crate::ledger::{Decline, MerchantContext, MoneyState, Outcome, RecordKind, TransactionRecord};
use crate::persist::{KEY_FILE_NAME, Persistence, STATE_FILE_NAME, StateFile};
use crate::subscriptions::CycleContext;
use crate::subscriptions::cadence::{Cadence, CycleType};
use crate::subscriptions::subscription::Subscription;
use crate::subscriptions::terms::PlanTerms;
use crate::test_cards::behaviour_of;
use crate::{SandboxConfig, SandboxState};

const DIGITS: &str = "4000000000003220";

fn snapshot_of(number: &CardNumber) -> CardSnapshot {
    CardSnapshot {
        masked_number: number.to_string(),
        name: "Jane Doe".into(),
        exp_month: "05".into(),
        exp_year: "30".into(),
        scheme: "VISA".into(),
    }
}

fn merchant() -> MerchantContext {
    MerchantContext {
        merchant_id: "m-1".into(),
        merchant_txn_ref: "order-1".into(),
        customer_ip: "127.0.0.1".into(),
        merchant_ip: None,
        billing_address: Address::default(),
        shipping_address: None,
    }
}

fn record(state: &SandboxState, outcome: Outcome) -> TransactionRecord {
    let reference = state.ledger.next_reference();
    let number = CardNumber::parse(DIGITS).expect("valid");
    let record = TransactionRecord {
        id: Uuid::new_v4(),
        reference,
        kind: RecordKind::Purchase,
        created_at: OffsetDateTime::UNIX_EPOCH,
        amount: 1000,
        currency: Currency::find("EUR").expect("known"),
        outcome,
        auth_code: Some("123456".into()),
        card: Arc::new(snapshot_of(&number)),
        stored_payment_method_id: None,
        merchant: Arc::new(merchant()),
        parent: None,
        money: MoneyState {
            captured: 1000,
            ..MoneyState::default()
        },
    };
    state.ledger.insert(record.clone());
    record
}

fn persisted(dir: &std::path::Path) -> SandboxConfig {
    let file = StateFile::new(dir.join(STATE_FILE_NAME), dir.join(KEY_FILE_NAME)).expect("key");
    SandboxConfig {
        persistence: Some(Persistence::open(file).expect("opens")),
        ..SandboxConfig::default()
    }
}

/// Fills `state` with one of everything that persists; returns the stored card's token.
fn fill(state: &SandboxState) -> String {
    let number = CardNumber::parse(DIGITS).expect("valid");
    let expiry = Expiry::parse("05", "30", YearMonth::new(2026, 1).expect("valid")).expect("valid");
    record(state, Outcome::Approved);
    record(
        state,
        Outcome::Declined(Decline {
            response_code: 51,
            code: codes::ISSUER_DECLINED,
            reason: "insufficient funds".into(),
        }),
    );
    let token = state.tokens.store(
        &number,
        expiry,
        &snapshot_of(&number),
        OffsetDateTime::UNIX_EPOCH,
    );
    let terms = PlanTerms {
        name: "Monthly".into(),
        description: String::new(),
        cadence: Cadence {
            unit: CycleType::Monthly,
            interval: 1,
        },
        amount: 500,
        currency: "EUR".into(),
        max_cycle_count: 12,
        trial_days: Some(7),
        discount: None,
    };
    let context = CycleContext {
        token: token.clone(),
        currency: Currency::find("EUR").expect("known"),
        merchant: merchant(),
    };
    state.subscriptions.insert(Subscription::new(
        Uuid::new_v4(),
        terms,
        OffsetDateTime::UNIX_EPOCH,
        context,
    ));
    state.acs.open(AcsSession {
        transaction_id: Uuid::new_v4(),
        card: ChargeCard {
            behaviour: behaviour_of(DIGITS),
            number,
            expiry,
            snapshot: Arc::new(CardSnapshot {
                masked_number: "400000******3220".into(),
                ..snapshot_of(&CardNumber::parse(DIGITS).expect("valid"))
            }),
            token_used: None,
        },
        purpose: ChargePurpose::Payment,
        challenge: true,
        return_url: ReturnUrl {
            webhook_url: "http://127.0.0.1:1/hook".into(),
            success_url: "http://127.0.0.1:1/ok".into(),
            decline_url: "http://127.0.0.1:1/no".into(),
        },
        store_payment_method: true,
        webhook_faults: Vec::new(),
        decided: false,
    });
    state.clock.advance(time::Duration::days(40));
    token
}

#[tokio::test]
async fn a_restarted_emulator_has_what_the_last_one_saved() {
    let dir = tempfile::tempdir().expect("temp dir");
    let first = SandboxState::new(persisted(dir.path()));
    let keeper = StateKeeper::for_state(&first).expect("persistence configured");
    let token = fill(&first);
    let captured = crate::persist::StateSnapshot::capture(&first);
    assert!(
        !format!("{captured:?}").contains(DIGITS),
        "Debug stays masked"
    );
    keeper.finish().expect("saved");

    let sealed = std::fs::read(dir.path().join(STATE_FILE_NAME)).expect("state file");
    assert!(
        !sealed
            .windows(DIGITS.len())
            .any(|window| window == DIGITS.as_bytes())
    );

    let second = SandboxState::new(persisted(dir.path()));
    assert_eq!(second.ledger.len(), 2);
    assert_eq!(
        second.ledger.peek_next_reference(),
        first.ledger.peek_next_reference()
    );
    let before: Vec<_> = first
        .ledger
        .all()
        .iter()
        .map(|r| (r.id, r.reference, r.outcome.clone()))
        .collect();
    let after: Vec<_> = second
        .ledger
        .all()
        .iter()
        .map(|r| (r.id, r.reference, r.outcome.clone()))
        .collect();
    assert_eq!(before, after);
    let stored = second
        .tokens
        .get(&token)
        .expect("the stored card came back");
    assert_eq!(stored.number, CardNumber::parse(DIGITS).expect("valid"));
    assert_eq!(second.subscriptions.len(), 1);
    assert_eq!(second.acs.open_count(), 1);
    let (_, session) = second.acs.undecided().pop().expect("session");
    assert_eq!(session.card.behaviour, behaviour_of(DIGITS));
    assert_eq!(second.clock.offset(), time::Duration::days(40));
    assert!(second.ledger.next_reference() > first.ledger.all().last().expect("one").reference);
}

#[tokio::test]
async fn nothing_is_written_until_something_changes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let state = SandboxState::new(persisted(dir.path()));
    let keeper = StateKeeper::for_state(&state).expect("persistence configured");
    assert!(!keeper.save_now().expect("nothing to save"));
    assert!(!dir.path().join(STATE_FILE_NAME).exists());
    record(&state, Outcome::Approved);
    assert!(keeper.save_now().expect("saved"));
    assert!(!keeper.save_now().expect("already saved"));
}

#[tokio::test]
async fn the_background_task_saves_within_the_interval() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut config = persisted(dir.path());
    if let Some(persistence) = config.persistence.as_mut() {
        persistence.interval = std::time::Duration::from_millis(20);
    }
    let state = SandboxState::new(config);
    let _keeper = StateKeeper::for_state(&state).expect("persistence configured");
    record(&state, Outcome::Approved);
    let file = dir.path().join(STATE_FILE_NAME);
    for _ in 0..200 {
        if file.exists() {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    panic!("the state was not saved in the background");
}

#[test]
fn a_state_sealed_under_another_key_refuses_to_load() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join(STATE_FILE_NAME);
    let foreign = StateFile::with_key(
        path.clone(),
        dir.path().join("other.key"),
        crate::persist::SnapshotKey::generate(),
    );
    foreign.write(b"{}").expect("written");
    let ours = StateFile::new(path, dir.path().join(KEY_FILE_NAME)).expect("key");
    let error = Persistence::open(ours).expect_err("refused");
    assert!(error.to_string().contains(STATE_FILE_NAME), "{error}");
    assert!(
        error.to_string().contains("move the state file aside"),
        "{error}"
    );
}

#[test]
fn a_sealed_file_with_invalid_contents_names_the_field() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = StateFile::new(
        dir.path().join(STATE_FILE_NAME),
        dir.path().join(KEY_FILE_NAME),
    )
    .expect("key");
    file.write(br#"{"clock_offset_nanos":0,"next_reference":"x"}"#)
        .expect("written");
    let error = Persistence::open(file).expect_err("refused");
    assert!(error.to_string().contains("next_reference"), "{error}");
}

#[tokio::test]
async fn one_running_emulator_per_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let first = SandboxState::new(persisted(dir.path()));
    let keeper = StateKeeper::for_state(&first).expect("persistence configured");
    let file = StateFile::new(
        dir.path().join(STATE_FILE_NAME),
        dir.path().join(KEY_FILE_NAME),
    )
    .expect("key");
    let error = Persistence::open(file.clone()).expect_err("in use");
    assert!(
        matches!(error, crate::persist::PersistError::InUse { .. }),
        "{error}"
    );
    keeper.finish().expect("saved");
    Persistence::open(file).expect("free once the first has stopped");
}
