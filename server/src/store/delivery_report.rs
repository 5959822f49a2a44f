//! What the dashboard's webhook pages read about deliveries beyond the delivery worker's own
//! queries ([`DeliveryReportStore`]): an endpoint's health, every attempt of one event, and
//! sending again the deliveries of a time range that were given up.

use async_trait::async_trait;
use time::OffsetDateTime;

use super::error::StoreResult;
use super::model::DeliveryAttempt;

/// How an endpoint's deliveries are going.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EndpointHealth {
    /// The newest attempt it answered 2xx.
    pub last_success_at: Option<OffsetDateTime>,
    /// Attempts since then that failed (all of them when none succeeded).
    pub consecutive_failures: u64,
    /// Deliveries waiting to be sent.
    pub pending: u64,
    /// When the oldest of them was created.
    pub oldest_pending_at: Option<OffsetDateTime>,
    /// Deliveries given up after their retries.
    pub failed: u64,
    /// Attempts in the recent window the caller asked about.
    pub recent_attempts: u64,
    /// Those answered 2xx.
    pub recent_successes: u64,
}

impl EndpointHealth {
    /// Recent successes in percent, rounded down; `None` without recent attempts.
    pub fn recent_success_percent(&self) -> Option<u64> {
        (self.recent_attempts > 0).then(|| self.recent_successes * 100 / self.recent_attempts)
    }
}

/// Reports on deliveries, and the one change the dashboard asks of them in bulk.
#[async_trait]
pub trait DeliveryReportStore: Send + Sync {
    /// The health of endpoint `endpoint_id`, its recent window starting at `since`.
    async fn endpoint_health(
        &self,
        endpoint_id: &str,
        since: OffsetDateTime,
    ) -> StoreResult<EndpointHealth>;
    /// Every attempt to deliver event `event_id`, to any endpoint, oldest first.
    async fn event_attempts(&self, event_id: &str) -> StoreResult<Vec<DeliveryAttempt>>;
    /// Makes the failed (given up) deliveries to `endpoint_id` of the events created in
    /// `[from, before)` pending and due at `now`; how many.
    async fn redeliver_failed(
        &self,
        endpoint_id: &str,
        from: OffsetDateTime,
        before: OffsetDateTime,
        now: OffsetDateTime,
    ) -> StoreResult<u64>;
}

#[cfg(test)]
mod tests {
    use super::EndpointHealth;

    #[test]
    fn the_success_rate_needs_attempts() {
        let none = EndpointHealth::default();
        assert_eq!(none.recent_success_percent(), None);
        let some = EndpointHealth {
            recent_attempts: 3,
            recent_successes: 2,
            ..EndpointHealth::default()
        };
        assert_eq!(some.recent_success_percent(), Some(66));
    }
}
