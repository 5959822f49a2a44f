//! How much sign-in work anyone may ask of the dashboard, every number in one place:
//! - login attempts per client address (an IPv4 address, or an IPv6 /64): a `governor` limit
//!   with bounded memory, the pay call's [`CappedLimit`]; it slows guessing from one place;
//! - login attempts from all addresses together ([`ATTEMPTS_PER_SECOND`]): addresses are
//!   cheap for an attacker, so one limit covers them all;
//! - password hashes at once ([`hashes_at_once`], the [`HashGate`]): each argon2 hash holds
//!   19 MiB, so hashing takes at most `hashes_at_once() × 19 MiB` (76 MiB on 2 cores) besides
//!   the process's usual memory, however many logins arrive;
//! - the per-account lock-out ([`FAILURES_BEFORE_LOCK`], [`LOCK_FOR`]), kept in the store (it
//!   must hold across instances and restarts; [`attempt`](super::attempt)).
//!
//! Every refusal is a 429 with `Retry-After`. The first three are per instance.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::time::Duration;

use governor::clock::{Clock as _, DefaultClock};
use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};

use super::hash_gate::HashGate;
use crate::risk::address::{ClientKey, address_key};
use crate::web::protect::capped_limit::CappedLimit;
use crate::web::protect::rate_limit::per_minute;

/// Login attempts one address may make per minute (a burst of as many). Codes and proofs
/// to turn two-factor sign-in off take from the same limit.
pub const ATTEMPTS_PER_MINUTE: u32 = 10;
/// Login attempts all addresses together may make per second, after a burst of
/// [`ATTEMPTS_BURST`]: far above what a shop's staff type, far below what the hashing
/// permits could check (a few hundred a second), so a flood is refused before it queues.
pub const ATTEMPTS_PER_SECOND: u32 = 10;
/// Login attempts all addresses together may make at once.
pub const ATTEMPTS_BURST: u32 = 50;
/// Failed logins in a row that lock an account.
pub const FAILURES_BEFORE_LOCK: u32 = 5;
/// How long a locked account stays locked.
pub const LOCK_FOR: time::Duration = time::Duration::minutes(15);
/// Requests that may wait in line for a hashing permit, per permit.
pub const WAITING_PER_PERMIT: usize = 4;
/// Longest wait for a hashing permit.
pub const LONGEST_WAIT: Duration = Duration::from_secs(2);
/// Fewest and most hashing permits, whatever the machine.
const PERMITS_BETWEEN: (usize, usize) = (2, 32);
/// Most addresses tracked at once.
const MAX_KEYS: usize = 100_000;

/// Password hashes that may run at once: twice the cores this process may use (a hash is
/// pure CPU, so more would only queue on the cores and hold more memory), within 2 to 32.
pub fn hashes_at_once() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    cores
        .saturating_mul(2)
        .clamp(PERMITS_BETWEEN.0, PERMITS_BETWEEN.1)
}

/// The sign-in limits of one dashboard.
#[derive(Debug)]
pub struct LoginLimits {
    per_address: CappedLimit<ClientKey>,
    everyone: DefaultDirectRateLimiter,
    /// The permits every password hash on the sign-in path needs.
    pub hashing: HashGate,
}

impl LoginLimits {
    /// [`ATTEMPTS_PER_MINUTE`] per address, [`ATTEMPTS_PER_SECOND`] in all and
    /// [`hashes_at_once`] hashes.
    pub fn new() -> Self {
        let everyone =
            Quota::per_second(NonZeroU32::new(ATTEMPTS_PER_SECOND).unwrap_or(NonZeroU32::MIN))
                .allow_burst(NonZeroU32::new(ATTEMPTS_BURST).unwrap_or(NonZeroU32::MIN));
        let permits = hashes_at_once();
        Self {
            per_address: CappedLimit::new(
                per_minute(ATTEMPTS_PER_MINUTE),
                MAX_KEYS,
                DefaultClock::default(),
            ),
            everyone: RateLimiter::direct(everyone),
            hashing: HashGate::new(
                permits,
                permits.saturating_mul(WAITING_PER_PERMIT),
                LONGEST_WAIT,
            ),
        }
    }

    /// Takes one attempt from `client`'s limit and then from everyone's, or says how long
    /// until the refusing one allows an attempt. An address over its own limit takes nothing
    /// from everyone's.
    pub fn take(&self, client: IpAddr) -> Result<(), Duration> {
        self.per_address.check(&address_key(client))?;
        self.everyone
            .check()
            .map_err(|refused| refused.wait_time_from(DefaultClock::default().now()))
    }
}

impl Default for LoginLimits {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn many_addresses_share_one_limit() {
        let limits = LoginLimits::new();
        let refused = (0..=ATTEMPTS_BURST)
            .map(|n| IpAddr::from([203, 0, 113, u8::try_from(n % 250).unwrap_or(0)]))
            .filter_map(|client| limits.take(client).err())
            .collect::<Vec<_>>();
        assert_eq!(refused.len(), 1, "only the attempt past the burst");
        assert!(refused[0] <= Duration::from_secs(1), "{:?}", refused[0]);
    }

    #[test]
    fn permits_follow_the_cores_within_bounds() {
        let permits = hashes_at_once();
        assert!((PERMITS_BETWEEN.0..=PERMITS_BETWEEN.1).contains(&permits));
        assert_eq!(permits % 2, 0);
    }
}
