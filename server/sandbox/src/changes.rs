//! A counter of changes to the state that persists: every store shares one, bumps it when it
//! changes something (one relaxed atomic add, the only cost persistence puts on a request),
//! and the [`StateKeeper`](crate::keeper::StateKeeper) writes the snapshot when it has moved.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Shared count of changes; clones count together.
#[derive(Debug, Clone, Default)]
pub struct ChangeCounter(Arc<AtomicU64>);

impl ChangeCounter {
    /// Records that something that persists has changed.
    pub fn mark(&self) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }

    /// How many changes were recorded so far.
    pub fn count(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}
