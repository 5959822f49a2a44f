//! Retry policy for safe reads: bounded attempts, exponential backoff with full jitter.
//!
//! Only `GET`s are retried (transaction status, subscription get and list): repeating them
//! cannot move money. They are retried on connect errors, timeouts, broken responses and
//! HTTP 429, 502, 503, 504.

use std::time::Duration;

use rand::Rng;

/// How often and how patiently safe reads are retried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Total attempts including the first (1 disables retries).
    pub max_attempts: u32,
    /// Upper bound of the first backoff; doubled after each failed attempt.
    pub initial_backoff: Duration,
    /// Cap on any single backoff (also caps a `Retry-After` hint).
    pub max_backoff: Duration,
}

impl Default for RetryPolicy {
    /// Three attempts, backoff up to 200 ms then 400 ms, never more than 2 s.
    fn default() -> Self {
        Self {
            max_attempts: 3,
            initial_backoff: Duration::from_millis(200),
            max_backoff: Duration::from_secs(2),
        }
    }
}

impl RetryPolicy {
    /// No retries at all.
    pub fn none() -> Self {
        Self {
            max_attempts: 1,
            ..Self::default()
        }
    }

    /// Whether another attempt may follow attempt number `attempt` (1-based).
    pub fn allows_another(&self, attempt: u32) -> bool {
        attempt < self.max_attempts.max(1)
    }

    /// The ceiling of the backoff after attempt number `attempt` (1-based):
    /// `initial_backoff * 2^(attempt-1)`, capped at `max_backoff`.
    pub fn ceiling(&self, attempt: u32) -> Duration {
        let doublings = attempt.saturating_sub(1).min(20);
        self.initial_backoff
            .saturating_mul(1u32 << doublings)
            .min(self.max_backoff)
    }

    /// The wait before the next attempt: a uniform random duration in `[0, ceiling]` ("full
    /// jitter"), or the server's `Retry-After` hint when given, capped at `max_backoff`.
    pub fn backoff(&self, attempt: u32, retry_after: Option<Duration>) -> Duration {
        if let Some(hint) = retry_after {
            return hint.min(self.max_backoff);
        }
        let ceiling = self.ceiling(attempt);
        let millis = u64::try_from(ceiling.as_millis()).unwrap_or(u64::MAX);
        Duration::from_millis(rand::rng().random_range(0..=millis))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ceilings_double_and_cap() {
        let policy = RetryPolicy {
            max_attempts: 6,
            initial_backoff: Duration::from_millis(100),
            max_backoff: Duration::from_millis(350),
        };
        let ceilings: Vec<_> = (1..=4).map(|a| policy.ceiling(a).as_millis()).collect();
        assert_eq!(ceilings, [100, 200, 350, 350]);
    }

    #[test]
    fn backoff_stays_within_ceiling() {
        let policy = RetryPolicy::default();
        for attempt in 1..=5 {
            for _ in 0..50 {
                assert!(policy.backoff(attempt, None) <= policy.ceiling(attempt));
            }
        }
    }

    #[test]
    fn retry_after_is_capped() {
        let policy = RetryPolicy::default();
        assert_eq!(
            policy.backoff(1, Some(Duration::from_secs(60))),
            policy.max_backoff
        );
        assert_eq!(
            policy.backoff(1, Some(Duration::from_millis(5))),
            Duration::from_millis(5)
        );
    }

    #[test]
    fn attempts_are_bounded() {
        let policy = RetryPolicy::default();
        assert!(policy.allows_another(1) && policy.allows_another(2));
        assert!(!policy.allows_another(3));
        assert!(!RetryPolicy::none().allows_another(1));
        let zero = RetryPolicy {
            max_attempts: 0,
            ..policy
        };
        assert!(!zero.allows_another(1));
    }
}
