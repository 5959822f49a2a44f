//! Rate limits on the pay call, the card-testing defence: one `governor` limiter keyed by
//! client and one keyed by checkout session, each allowing `N` calls at once and `N` more per
//! minute (`PAY_RATE_LIMIT_PER_IP`, `PAY_RATE_LIMIT_PER_SESSION`). A call over either limit
//! gets 429 with `Retry-After` (whole seconds until a call would pass) and never reaches the
//! gateway. In memory, per instance: several instances each allow the configured rate.
//!
//! Keys are 16 bytes, worked out before anything is stored, so that other spellings of one
//! client or session cannot buy fresh limits:
//! - the client is its IPv4 address, or the /64 network of its IPv6 address (2^64 addresses
//!   usually handed to one subscriber, so one attacker);
//! - the session is its id percent-decoded as axum's `Path` extractor decodes it, and only in
//!   the form the server issues (a lower-case hyphenated UUID, `store::model::new_session_id`).
//!   A path with any other id takes no session limit (the client limit still applies): the
//!   handler finds no such session and refuses it as it always has.
//!
//! Memory is bounded: each map holds at most [`MAX_KEYS`] = 100,000 keys. An entry is 24
//! bytes (16-byte key, 8-byte limiter state) plus one control byte, and 100,000 keys fit the
//! hash table's 131,072 slots: at most 131,072 × 25 B ≈ 3.3 MB per map, 6.6 MB for both.
//! When a map is full its idle keys (limits refilled, so forgetting them changes nothing) are
//! dropped, at most once a second; new keys that still find no room share one overflow limit.

use std::hash::Hash;
use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::clock::{Clock, DefaultClock, Reference};
use governor::middleware::NoOpMiddleware;
use governor::nanos::Nanos;
use governor::state::keyed::{HashMapStateStore, ShrinkableKeyedStateStore};
use governor::state::{InMemoryState, NotKeyed, StateStore};
use governor::{Quota, RateLimiter};
use percent_encoding::percent_decode_str;
use uuid::Uuid;

use crate::api::client_ip::client_ip;
use crate::api::error::ApiFailure;

/// Keys one limiter holds at most.
pub const MAX_KEYS: usize = 100_000;
/// Least time between two prunes (a prune walks every key).
const PRUNE_EVERY: Duration = Duration::from_secs(1);
/// Longest path segment that can spell a session id: 36 characters, each percent-escaped.
const MAX_SEGMENT: usize = 36 * 3;
/// The client key of a call without a peer address (no `ConnectInfo`). Neither an IPv4-mapped
/// address nor a /64 (whose last 8 bytes are zero), so no client shares it.
const UNKNOWN_CLIENT: [u8; 16] = [0xff; 16];

/// A client: its IPv4 address (as `::ffff:a.b.c.d`, whose last 8 bytes are never all zero)
/// or its IPv6 /64 (the last 8 bytes zeroed).
type ClientKey = [u8; 16];

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

/// A keyed limit of `per_minute` calls (a burst of as many) over at most `cap` keys.
#[derive(Debug)]
struct Limiter<K: Hash + Eq + Clone, C: Clock = DefaultClock> {
    governor: RateLimiter<K, CappedStore<K>, C, NoOpMiddleware<C::Instant>>,
    cap: usize,
    pruned_at: Mutex<Option<C::Instant>>,
}

impl<K: Hash + Eq + Clone, C: Clock> Limiter<K, C> {
    fn new(per_minute: u32, cap: usize, clock: C) -> Self {
        let burst = NonZeroU32::new(per_minute).unwrap_or(NonZeroU32::MIN);
        let store = CappedStore {
            keys: HashMapStateStore::default(),
            overflow: InMemoryState::default(),
            cap,
        };
        Self {
            governor: RateLimiter::new(Quota::per_minute(burst), store, clock),
            cap,
            pruned_at: Mutex::new(None),
        }
    }

