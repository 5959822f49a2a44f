//! When a failed delivery is tried again: exponential backoff with jitter (5 s, 5 min, 30 min,
//! 2 h, 5 h, 10 h, then every 10 h, each ±20 %), for [`RETRY_FOR`] after the delivery was
//! created; the attempt at or after that is the last ([`DeliveryOutcome::GiveUp`], the
//! delivery failed). An endpoint every attempt to which has failed for [`DISABLE_AFTER`] is
//! disabled. Pure functions of the clock they are given, so tests move time freely.

use rand::Rng as _;
use time::{Duration, OffsetDateTime};

use crate::store::model::DeliveryOutcome;

/// How long a delivery is retried after it was created.
pub const RETRY_FOR: Duration = Duration::days(3);

/// How long an endpoint may fail every attempt before it is disabled.
pub const DISABLE_AFTER: Duration = Duration::days(3);

/// The waits after the first, second, … failed attempt; the last repeats.
pub const DELAYS: [Duration; 6] = [
    Duration::seconds(5),
    Duration::minutes(5),
    Duration::minutes(30),
    Duration::hours(2),
    Duration::hours(5),
    Duration::hours(10),
];

/// The largest jitter, as a fraction of the wait (either way).
pub const JITTER: f64 = 0.2;

/// A random jitter in `-JITTER..=JITTER`.
pub fn jitter() -> f64 {
    rand::rng().random_range(-JITTER..=JITTER)
}

/// The wait after the `failures`-th failed attempt (1 for the first), before jitter.
pub fn delay(failures: u32) -> Duration {
    let index = usize::try_from(failures.saturating_sub(1)).unwrap_or(usize::MAX);
    DELAYS
        .get(index)
        .copied()
        .unwrap_or(DELAYS[DELAYS.len() - 1])
}

/// What becomes of a delivery created at `created_at` whose `failures`-th attempt failed at
/// `now`: tried again after [`delay`] moved by `jitter` (a fraction, clamped to ±[`JITTER`]),
/// but never later than the end of its retries; given up once that end has come.
pub fn after_failure(
    failures: u32,
    created_at: OffsetDateTime,
    now: OffsetDateTime,
    jitter: f64,
) -> DeliveryOutcome {
    let deadline = created_at.saturating_add(RETRY_FOR);
    if now >= deadline {
        return DeliveryOutcome::GiveUp;
    }
    let jitter = if jitter.is_finite() {
        jitter.clamp(-JITTER, JITTER)
    } else {
        0.0
    };
    // Within 10 h ± 20 %: far inside i64 milliseconds (the cast saturates besides).
    let millis = (delay(failures).whole_milliseconds() as f64 * (1.0 + jitter)).round() as i64;
    let wait = Duration::milliseconds(millis).max(Duration::SECOND);
    DeliveryOutcome::RetryAt(now.saturating_add(wait).min(deadline))
}

/// Whether an endpoint failing since `failing_since` is to be disabled after a failure at
/// `now`.
pub fn disable(failing_since: Option<OffsetDateTime>, now: OffsetDateTime) -> bool {
    failing_since.is_some_and(|since| now - since >= DISABLE_AFTER)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(seconds: i64) -> OffsetDateTime {
        OffsetDateTime::UNIX_EPOCH + Duration::seconds(1_700_000_000 + seconds)
    }

    #[test]
    fn waits_grow_then_repeat() {
        let waits: Vec<i64> = (1..=8).map(|n| delay(n).whole_seconds()).collect();
        assert_eq!(
            waits,
            [5, 300, 1_800, 7_200, 18_000, 36_000, 36_000, 36_000]
        );
        assert_eq!(delay(0), Duration::seconds(5));
        assert_eq!(delay(u32::MAX), Duration::hours(10));
    }

    #[test]
    fn jitter_moves_a_wait_by_at_most_a_fifth() {
        let created = at(0);
        for (jitter, expected) in [(0.0, 300), (0.2, 360), (-0.2, 240), (5.0, 360)] {
            assert_eq!(
                after_failure(2, created, created, jitter),
                DeliveryOutcome::RetryAt(created + Duration::seconds(expected)),
                "{jitter}"
            );
        }
        assert_eq!(
            after_failure(1, created, created, f64::NAN),
            DeliveryOutcome::RetryAt(created + Duration::seconds(5))
        );
        for _ in 0..1_000 {
            assert!(jitter().abs() <= JITTER);
        }
    }

    #[test]
    fn retries_last_three_days_then_give_up() {
        let created = at(0);
        let mut now = created;
        let mut failures = 0;
        loop {
            failures += 1;
            match after_failure(failures, created, now, 0.0) {
                DeliveryOutcome::RetryAt(next) => {
                    assert!(next > now && next <= created + RETRY_FOR);
                    now = next;
                }
                DeliveryOutcome::GiveUp => break,
                DeliveryOutcome::Delivered => unreachable!(),
            }
        }
        assert_eq!(now, created + RETRY_FOR, "the last attempt is at the end");
        assert!((10..=16).contains(&failures), "{failures} attempts");
    }

    #[test]
    fn an_endpoint_failing_for_three_days_is_disabled() {
        assert!(!disable(None, at(0)));
        assert!(!disable(Some(at(0)), at(0) + Duration::days(2)));
        assert!(disable(Some(at(0)), at(0) + Duration::days(3)));
    }
}
