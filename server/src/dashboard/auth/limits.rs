//! Login attempts per client address (an IPv4 address, or an IPv6 /64): a `governor` limit
//! with bounded memory, the pay call's [`CappedLimit`]. It slows password guessing across
//! many accounts from one place; the per-account lock-out lives in the store (it must hold
//! across instances and restarts).

use std::net::IpAddr;
use std::time::Duration;

use governor::clock::DefaultClock;

use crate::api::protect::capped_limit::CappedLimit;
use crate::api::protect::rate_limit::per_minute;
use crate::risk::address::{ClientKey, address_key};

/// Login attempts one address may make per minute (a burst of as many).
pub const ATTEMPTS_PER_MINUTE: u32 = 10;
/// Failed logins in a row that lock an account.
pub const FAILURES_BEFORE_LOCK: u32 = 5;
/// How long a locked account stays locked.
pub const LOCK_FOR: time::Duration = time::Duration::minutes(15);
/// Most addresses tracked at once.
const MAX_KEYS: usize = 100_000;

/// The per-address login limit.
#[derive(Debug)]
pub struct LoginLimits {
    per_address: CappedLimit<ClientKey>,
}

impl LoginLimits {
    /// [`ATTEMPTS_PER_MINUTE`] per address.
    pub fn new() -> Self {
        let quota = per_minute(ATTEMPTS_PER_MINUTE);
        Self {
            per_address: CappedLimit::new(quota, MAX_KEYS, DefaultClock::default()),
        }
    }

    /// Takes one attempt from `client`'s limit, or says how long until one is allowed.
    pub fn take(&self, client: IpAddr) -> Result<(), Duration> {
        self.per_address.check(&address_key(client))
    }
}

impl Default for LoginLimits {
    fn default() -> Self {
        Self::new()
    }
}
