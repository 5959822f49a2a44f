//! Rate limits on the pay call, the card-testing defence: one token bucket per client IP and
//! one per checkout session, each holding `N` calls and refilling `N` per minute
//! (`PAY_RATE_LIMIT_PER_IP`, `PAY_RATE_LIMIT_PER_SESSION`). A call over either limit gets
//! 429 with `Retry-After` (whole seconds until a call would pass) and never reaches the
//! gateway. In memory, per instance: several instances each allow the configured rate.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use axum::extract::{ConnectInfo, Request, State};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::api::client_ip::client_ip;
use crate::api::error::ApiFailure;

/// One call's worth of tokens, in millionths (integer arithmetic, no drift).
const CALL: u128 = 1_000_000;
/// Keys kept before idle (full) buckets are dropped.
const PRUNE_ABOVE: usize = 10_000;
/// Least time between two prunes (a prune walks every key).
const PRUNE_EVERY: Duration = Duration::from_secs(1);

/// Token buckets by key, each of `capacity` calls refilled over `window`.
#[derive(Debug)]
pub struct TokenBuckets {
    capacity: u32,
    window: Duration,
    buckets: Mutex<Keyed>,
}

#[derive(Debug, Default)]
struct Keyed {
    buckets: HashMap<String, Bucket>,
    pruned_at: Option<Instant>,
}

#[derive(Debug, Clone, Copy)]
struct Bucket {
    /// Millionths of a call available at `at`.
    tokens: u128,
    at: Instant,
}

impl TokenBuckets {
    /// Buckets of `capacity` calls (at least 1), refilled at `capacity` per `window`.
    pub fn new(capacity: u32, window: Duration) -> Self {
        Self {
            capacity: capacity.max(1),
            window: window.max(Duration::from_millis(1)),
            buckets: Mutex::new(Keyed::default()),
        }
    }

    /// Takes one call from `key`'s bucket at `now`, or says how long until one is available.
    pub fn try_take(&self, key: &str, now: Instant) -> Result<(), Duration> {
        let full = u128::from(self.capacity) * CALL;
        let mut keyed = self.buckets.lock().unwrap_or_else(PoisonError::into_inner);
        let due = keyed
            .pruned_at
            .is_none_or(|at| now.saturating_duration_since(at) >= PRUNE_EVERY);
        if keyed.buckets.len() > PRUNE_ABOVE && due {
            keyed
                .buckets
                .retain(|_, bucket| self.refilled(*bucket, now) < full);
            keyed.pruned_at = Some(now);
        }
        let buckets = &mut keyed.buckets;
        let bucket = buckets.entry(key.to_owned()).or_insert(Bucket {
            tokens: full,
            at: now,
        });
        let tokens = self.refilled(*bucket, now);
        if tokens >= CALL {
            *bucket = Bucket {
                tokens: tokens - CALL,
                at: now,
            };
            return Ok(());
        }
        *bucket = Bucket { tokens, at: now };
        let missing = CALL - tokens;
        // missing / (capacity·CALL per window), in nanoseconds, rounded up.
        let window_ns = self.window.as_nanos();
        let wait_ns = (missing * window_ns).div_ceil(full);
        Err(Duration::from_nanos(
            u64::try_from(wait_ns).unwrap_or(u64::MAX),
        ))
    }

    fn refilled(&self, bucket: Bucket, now: Instant) -> u128 {
        let full = u128::from(self.capacity) * CALL;
        let elapsed = now.saturating_duration_since(bucket.at).as_nanos();
        let gained = elapsed.saturating_mul(full) / self.window.as_nanos();
        bucket.tokens.saturating_add(gained).min(full)
    }
}

/// The pay limits: per client IP and per session.
#[derive(Debug)]
pub struct PayLimits {
    per_ip: TokenBuckets,
    per_session: TokenBuckets,
    trusted_proxies: Vec<IpAddr>,
}

