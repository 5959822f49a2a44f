//! Operational figures the store can count for `/metrics`: webhook deliveries by verdict and
//! what the reconciler has not caught up with yet. Kept apart from the record-keeping traits:
//! nothing here changes a row.

use async_trait::async_trait;
use time::OffsetDateTime;

use super::error::StoreResult;
use super::model::WebhookVerdict;

/// Work that was due and has not been done: the reconciler's backlog at one moment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Backlog {
    /// Unsettled payments whose check time has passed.
    pub payments_due: u64,
    /// The earliest of their check times.
    pub oldest_payment_due: Option<OffsetDateTime>,
    /// Live subscriptions whose poll time has passed.
    pub subscriptions_due: u64,
    /// The earliest of their poll times.
    pub oldest_subscription_due: Option<OffsetDateTime>,
}

impl Backlog {
    /// How long the oldest overdue item has waited at `now` (zero when nothing is overdue).
    pub fn lag_at(&self, now: OffsetDateTime) -> time::Duration {
        [self.oldest_payment_due, self.oldest_subscription_due]
            .into_iter()
            .flatten()
            .min()
            .map_or(time::Duration::ZERO, |oldest| {
                (now - oldest).max(time::Duration::ZERO)
            })
    }
}

/// Counting queries for monitoring.
#[async_trait]
pub trait StatsStore: Send + Sync {
    /// How many webhook deliveries carry each verdict (verdicts with none are left out).
    async fn count_webhooks_by_verdict(&self) -> StoreResult<Vec<(WebhookVerdict, u64)>>;
    /// Payments and subscriptions due for the reconciler at `now` and not yet handled.
    async fn reconcile_backlog(&self, now: OffsetDateTime) -> StoreResult<Backlog>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lag_is_the_oldest_overdue_wait() {
        let now = OffsetDateTime::UNIX_EPOCH + time::Duration::hours(1);
        assert_eq!(Backlog::default().lag_at(now), time::Duration::ZERO);
        let backlog = Backlog {
            payments_due: 2,
            oldest_payment_due: Some(now - time::Duration::seconds(30)),
            subscriptions_due: 1,
            oldest_subscription_due: Some(now - time::Duration::seconds(90)),
        };
        assert_eq!(backlog.lag_at(now), time::Duration::seconds(90));
    }
}
