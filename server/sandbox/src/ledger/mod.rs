//! Every transaction the emulator has recorded, by id, safe under concurrent requests.
//!
//! One mutex guards the map: each operation holds it for a hash-map lookup or insert, so
//! contention stays low at thousands of payments per second. Capture, refund and void check
//! and change the original and record their own transaction under one lock (see [`adjust`]).

pub mod adjust;
mod record;
mod summary;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

use uuid::Uuid;

use crate::changes::ChangeCounter;

pub use record::{
    Decline, GatewayCode, MerchantContext, MoneyState, Outcome, PENDING_CODE,
    PENDING_RESPONSE_CODE, RecordKind, TransactionRecord, auth_code_for,
};
pub use summary::{CAPTURE_OK, PAYMENT_OK, REFUND_OK, StateSummary, VOID_OK};

/// First `ref` handed out; refs increase by one per transaction.
const FIRST_REFERENCE: u64 = 100_001;

/// The transaction store.
#[derive(Debug)]
pub struct Ledger {
    records: Mutex<HashMap<Uuid, TransactionRecord>>,
    next_reference: AtomicU64,
    changes: ChangeCounter,
}

impl Default for Ledger {
    fn default() -> Self {
        Self {
            records: Mutex::new(HashMap::new()),
            next_reference: AtomicU64::new(FIRST_REFERENCE),
            changes: ChangeCounter::default(),
        }
    }
}

impl Ledger {
    /// An empty ledger whose changes count in `changes`.
    pub fn with_changes(changes: ChangeCounter) -> Self {
        Self {
            changes,
            ..Self::default()
        }
    }

    /// Puts restored transactions back and continues the references at `next_reference`
    /// (never below what this ledger has handed out already).
    pub fn restore(
        &self,
        records: impl IntoIterator<Item = TransactionRecord>,
        next_reference: u64,
    ) {
        self.lock()
            .extend(records.into_iter().map(|record| (record.id, record)));
        self.next_reference
            .fetch_max(next_reference, Ordering::Relaxed);
        self.changes.mark();
    }

    /// The reference the next transaction will get, without taking it.
    pub fn peek_next_reference(&self) -> u64 {
        self.next_reference.load(Ordering::Relaxed)
    }

    /// The next transaction reference (strictly increasing).
    pub fn next_reference(&self) -> u64 {
        self.next_reference.fetch_add(1, Ordering::Relaxed)
    }

    /// Records a transaction.
    pub fn insert(&self, record: TransactionRecord) {
        self.lock().insert(record.id, record);
        self.changes.mark();
    }

    /// A copy of the transaction with this id.
    pub fn get(&self, id: &Uuid) -> Option<TransactionRecord> {
        self.lock().get(id).cloned()
    }

    /// Changes the transaction with this id under the lock; `None` when there is none.
    pub fn update<R>(
        &self,
        id: &Uuid,
        change: impl FnOnce(&mut TransactionRecord) -> R,
    ) -> Option<R> {
        let changed = self.lock().get_mut(id).map(change);
        self.changes.mark();
        changed
    }

    /// Every transaction, oldest first (for the state dump).
    pub fn all(&self) -> Vec<TransactionRecord> {
        let mut records: Vec<TransactionRecord> = self.lock().values().cloned().collect();
        records.sort_by_key(|record| record.reference);
        records
    }

    /// Number of recorded transactions.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// True before the first transaction.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<Uuid, TransactionRecord>> {
        // Every change is a single insert or an edit completed before the guard drops, so a
        // panic elsewhere cannot leave a half-written map: recover from poisoning.
        self.records.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