    /// Takes one call from `key`'s limit, or says how long until one is available.
    fn check(&self, key: &K) -> Result<(), Duration> {
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

    fn len(&self) -> usize {
        self.governor.len()
    }
}

/// The pay limits: per client and per session.
#[derive(Debug)]
pub struct PayLimits {
    per_client: Limiter<ClientKey>,
    per_session: Limiter<Uuid>,
    trusted_proxies: Vec<IpAddr>,
}

impl PayLimits {
    /// Limits of `per_ip` and `per_session` calls per minute; `trusted_proxies` decide whose
    /// `X-Forwarded-For` is believed (the same rule as the gateway's `customer_ip`).
    pub fn new(per_ip: u32, per_session: u32, trusted_proxies: Vec<IpAddr>) -> Self {
        Self {
            per_client: Limiter::new(per_ip, MAX_KEYS, DefaultClock::default()),
            per_session: Limiter::new(per_session, MAX_KEYS, DefaultClock::default()),
            trusted_proxies,
        }
    }

    /// Takes one pay call from `client`'s limit and then, when the call names one, from
    /// `session`'s; or says how long until the refusing limit allows a call.
    pub fn take(&self, client: Option<IpAddr>, session: Option<Uuid>) -> Result<(), Duration> {
        self.per_client.check(&client_key(client))?;
        session.map_or(Ok(()), |session| self.per_session.check(&session))
    }

