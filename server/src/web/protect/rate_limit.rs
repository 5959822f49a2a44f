//! Rate limits on the pay call, the card-testing defence: a `governor` limiter keyed by
//! checkout session, allowing `N` calls at once and `N` more per minute
//! (`PAY_RATE_LIMIT_PER_SESSION`), and per client a budget of *failed* calls a minute
//! (`PAY_RATE_LIMIT_PER_IP`, [`super::failure_budget`]): one address may carry many shoppers
//! (a carrier's NAT, an office), whose calls mostly go on to the gateway, while a card
//! tester's mostly fail. Starting a payment link's session (`/pay/{public_id}/session`) makes
//! a row whether or not the payer goes on, so those starts are counted per client, every one,
//! at the same number a minute. A call over any limit gets 429 with `Retry-After` (whole seconds
//! until a call would pass) and never reaches the gateway. In memory, per instance: several
//! instances each allow the configured rate.
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
//! A call fails ([`answer_failed`]) when it is refused (a 4xx other than 409 in progress,
//! 428 proof of work asked and 429 itself) or answered `declined` (by the bank) or `blocked`
//! (refused before the gateway). A 3-D Secure page is not a failure: what the bank says after
//! it is not seen here.
//!
//! Memory is bounded: each map holds at most [`MAX_KEYS`] = 100,000 keys. A session entry is
//! 24 bytes (16-byte key, 8-byte limiter state) plus one control byte, and 100,000 keys fit
//! the hash table's 131,072 slots: at most 131,072 × 25 B ≈ 3.3 MB; the clients' budget
//! about 5 MB. When a map is full its idle keys (limits refilled, so forgetting them changes
//! nothing) are dropped, at most once a second; new keys that still find no room share one
//! overflow limit.

use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::{Body, to_bytes};
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::Quota;
use governor::clock::DefaultClock;
use ipnet::IpNet;
use percent_encoding::percent_decode_str;
use uuid::Uuid;

use super::capped_limit::CappedLimit;
use super::failure_budget::FailureBudget;
use crate::risk::address::{ClientKey, address_key};
use crate::web::ApiFailure;
use crate::web::client_ip;

/// Keys one limiter holds at most.
pub const MAX_KEYS: usize = 100_000;
/// Longest path segment that can spell a session id: 36 characters, each percent-escaped.
const MAX_SEGMENT: usize = 36 * 3;
/// The client key of a call without a peer address (no `ConnectInfo`). Neither an IPv4-mapped
/// address nor a /64 (whose last 8 bytes are zero), so no client shares it.
const UNKNOWN_CLIENT: [u8; 16] = [0xff; 16];

/// Longest pay answer read to see whether it declined; a longer one is passed on unread.
const MAX_ANSWER_BYTES: usize = 64 * 1024;

/// The pay limits: per client and per session, and the link session starts per client.
#[derive(Debug)]
pub struct PayLimits {
    per_client: FailureBudget,
    per_session: CappedLimit<Uuid>,
    link_starts: CappedLimit<ClientKey>,
    trusted_proxies: Vec<IpNet>,
}

impl PayLimits {
    /// Limits of `per_ip` failed calls (and link session starts) and `per_session` calls per
    /// minute; `trusted_proxies`
    /// decide whose `X-Forwarded-For` is believed (the same rule as the gateway's
    /// `customer_ip`).
    pub fn new(per_ip: u32, per_session: u32, trusted_proxies: Vec<IpNet>) -> Self {
        Self {
            per_client: FailureBudget::new(per_ip, MAX_KEYS),
            per_session: CappedLimit::new(
                per_minute(per_session),
                MAX_KEYS,
                DefaultClock::default(),
            ),
            link_starts: CappedLimit::new(per_minute(per_ip), MAX_KEYS, DefaultClock::default()),
            trusted_proxies,
        }
    }

    /// Lets a pay call through when `client` has failed budget left and then, when the call
    /// names one, takes it from `session`'s limit; or says how long until the refusing limit
    /// allows a call.
    pub fn take(&self, client: Option<IpAddr>, session: Option<Uuid>) -> Result<(), Duration> {
        if let Some(wait) = self.per_client.spent(&client_key(client), Instant::now()) {
            return Err(wait);
        }
        session.map_or(Ok(()), |session| self.per_session.check(&session))
    }

    /// Takes a payment link's session start of `client` from its limit, or says how long
    /// until one is allowed.
    pub fn take_link_start(&self, client: Option<IpAddr>) -> Result<(), Duration> {
        self.link_starts.check(&client_key(client))
    }

    /// Counts a failed pay call of `client` ([`answer_failed`]).
    pub fn failed(&self, client: Option<IpAddr>) {
        self.per_client.charge(&client_key(client), Instant::now());
    }

    /// Keys held: `(clients, sessions)`, each at most [`MAX_KEYS`].
    pub fn tracked_keys(&self) -> (usize, usize) {
        (self.per_client.len(), self.per_session.len())
    }
}

/// `calls` a minute, a burst of as many.
pub(crate) fn per_minute(calls: u32) -> Quota {
    Quota::per_minute(NonZeroU32::new(calls).unwrap_or(NonZeroU32::MIN))
}

/// The client key of `client`, [`address_key`]'s, or one key for every unknown client.
fn client_key(client: Option<IpAddr>) -> ClientKey {
    client.map_or(UNKNOWN_CLIENT, address_key)
}

/// The session id segment of a pay call path (`/v1/checkout/{session_id}/pay`), as sent.
pub fn pay_segment(path: &str) -> Option<&str> {
    let id = path.strip_prefix("/v1/checkout/")?.strip_suffix("/pay")?;
    (!id.is_empty() && !id.contains('/')).then_some(id)
}

