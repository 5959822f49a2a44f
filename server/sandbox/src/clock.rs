//! The emulator's clock: real time plus an offset that tests move forward.
//!
//! Every timestamp the emulator writes (transactions, webhooks, subscription billing, velocity
//! windows) comes from here, so `POST /sandbox/clock/advance` moves all of them together.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use time::{Duration, OffsetDateTime};

/// Real UTC time shifted by an offset that only grows. Cheap to clone (one `Arc`) and to read
/// (one atomic load).
#[derive(Debug, Clone, Default)]
pub struct SandboxClock {
    offset_nanos: Arc<AtomicI64>,
}

impl SandboxClock {
    /// A clock showing real time (offset zero).
    pub fn new() -> Self {
        Self::default()
    }

    /// The emulator's current time: `OffsetDateTime::now_utc()` plus the accumulated offset.
    pub fn now(&self) -> OffsetDateTime {
        let offset = Duration::nanoseconds(self.offset_nanos.load(Ordering::Relaxed));
        OffsetDateTime::now_utc().saturating_add(offset)
    }

    /// Moves the clock forward by `by`. A negative duration is ignored: the emulator's time
    /// never goes backwards, because billing and velocity windows assume it does not.
    /// The offset saturates at about 292 years.
    pub fn advance(&self, by: Duration) {
        if by.is_negative() {
            return;
        }
        let nanos = i64::try_from(by.whole_nanoseconds()).unwrap_or(i64::MAX);
        let _ = self
            .offset_nanos
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |current| {
                Some(current.saturating_add(nanos))
            });
    }

    /// How far the clock has been moved ahead of real time.
    pub fn offset(&self) -> Duration {
        Duration::nanoseconds(self.offset_nanos.load(Ordering::Relaxed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starts_at_real_time() {
        let clock = SandboxClock::new();
        let drift = (clock.now() - OffsetDateTime::now_utc()).abs();
        assert!(drift < Duration::seconds(1), "drift {drift}");
        assert_eq!(clock.offset(), Duration::ZERO);
    }

    #[test]
    fn advance_moves_every_clone() {
        let clock = SandboxClock::new();
        let other = clock.clone();
        clock.advance(Duration::days(3));
        let ahead = other.now() - OffsetDateTime::now_utc();
        assert!(
            ahead > Duration::days(3) - Duration::seconds(1),
            "ahead {ahead}"
        );
        assert!(
            ahead < Duration::days(3) + Duration::seconds(1),
            "ahead {ahead}"
        );
        assert_eq!(other.offset(), Duration::days(3));
    }

    #[test]
    fn negative_advance_is_ignored() {
        let clock = SandboxClock::new();
        clock.advance(Duration::hours(1));
        clock.advance(Duration::hours(-5));
        assert_eq!(clock.offset(), Duration::hours(1));
    }

    #[test]
    fn huge_advance_saturates() {
        let clock = SandboxClock::new();
        clock.advance(Duration::MAX);
        clock.advance(Duration::MAX);
        assert_eq!(clock.offset(), Duration::nanoseconds(i64::MAX));
        // Reading must not panic even at the saturated offset.
        let _ = clock.now();
    }
}
