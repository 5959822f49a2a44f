//! What an anonymous caller can make this server ask the gateway. The 3-D Secure return page
//! needs no credential and settles the payment through a status lookup; unbounded, anyone who
//! knows a payment id (it is in the shop's landing URL) could spend the merchant's gateway
//! quota, or keep a slow gateway slower. Each payment may cause a lookup every
//! [`PER_PAYMENT_EVERY`] (after a burst of [`PER_PAYMENT_BURST`]: the shopper's own return
//! and a reload), and all of them together [`GLOBAL_PER_SECOND`] a second. A visit over
//! budget makes no lookup: it lands on what the store knows, which the webhook and the
//! reconciler keep settling.
//!
//! Memory: one entry per payment id (a UUID, 16 bytes, plus the limiter's 8-byte state), at
//! most [`MAX_PAYMENTS`] of them ([`CappedLimit`]): under 1 MB. In memory, per instance.

use std::num::NonZeroU32;
use std::time::Duration;

use governor::clock::DefaultClock;
use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};
use uuid::Uuid;

use super::capped_limit::CappedLimit;

/// Least time between two lookups one payment's return page may cause, after its burst.
pub const PER_PAYMENT_EVERY: Duration = Duration::from_secs(5);
/// Lookups one payment's return page may cause at once.
pub const PER_PAYMENT_BURST: u32 = 2;
/// Lookups all return pages together may cause per second (also their burst).
pub const GLOBAL_PER_SECOND: u32 = 20;
/// Payments tracked at most.
pub const MAX_PAYMENTS: usize = 16_384;

/// The return page's lookup budgets.
#[derive(Debug)]
pub struct LookupBudget {
    per_payment: CappedLimit<Uuid>,
    global: DefaultDirectRateLimiter,
}

impl Default for LookupBudget {
    fn default() -> Self {
        let burst = NonZeroU32::new(PER_PAYMENT_BURST).unwrap_or(NonZeroU32::MIN);
        let per_payment = Quota::with_period(PER_PAYMENT_EVERY)
            .unwrap_or_else(|| Quota::per_second(NonZeroU32::MIN))
            .allow_burst(burst);
        let global =
            Quota::per_second(NonZeroU32::new(GLOBAL_PER_SECOND).unwrap_or(NonZeroU32::MIN));
        Self {
            per_payment: CappedLimit::new(per_payment, MAX_PAYMENTS, DefaultClock::default()),
            global: RateLimiter::direct(global),
        }
    }
}

impl LookupBudget {
    /// Takes one lookup for `payment_id` (a stored payment's) if both budgets allow it.
    pub fn take(&self, payment_id: &str) -> bool {
        let Ok(id) = Uuid::parse_str(payment_id) else {
            return false;
        };
        self.per_payment.check(&id).is_ok() && self.global.check().is_ok()
    }

    /// Payment ids held.
    pub fn tracked(&self) -> usize {
        self.per_payment.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_payment_gets_its_burst_then_waits_and_others_are_apart() {
        let budget = LookupBudget::default();
        let one = Uuid::new_v4().to_string();
        for _ in 0..PER_PAYMENT_BURST {
            assert!(budget.take(&one));
        }
        assert!(!budget.take(&one), "over the payment's budget");
        assert!(budget.take(&Uuid::new_v4().to_string()), "another payment");
        assert!(!budget.take("not-a-payment-id"));
    }

    #[test]
    fn all_payments_together_stay_within_the_global_budget() {
        let budget = LookupBudget::default();
        let allowed = (0..GLOBAL_PER_SECOND * 3)
            .filter(|_| budget.take(&Uuid::new_v4().to_string()))
            .count();
        assert!(
            allowed <= usize::try_from(GLOBAL_PER_SECOND + 1).unwrap_or(usize::MAX),
            "{allowed}"
        );
        assert!(budget.tracked() <= MAX_PAYMENTS);
    }
}