/// Whether `path` starts a payment link's session (`/pay/{public_id}/session`).
pub fn is_link_session_start(path: &str) -> bool {
    path.strip_prefix("/pay/")
        .and_then(|rest| rest.strip_suffix("/session"))
        .is_some_and(|id| !id.is_empty() && !id.contains('/'))
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
    let path = request.uri().path();
    let link_start = is_link_session_start(path);
    let session = match pay_segment(path) {
        Some(segment) => session_key(segment),
        // A payment link's session start (`/pay/{public_id}/session`): the client's limits.
        None if link_start => None,
        None => return next.run(request).await,
    };
    let client = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(peer)| client_ip(peer.ip(), request.headers(), &limits.trusted_proxies));
    let taken = limits.take(client, session).and_then(|()| {
        if link_start {
            limits.take_link_start(client)
        } else {
            Ok(())
        }
    });
    match taken {
        Ok(()) => {
            let (answer, failed) = answer_failed(next.run(request).await).await;
            if failed {
                limits.failed(client);
            }
            answer
        }
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

/// The pay answer as it goes out, and whether the call failed: refused (a 4xx but 409, 428
/// and 429) or answered `declined` or `blocked`.
pub async fn answer_failed(answer: Response) -> (Response, bool) {
    let status = answer.status();
    if status != StatusCode::OK {
        let refused = status.is_client_error()
            && ![
                StatusCode::CONFLICT,
                StatusCode::PRECONDITION_REQUIRED,
                StatusCode::TOO_MANY_REQUESTS,
            ]
            .contains(&status);
        return (answer, refused);
    }
    let (parts, body) = answer.into_parts();
    let small = http_body::Body::size_hint(&body)
        .upper()
        .is_some_and(|bytes| bytes <= MAX_ANSWER_BYTES as u64);
    if !small {
        return (Response::from_parts(parts, body), false);
    }
    let Ok(bytes) = to_bytes(body, MAX_ANSWER_BYTES).await else {
        return (Response::from_parts(parts, Body::empty()), false);
    };
    let failed = serde_json::from_slice::<serde_json::Value>(&bytes).is_ok_and(|answer| {
        let state = &answer["result"]["state"];
        state == "declined" || state == "blocked"
    });
    (Response::from_parts(parts, Body::from(bytes)), failed)
}

#[cfg(test)]
mod tests {
    use std::net::Ipv6Addr;

    use governor::state::InMemoryState;

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

    /// Whether a 200 pay answer with `state` counts as a failure.
    async fn fails(state: &str) -> bool {
        let body = format!(r#"{{"result":{{"state":"{state}","payment_id":"p"}}}}"#);
        answer_failed(Response::new(Body::from(body))).await.1
    }

    #[tokio::test]
    async fn declined_and_blocked_answers_spend_the_budget_and_others_do_not() {
        assert!(fails("declined").await);
        // The neutral answer to a try refused before the gateway (issue 47): a tester's.
        assert!(fails("blocked").await);
        for state in ["captured", "authorized", "pending", "needs_review"] {
            assert!(!fails(state).await, "{state}");
        }
    }

    #[test]
    fn link_session_starts_are_limited_per_client_every_one_counted() {
        let limits = PayLimits::new(2, 100, Vec::new());
        let client = ip("198.51.100.7");
        assert!(limits.take_link_start(client).is_ok());
        assert!(limits.take_link_start(client).is_ok());
        assert!(limits.take_link_start(client).is_err());
        assert!(limits.take_link_start(ip("198.51.100.8")).is_ok());
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
        assert_eq!(limits.tracked_keys(), (0, 1), "no client failed");
    }

    #[test]
    fn an_ipv6_64_is_one_client_and_ipv4_addresses_are_each_one() {
        let limits = PayLimits::new(2, 100, Vec::new());
        for _ in 0..100 {
            assert!(
                limits.take(ip("2001:db8:1:2::a"), None).is_ok(),
                "calls that went on"
            );
        }
        limits.failed(ip("2001:db8:1:2::a"));
        limits.failed(ip("2001:db8:1:2:ffff::1"));
        let wait = limits
            .take(ip("2001:db8:1:2::b"), None)
            .expect_err("two failures of the same /64");
        assert!(wait > Duration::from_secs(59) && wait <= Duration::from_secs(60));
        assert!(limits.take(ip("2001:db8:1:3::a"), None).is_ok(), "next /64");
        for n in 0..3 {
            let client = ip(&format!("192.0.2.{n}"));
            limits.failed(client);
            assert!(limits.take(client, None).is_ok(), "one failure each");
        }
        limits.failed(ip("::"));
        assert!(limits.take(ip("::"), None).is_ok(), "no IPv4 is the /64 ::");
        limits.failed(None);
        assert!(limits.take(None, None).is_ok(), "no peer address");
        assert_eq!(limits.tracked_keys(), (6, 0));
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
        assert_eq!(limits.tracked_keys(), (0, 0), "invalid ids store nothing");

        let many = 105_000_u128;
        for n in 0..many {
            let id = Uuid::from_u128(n).hyphenated().to_string();
            let _ = limits.take(client, session(&id));
        }
        assert_eq!(limits.tracked_keys(), (0, MAX_KEYS), "capped, not grown");

        let limits = PayLimits::new(1, 1, Vec::new());
        for n in 0..many {
            let network = Ipv6Addr::from((0x2001_0db8_u128 << 96) | (n << 64) | 1);
            limits.failed(Some(IpAddr::V6(network)));
        }
        assert_eq!(limits.tracked_keys(), (MAX_KEYS, 0));
    }
}
