//! A keyed `governor` rate limit whose memory is bounded: at most `cap` keys. When the map is
//! full its idle keys (limits refilled, so forgetting them changes nothing) are dropped, at
//! most once per [`PRUNE_EVERY`]; new keys that still find no room share one overflow limit.
//! Used by the pay call's limits ([`super::rate_limit`]) and the return page's lookup budget
//! ([`super::lookup_budget`]).

use std::hash::Hash;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use governor::clock::{Clock, DefaultClock, Reference};
use governor::middleware::NoOpMiddleware;
use governor::nanos::Nanos;
use governor::state::keyed::{HashMapStateStore, ShrinkableKeyedStateStore};
use governor::state::{InMemoryState, NotKeyed, StateStore};
use governor::{Quota, RateLimiter};

/// Least time between two prunes (a prune walks every key).
const PRUNE_EVERY: Duration = Duration::from_secs(1);

/// A `governor` state store of at most `cap` keys.
///
/// A new key that finds the map full shares `overflow` with every other such key; it never
/// evicts a tracked one. Eviction would let a client whose limit is spent flush its own key
/// by calling under throwaway keys (fresh session ids, other /64s) and come back with a full
/// limit; sharing only throttles the newcomers together, while every tracked key keeps its
/// state until it has refilled and pruning may drop it.
#[derive(Debug)]
struct CappedStore<K: Hash + Eq> {
    keys: HashMapStateStore<K>,
    overflow: InMemoryState,
    cap: usize,
}

impl<K: Hash + Eq + Clone> StateStore for CappedStore<K> {
    type Key = K;

    fn measure_and_replace<T, F, E>(&self, key: &K, f: F) -> Result<T, E>
    where
        F: Fn(Option<Nanos>) -> Result<(T, Nanos), E>,
    {
        let mut keys = self.keys.lock();
        if let Some(state) = keys.get(key) {
            return state.measure_and_replace(&NotKeyed::NonKey, f);
        }
        if keys.len() < self.cap {
            let state = keys.entry(key.clone()).or_default();
            return state.measure_and_replace(&NotKeyed::NonKey, f);
        }
        self.overflow.measure_and_replace(&NotKeyed::NonKey, f)
    }
}

impl<K: Hash + Eq + Clone> ShrinkableKeyedStateStore<K> for CappedStore<K> {
    fn retain_recent(&self, drop_below: Nanos) {
        self.keys.retain_recent(drop_below);
    }

    fn len(&self) -> usize {
        ShrinkableKeyedStateStore::len(&self.keys)
    }

    fn is_empty(&self) -> bool {
        ShrinkableKeyedStateStore::is_empty(&self.keys)
    }
}

/// A keyed `governor` limit of `quota` over at most `cap` keys.
#[derive(Debug)]
pub struct CappedLimit<K: Hash + Eq + Clone, C: Clock = DefaultClock> {
    governor: RateLimiter<K, CappedStore<K>, C, NoOpMiddleware<C::Instant>>,
    cap: usize,
    pruned_at: Mutex<Option<C::Instant>>,
}

impl<K: Hash + Eq + Clone, C: Clock> CappedLimit<K, C> {
    /// A limit of `quota` per key, holding at most `cap` keys, on `clock`.
    pub fn new(quota: Quota, cap: usize, clock: C) -> Self {
        let store = CappedStore {
            keys: HashMapStateStore::default(),
            overflow: InMemoryState::default(),
            cap,
        };
        Self {
            governor: RateLimiter::new(quota, store, clock),
            cap,
            pruned_at: Mutex::new(None),
        }
    }

    /// Takes one call from `key`'s limit, or says how long until one is available.
    pub fn check(&self, key: &K) -> Result<(), Duration> {
        self.prune_when_full();
        self.governor
            .check_key(key)
            .map_err(|refused| refused.wait_time_from(self.governor.clock().now()))
    }

    /// Drops idle keys when the map is full, at most once per [`PRUNE_EVERY`].
    fn prune_when_full(&self) {
        if self.governor.len() < self.cap {
            return;
        }
        let now = self.governor.clock().now();
        let mut pruned_at = self
            .pruned_at
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let due = pruned_at.is_none_or(|at| Duration::from(now.duration_since(at)) >= PRUNE_EVERY);
        if due {
            self.governor.retain_recent();
            *pruned_at = Some(now);
        }
    }

    /// Keys held (at most `cap`).
    pub fn len(&self) -> usize {
        self.governor.len()
    }

    /// Whether no key is held.
    pub fn is_empty(&self) -> bool {
        self.governor.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use std::num::NonZeroU32;

    use governor::clock::FakeRelativeClock;

    use super::*;

    fn per_minute(calls: u32) -> Quota {
        Quota::per_minute(NonZeroU32::new(calls).expect("non-zero"))
    }

    #[test]
    fn a_limit_allows_its_burst_then_refills_linearly() {
        let clock = FakeRelativeClock::default();
        let limiter = CappedLimit::new(per_minute(3), 100_000, clock.clone());
        for _ in 0..3 {
            assert!(limiter.check(&"ip").is_ok());
        }
        let wait = limiter.check(&"ip").expect_err("fourth call refused");
        assert_eq!(wait, Duration::from_secs(20));
        assert!(limiter.check(&"other").is_ok(), "keys are independent");
        clock.advance(Duration::from_secs(20));
        assert!(limiter.check(&"ip").is_ok());
        assert!(limiter.check(&"ip").is_err());
        clock.advance(Duration::from_secs(3600));
        for _ in 0..3 {
            assert!(limiter.check(&"ip").is_ok(), "refill stops at the burst");
        }
        assert!(limiter.check(&"ip").is_err());
    }

    #[test]
    fn a_full_map_drops_idle_keys_and_never_evicts_a_spent_one() {
        let clock = FakeRelativeClock::default();
        let limiter = CappedLimit::new(per_minute(1), 3, clock.clone());
        assert!(limiter.check(&"spent").is_ok());
        clock.advance(Duration::from_secs(59));
        for key in ["b", "c"] {
            assert!(limiter.check(&key).is_ok());
        }
        assert!(limiter.check(&"new-1").is_ok(), "the overflow limit");
        assert!(
            limiter.check(&"new-2").is_err(),
            "newcomers share the overflow limit"
        );
        assert_eq!(limiter.len(), 3, "a full map does not grow");
        assert!(limiter.check(&"spent").is_err(), "not evicted: still spent");
        // `spent` refilled at 60 s and is idle a period later; `b` and `c` are not yet.
        clock.advance(Duration::from_secs(66));
        assert!(limiter.check(&"new-3").is_ok());
        assert!(
            limiter.check(&"new-3").is_err(),
            "new-3 took `spent`'s place"
        );
        assert_eq!(limiter.len(), 3);
    }
}
