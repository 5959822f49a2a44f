//! Records kept in memory after they were written or read, so the browser calls that follow
//! (view, pay, result) need no database round trip to find them again.
//!
//! Only what cannot go stale in a way that matters is kept:
//! - checkout sessions, which are never updated or deleted once written;
//! - saved cards, whose use is re-checked in the database: a payment with a saved card is
//!   recorded only if the card still exists exactly as it was read (see
//!   `new_payment::INSERT_CLAIM`), so a card deleted or re-saved through another instance is
//!   never charged from a stale copy.
//!
//! Each kind holds at most a fixed number of records; the oldest entry goes first when full.
//! An instance that never saw a record reads it from the database, as before.

use std::collections::{HashMap, VecDeque};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// At most `capacity` records of one kind, by id.
pub(crate) struct Recent<V> {
    entries: Mutex<Entries<V>>,
    capacity: usize,
}

struct Entries<V> {
    by_id: HashMap<String, V>,
    /// Ids in the order they were first kept, oldest first.
    order: VecDeque<String>,
}

impl<V: Clone> Recent<V> {
    /// Keeps up to `capacity` records (0 keeps none).
    pub(crate) fn new(capacity: usize) -> Self {
        Self {
            entries: Mutex::new(Entries {
                by_id: HashMap::new(),
                order: VecDeque::new(),
            }),
            capacity,
        }
    }

    /// The record kept for `id`, if any.
    pub(crate) fn get(&self, id: &str) -> Option<V> {
        self.lock().by_id.get(id).cloned()
    }

    /// Keeps `value` as the record for `id`, replacing an older copy, and forgets the oldest
    /// record when more than the capacity would be kept.
    pub(crate) fn keep(&self, id: &str, value: V) {
        if self.capacity == 0 {
            return;
        }
        let mut entries = self.lock();
        if let Some(kept) = entries.by_id.get_mut(id) {
            *kept = value;
            return;
        }
        while entries.by_id.len() >= self.capacity {
            let Some(oldest) = entries.order.pop_front() else {
                break;
            };
            entries.by_id.remove(&oldest);
        }
        entries.by_id.insert(id.to_owned(), value);
        entries.order.push_back(id.to_owned());
    }

    /// Forgets the record for `id` (deleted, or found changed).
    pub(crate) fn forget(&self, id: &str) {
        let mut entries = self.lock();
        if entries.by_id.remove(id).is_some() {
            entries.order.retain(|kept| kept != id);
        }
    }

    fn lock(&self) -> MutexGuard<'_, Entries<V>> {
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_replaces_and_forgets() {
        let recent = Recent::new(4);
        assert_eq!(recent.get("a"), None);
        recent.keep("a", 1);
        recent.keep("a", 2);
        assert_eq!(recent.get("a"), Some(2));
        recent.forget("a");
        assert_eq!(recent.get("a"), None);
    }

    #[test]
    fn the_oldest_goes_first_when_full() {
        let recent = Recent::new(2);
        recent.keep("a", 1);
        recent.keep("b", 2);
        recent.keep("a", 3);
        recent.keep("c", 4);
        assert_eq!(recent.get("a"), None, "oldest by first keep");
        assert_eq!(recent.get("b"), Some(2));
        assert_eq!(recent.get("c"), Some(4));
    }

    #[test]
    fn forgotten_ids_leave_no_trace_in_the_order() {
        let recent = Recent::new(2);
        for round in 0..100 {
            recent.keep("x", round);
            recent.forget("x");
        }
        recent.keep("a", 1);
        recent.keep("b", 2);
        assert_eq!((recent.get("a"), recent.get("b")), (Some(1), Some(2)));
        assert!(recent.lock().order.len() <= 2);
    }

    #[test]
    fn capacity_zero_keeps_nothing() {
        let recent = Recent::new(0);
        recent.keep("a", 1);
        assert_eq!(recent.get("a"), None);
    }
}
