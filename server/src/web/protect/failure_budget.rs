//! The per-client half of the pay limits (issue 47, item 3): failed pay calls a minute from
//! one client (an IPv4 address or an IPv6 /64), not every call. A carrier's NAT, an office or
//! a family's router puts many shoppers behind one address, and shoppers' calls mostly go on
//! to the gateway or pay; a card tester's mostly fail. So a call that went on (3-D Secure,
//! paid) or only asked for a proof of work spends nothing, and one that failed (answered
//! declined, blocked before the gateway, or refused as malformed) spends one.
//! Once a client has spent its budget in the current minute every pay call from it is
//! refused until the minute ends: the hard cap for what only a bot does.
//!
//! Windows are fixed minutes per client, opened by its first failure. Memory is bounded as in
//! [`super::capped_limit`]: at most `cap` clients; when full, clients whose minute has ended
//! are dropped (at most once a second), and new clients that still find no room share one
//! overflow window. An entry is a 16-byte key and a 24-byte window (an `Instant` and a count):
//! 100,000 clients take about 5 MB with the table's spare slots.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use crate::risk::address::ClientKey;

/// A budget's window.
const MINUTE: Duration = Duration::from_secs(60);
/// Least time between two prunes of a full map (a prune walks every key).
const PRUNE_EVERY: Duration = Duration::from_secs(1);

/// One client's failures in its current minute.
#[derive(Clone, Copy, Debug)]
struct Window {
    opened: Instant,
    failures: u32,
}

impl Window {
    fn ends(&self) -> Instant {
        self.opened + MINUTE
    }
}

#[derive(Debug, Default)]
struct Windows {
    clients: HashMap<ClientKey, Window>,
    overflow: Option<Window>,
    pruned_at: Option<Instant>,
}

/// Failed pay calls a minute per client, `max` at most.
#[derive(Debug)]
pub struct FailureBudget {
    max: u32,
    cap: usize,
    windows: Mutex<Windows>,
}

impl FailureBudget {
    /// A budget of `max` failures a minute per client, over at most `cap` clients.
    pub fn new(max: u32, cap: usize) -> Self {
        Self {
            max: max.max(1),
            cap,
            windows: Mutex::new(Windows::default()),
        }
    }

    /// How long until `client` may call again when it has spent its budget at `now`; `None`
    /// when it may call.
    pub fn spent(&self, client: &ClientKey, now: Instant) -> Option<Duration> {
        let windows = self.lock();
        let window = match windows.clients.get(client) {
            Some(window) => Some(window),
            None if windows.clients.len() >= self.cap => windows.overflow.as_ref(),
            None => None,
        }?;
        (now < window.ends() && window.failures >= self.max).then(|| window.ends() - now)
    }

    /// Counts one failed call of `client` at `now`.
    pub fn charge(&self, client: &ClientKey, now: Instant) {
        let mut windows = self.lock();
        let full = windows.clients.len() >= self.cap;
        if full && !windows.clients.contains_key(client) {
            let due = windows
                .pruned_at
                .is_none_or(|at| now.duration_since(at) >= PRUNE_EVERY);
            if due {
                windows.clients.retain(|_, window| now < window.ends());
                windows.pruned_at = Some(now);
            }
        }
        let fresh = Window {
            opened: now,
            failures: 0,
        };
        let window = if windows.clients.contains_key(client) || windows.clients.len() < self.cap {
            windows.clients.entry(*client).or_insert(fresh)
        } else {
            windows.overflow.get_or_insert(fresh)
        };
        if now >= window.ends() {
            *window = fresh;
        }
        window.failures = window.failures.saturating_add(1);
    }

    /// Clients tracked (at most `cap`).
    pub fn len(&self) -> usize {
        self.lock().clients.len()
    }

    /// Whether no client is tracked.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Windows> {
        self.windows.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(n: u8) -> ClientKey {
        let mut key = [0; 16];
        key[0] = n;
        key
    }

    #[test]
    fn failures_spend_the_budget_for_the_rest_of_the_minute() {
        let budget = FailureBudget::new(3, 100);
        let start = Instant::now();
        for _ in 0..2 {
            budget.charge(&key(1), start);
        }
        assert_eq!(budget.spent(&key(1), start), None, "two of three");
        budget.charge(&key(1), start + Duration::from_secs(10));
        assert_eq!(
            budget.spent(&key(1), start + Duration::from_secs(20)),
            Some(Duration::from_secs(40)),
            "until the minute opened by the first failure ends"
        );
        assert_eq!(budget.spent(&key(2), start), None, "another client");
        let later = start + MINUTE;
        assert_eq!(budget.spent(&key(1), later), None, "a new minute");
        budget.charge(&key(1), later);
        assert_eq!(budget.spent(&key(1), later), None, "counted afresh");
    }

    #[test]
    fn a_full_map_drops_ended_minutes_and_shares_an_overflow_window() {
        let budget = FailureBudget::new(2, 2);
        let start = Instant::now();
        budget.charge(&key(1), start);
        budget.charge(&key(2), start);
        for _ in 0..2 {
            budget.charge(&key(3), start);
        }
        assert_eq!(budget.len(), 2, "capped");
        assert!(
            budget.spent(&key(4), start).is_some(),
            "newcomers share one"
        );
        assert!(
            budget.spent(&key(1), start).is_none(),
            "tracked keys keep theirs"
        );
        let later = start + MINUTE;
        budget.charge(&key(5), later);
        assert_eq!(budget.len(), 1, "ended minutes dropped, the newcomer kept");
        assert!(budget.spent(&key(3), later).is_none());
    }
}