    /// Keys held: `(clients, sessions)`, each at most [`MAX_KEYS`].
    pub fn tracked_keys(&self) -> (usize, usize) {
        (self.per_client.len(), self.per_session.len())
    }
}

/// The client key of `client`: IPv4 addresses whole, IPv6 ones by their /64.
fn client_key(client: Option<IpAddr>) -> ClientKey {
    match client {
        Some(IpAddr::V4(v4)) => v4.to_ipv6_mapped().octets(),
        Some(IpAddr::V6(v6)) => {
            let mut key = v6.octets();
            key[8..].fill(0);
            key
        }
        None => UNKNOWN_CLIENT,
    }
}

/// The session id segment of a pay call path (`/v1/checkout/{session_id}/pay`), as sent.
pub fn pay_segment(path: &str) -> Option<&str> {
    let id = path.strip_prefix("/v1/checkout/")?.strip_suffix("/pay")?;
    (!id.is_empty() && !id.contains('/')).then_some(id)
}

/// The session a path segment names: percent-decoded like axum's `Path`, and `None` unless
/// it is a session id as the server issues them (a lower-case hyphenated UUID).
pub fn session_key(segment: &str) -> Option<Uuid> {
    if segment.len() > MAX_SEGMENT {
        return None;
    }
    let id = percent_decode_str(segment).decode_utf8().ok()?;
    let uuid = Uuid::try_parse(&id).ok()?;
    let mut canonical = Uuid::encode_buffer();
    (*uuid.hyphenated().encode_lower(&mut canonical) == *id).then_some(uuid)
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
    let Some(session) = pay_segment(request.uri().path()).map(session_key) else {
        return next.run(request).await;
    };
    let client = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(peer)| client_ip(peer.ip(), request.headers(), &limits.trusted_proxies));
    match limits.take(client, session) {
        Ok(()) => next.run(request).await,
        Err(wait) => {
            tracing::warn!(
                session_id = session.map(tracing::field::display),
                "pay call over the rate limit refused"
            );
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
    use std::net::Ipv6Addr;

    use governor::clock::FakeRelativeClock;

    use super::*;

    const SESSION: &str = "0b5c3e2a-9f4d-4e7a-8c1b-2d3e4f5a6b7c";

    fn ip(text: &str) -> Option<IpAddr> {
        Some(text.parse().expect("ip"))
    }

    fn session(segment: &str) -> Option<Uuid> {
        session_key(segment)
    }

    #[test]
    fn entries_are_the_24_bytes_the_bound_counts() {
        assert_eq!(size_of::<(ClientKey, InMemoryState)>(), 24);
        assert_eq!(size_of::<(Uuid, InMemoryState)>(), 24);
    }

    #[test]
    fn a_limit_allows_its_burst_then_refills_linearly() {
        let clock = FakeRelativeClock::default();
        let limiter = Limiter::new(3, MAX_KEYS, clock.clone());
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
        let limiter = Limiter::new(1, 3, clock.clone());
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

    #[test]
    fn finds_the_session_segment_of_pay_paths_only() {
        assert_eq!(pay_segment("/v1/checkout/abc/pay"), Some("abc"));
        assert_eq!(pay_segment("/v1/checkout/abc/result"), None);
        assert_eq!(pay_segment("/v1/checkout//pay"), None);
        assert_eq!(pay_segment("/v1/checkout/a/b/pay"), None);
    }

    #[test]
    fn session_ids_are_decoded_and_only_issued_ones_are_keys() {
        let id = Uuid::try_parse(SESSION).ok();
        assert!(id.is_some());
        assert_eq!(session(SESSION), id);
        let escaped_first = format!("%30{}", &SESSION[1..]);
        assert_eq!(session(&escaped_first), id);
        let lower: String = SESSION.bytes().map(|b| format!("%{b:02x}")).collect();
        let upper: String = SESSION.bytes().map(|b| format!("%{b:02X}")).collect();
        assert_eq!(lower.len(), MAX_SEGMENT);
        assert_eq!(session(&lower), id);
        assert_eq!(session(&upper), id);
        let others = [
            "abc".to_owned(),
            String::new(),
            "%zz".to_owned(),
            "%ff".to_owned(),
            SESSION.to_uppercase(),
            SESSION.replace('-', ""),
            format!("{{{SESSION}}}"),
            format!("{SESSION}0"),
            format!("{lower}%30"),
            "a".repeat(64 * 1024),
        ];
        for other in &others {
            assert_eq!(session(other), None, "{other:.40}");
        }
    }

    #[test]
    fn encoded_spellings_of_a_session_share_its_limit() {
        let limits = PayLimits::new(100, 2, Vec::new());
        let lower: String = SESSION.bytes().map(|b| format!("%{b:02x}")).collect();
        let upper: String = SESSION.bytes().map(|b| format!("%{b:02X}")).collect();
        assert!(limits.take(ip("192.0.2.1"), session(SESSION)).is_ok());
        assert!(limits.take(ip("192.0.2.2"), session(&lower)).is_ok());
        let wait = limits
            .take(ip("192.0.2.3"), session(&upper))
            .expect_err("third call on one session");
        assert!(wait > Duration::from_secs(29) && wait <= Duration::from_secs(30));
        assert_eq!(limits.tracked_keys(), (3, 1));
    }

    #[test]
    fn an_ipv6_64_is_one_client_and_ipv4_addresses_are_each_one() {
        let limits = PayLimits::new(2, 100, Vec::new());
        assert!(limits.take(ip("2001:db8:1:2::a"), None).is_ok());
        assert!(limits.take(ip("2001:db8:1:2:ffff::1"), None).is_ok());
        assert!(
            limits.take(ip("2001:db8:1:2::b"), None).is_err(),
            "same /64"
        );
        assert!(limits.take(ip("2001:db8:1:3::a"), None).is_ok(), "next /64");
        for n in 0..3 {
            assert!(limits.take(ip(&format!("192.0.2.{n}")), None).is_ok());
        }
        assert!(limits.take(ip("::"), None).is_ok(), "no IPv4 is the /64 ::");
        assert!(limits.take(None, None).is_ok(), "no peer address");
        assert_eq!(limits.tracked_keys(), (7, 0));
    }

    #[test]
    fn junk_paths_store_nothing_and_valid_keys_stay_within_the_bound() {
        // One call a minute: no key here goes idle (and may be pruned) during the test.
        let limits = PayLimits::new(u32::MAX, 1, Vec::new());
        let client = ip("192.0.2.1");
        let long = "a".repeat(64 * 1024);
        for n in 0..100_000 {
            let junk = if n % 2 == 0 {
                format!("junk-{n}")
            } else {
                format!("{n}{}", &long[..n % 1000])
            };
            let path = format!("/v1/checkout/{junk}/pay");
            let segment = pay_segment(&path).expect("a pay path");
            assert!(limits.take(client, session_key(segment)).is_ok());
        }
        assert!(limits.take(client, session(&long)).is_ok());
        assert_eq!(limits.tracked_keys(), (1, 0), "invalid ids store nothing");

        let many = 105_000_u128;
        for n in 0..many {
            let id = Uuid::from_u128(n).hyphenated().to_string();
            let _ = limits.take(client, session(&id));
        }
        assert_eq!(limits.tracked_keys(), (1, MAX_KEYS), "capped, not grown");

        let limits = PayLimits::new(1, 1, Vec::new());
        for n in 0..many {
            let network = Ipv6Addr::from((0x2001_0db8_u128 << 96) | (n << 64) | 1);
            let _ = limits.take(Some(IpAddr::V6(network)), None);
        }
        assert_eq!(limits.tracked_keys(), (MAX_KEYS, 0));
    }
}
