//! The velocity risk rule: the same card used more than twice within ten minutes of the
//! sandbox clock is rejected (`ERR3010`, response code -8009). Cards are remembered by a keyed
//! hash of their digits, never by the digits themselves.

use std::collections::hash_map::RandomState;
use std::collections::{HashMap, VecDeque};
use std::hash::BuildHasher;
use std::sync::{Mutex, MutexGuard, PoisonError};

use time::{Duration, OffsetDateTime};

/// The window uses are counted in.
pub const VELOCITY_WINDOW: Duration = Duration::minutes(10);
/// Uses allowed within the window; the next one is rejected.
pub const VELOCITY_LIMIT: usize = 2;

/// Recent uses per card.
#[derive(Debug, Default)]
pub struct VelocityTracker {
    keys: RandomState,
    uses: Mutex<HashMap<u64, VecDeque<OffsetDateTime>>>,
}

impl VelocityTracker {
    /// Records a use of the card with these digits at `now` and says whether it is allowed:
    /// false when [`VELOCITY_LIMIT`] uses already fall within the [`VELOCITY_WINDOW`] before it.
    /// Rejected uses count too, as a real risk engine sees every attempt.
    pub fn record_use(&self, card_digits: &str, now: OffsetDateTime) -> bool {
        let key = self.keys.hash_one(card_digits);
        let mut uses = self.lock();
        let history = uses.entry(key).or_default();
        while history
            .front()
            .is_some_and(|&used| now - used >= VELOCITY_WINDOW)
        {
            history.pop_front();
        }
        let allowed = history.len() < VELOCITY_LIMIT;
        history.push_back(now);
        allowed
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<u64, VecDeque<OffsetDateTime>>> {
        // Each edit completes under the guard; a poisoned map is still consistent.
        self.uses.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn third_use_within_ten_minutes_is_rejected() {
        let tracker = VelocityTracker::default();
        let start = OffsetDateTime::UNIX_EPOCH;
        assert!(tracker.record_use("4000000000006975", start));
        assert!(tracker.record_use("4000000000006975", start + Duration::minutes(1)));
        assert!(!tracker.record_use("4000000000006975", start + Duration::minutes(2)));
        assert!(tracker.record_use("4242424242424242", start + Duration::minutes(2)));
    }

    #[test]
    fn uses_older_than_the_window_are_forgotten() {
        let tracker = VelocityTracker::default();
        let start = OffsetDateTime::UNIX_EPOCH;
        assert!(tracker.record_use("4000000000006975", start));
        assert!(tracker.record_use("4000000000006975", start + Duration::minutes(5)));
        assert!(tracker.record_use("4000000000006975", start + Duration::minutes(11)));
        assert!(!tracker.record_use("4000000000006975", start + Duration::minutes(12)));
    }
}
