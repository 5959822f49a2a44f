//! The emulator's subscription store: every subscription by id, in creation order, behind one
//! mutex so that an operation and a billing run on the same subscription never interleave.
//!
//! Closures run under the lock; they must not touch the book again (they may charge cards:
//! the charge path never reads subscriptions). A poisoned lock is recovered, not propagated:
//! every mutation of a subscription is applied completely or not at all.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use uuid::Uuid;

use super::subscription::Subscription;
use crate::changes::ChangeCounter;

/// Shared, cloneable map of subscriptions keyed by id; lists in creation order.
#[derive(Debug)]
pub struct Book<C> {
    inner: Arc<Mutex<Entries<C>>>,
    changes: ChangeCounter,
}

#[derive(Debug)]
struct Entries<C> {
    index: HashMap<Uuid, usize>,
    in_creation_order: Vec<Subscription<C>>,
}

impl<C> Default for Book<C> {
    fn default() -> Self {
        Self {
            inner: Arc::new(Mutex::new(Entries {
                index: HashMap::new(),
                in_creation_order: Vec::new(),
            })),
            changes: ChangeCounter::default(),
        }
    }
}

impl<C> Clone for Book<C> {
    fn clone(&self) -> Self {
        Self {
            inner: Arc::clone(&self.inner),
            changes: self.changes.clone(),
        }
    }
}

impl<C> Book<C> {
    /// An empty book whose changes count in `changes`. Every [`Book::insert`], [`Book::with`]
    /// and [`Book::map_all`] counts as a change: their closures may change what they are given.
    pub fn with_changes(changes: ChangeCounter) -> Self {
        Self {
            changes,
            ..Self::default()
        }
    }

    /// Stores a new subscription. Returns `false` (and stores nothing) if its id is taken.
    pub fn insert(&self, subscription: Subscription<C>) -> bool {
        let mut entries = self.lock();
        let id = subscription.id();
        if entries.index.contains_key(&id) {
            return false;
        }
        let position = entries.in_creation_order.len();
        entries.in_creation_order.push(subscription);
        entries.index.insert(id, position);
        self.changes.mark();
        true
    }

    /// Runs `f` on the subscription `id` under the lock; `None` if there is none.
    pub fn with<R>(&self, id: Uuid, f: impl FnOnce(&mut Subscription<C>) -> R) -> Option<R> {
        let mut entries = self.lock();
        let position = *entries.index.get(&id)?;
        self.changes.mark();
        entries.in_creation_order.get_mut(position).map(f)
    }

    /// Runs `f` on every subscription, in creation order, under one lock.
    pub fn map_all<R>(&self, f: impl FnMut(&mut Subscription<C>) -> R) -> Vec<R> {
        let all: Vec<R> = self.lock().in_creation_order.iter_mut().map(f).collect();
        self.changes.mark();
        all
    }

    /// A copy of every subscription, in creation order (for the state file).
    pub fn all(&self) -> Vec<Subscription<C>>
    where
        C: Clone,
    {
        self.lock().in_creation_order.clone()
    }

    /// How many subscriptions are stored.
    pub fn len(&self) -> usize {
        self.lock().in_creation_order.len()
    }

    /// Whether none is stored.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> MutexGuard<'_, Entries<C>> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::super::cadence::{Cadence, CycleType};
    use super::super::status::{Operation, SubscriptionStatus};
    use super::super::terms::PlanTerms;
    use super::*;
    use time::macros::datetime;

    fn subscription(name: &str) -> Subscription<()> {
        let terms = PlanTerms {
            name: name.into(),
            description: String::new(),
            cadence: Cadence {
                unit: CycleType::Days,
                interval: 7,
            },
            amount: 500,
            currency: "USD".into(),
            max_cycle_count: 2,
            trial_days: None,
            discount: None,
        };
        Subscription::new(
            Uuid::new_v4(),
            terms,
            datetime!(2025-01-01 00:00:00 UTC),
            (),
        )
    }

    #[test]
    fn lists_in_creation_order_and_finds_by_id() {
        let book = Book::default();
        let names = ["a", "b", "c", "d", "e"];
        let ids: Vec<Uuid> = names
            .iter()
            .map(|name| {
                let sub = subscription(name);
                let id = sub.id();
                assert!(book.insert(sub));
                id
            })
            .collect();
        assert_eq!(book.len(), 5);
        let listed = book.map_all(|sub| sub.terms().name.clone());
        assert_eq!(listed, names);
        assert_eq!(
            book.with(ids[3], |sub| sub.terms().name.clone()),
            Some("d".into())
        );
        assert_eq!(book.with(Uuid::new_v4(), |sub| sub.id()), None);
    }

    #[test]
    fn a_duplicate_id_is_refused() {
        let book = Book::default();
        let sub = subscription("x");
        let twin = sub.clone();
        assert!(book.insert(sub));
        assert!(!book.insert(twin));
        assert_eq!(book.len(), 1);
    }

    #[test]
    fn clones_share_state_across_threads() {
        let book: Book<()> = Book::default();
        assert!(book.is_empty());
        let handles: Vec<_> = (0..8)
            .map(|_| {
                let book = book.clone();
                std::thread::spawn(move || {
                    let sub = subscription("t");
                    let id = sub.id();
                    book.insert(sub);
                    book.with(id, |sub| {
                        sub.apply(Operation::Pause, datetime!(2025-01-02 00:00:00 UTC))
                    })
                })
            })
            .collect();
        for handle in handles {
            let paused = handle.join().expect("thread");
            assert_eq!(paused, Some(Ok(SubscriptionStatus::Paused)));
        }
        assert_eq!(book.len(), 8);
    }
}