impl PayLimits {
    /// Limits of `per_ip` and `per_session` calls per minute; `trusted_proxies` decide whose
    /// `X-Forwarded-For` is believed (the same rule as the gateway's `customer_ip`).
    pub fn new(per_ip: u32, per_session: u32, trusted_proxies: Vec<IpAddr>) -> Self {
        let minute = Duration::from_secs(60);
        Self {
            per_ip: TokenBuckets::new(per_ip, minute),
            per_session: TokenBuckets::new(per_session, minute),
            trusted_proxies,
        }
    }
}

/// The session id of a pay call path (`/v1/checkout/{session_id}/pay`).
pub fn pay_session(path: &str) -> Option<&str> {
    let id = path.strip_prefix("/v1/checkout/")?.strip_suffix("/pay")?;
    (!id.is_empty() && !id.contains('/')).then_some(id)
}

/// Middleware: refuses pay calls over either limit with 429 and `Retry-After`.
pub async fn limit_pay(
    State(limits): State<Arc<PayLimits>>,
    request: Request,
    next: Next,
) -> Response {
    if request.method() != Method::POST {
        return next.run(request).await;
    }
    let Some(session) = pay_session(request.uri().path()).map(str::to_owned) else {
        return next.run(request).await;
    };
    let ip = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(peer)| {
            client_ip(peer.ip(), request.headers(), &limits.trusted_proxies).to_string()
        })
        .unwrap_or_else(|| "unknown".to_owned());
    let now = Instant::now();
    let verdict = limits
        .per_ip
        .try_take(&ip, now)
        .and_then(|()| limits.per_session.try_take(&session, now));
    match verdict {
        Ok(()) => next.run(request).await,
        Err(wait) => {
            tracing::warn!(session_id = %session, "pay call over the rate limit refused");
            let retry_after_secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
            ApiFailure::TooManyRequests {
                retry_after_secs: retry_after_secs.max(1),
            }
            .into_response()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_allows_its_capacity_then_refills_linearly() {
        let buckets = TokenBuckets::new(3, Duration::from_secs(60));
        let start = Instant::now();
        for _ in 0..3 {
            assert!(buckets.try_take("ip", start).is_ok());
        }
        let wait = buckets
            .try_take("ip", start)
            .expect_err("fourth call refused");
        assert_eq!(wait, Duration::from_secs(20));
        assert!(
            buckets.try_take("other", start).is_ok(),
            "keys are independent"
        );
        let later = start + Duration::from_secs(20);
        assert!(buckets.try_take("ip", later).is_ok());
        assert!(buckets.try_take("ip", later).is_err());
        let much_later = start + Duration::from_secs(3600);
        for _ in 0..3 {
            assert!(
                buckets.try_take("ip", much_later).is_ok(),
                "refill stops at capacity"
            );
        }
        assert!(buckets.try_take("ip", much_later).is_err());
    }

    #[test]
    fn idle_buckets_are_dropped_when_there_are_many() {
        let buckets = TokenBuckets::new(1, Duration::from_millis(10));
        let start = Instant::now();
        for n in 0..=PRUNE_ABOVE {
            assert!(buckets.try_take(&format!("ip-{n}"), start).is_ok());
        }
        let later = start + Duration::from_secs(2);
        assert!(buckets.try_take("newcomer", later).is_ok());
        let keyed = buckets.buckets.lock().expect("lock");
        assert_eq!(keyed.buckets.len(), 1, "refilled buckets are forgotten");
    }

    #[test]
    fn finds_the_session_of_pay_paths_only() {
        assert_eq!(pay_session("/v1/checkout/abc/pay"), Some("abc"));
        assert_eq!(pay_session("/v1/checkout/abc/result"), None);
        assert_eq!(pay_session("/v1/checkout//pay"), None);
        assert_eq!(pay_session("/v1/checkout/a/b/pay"), None);
    }
}
