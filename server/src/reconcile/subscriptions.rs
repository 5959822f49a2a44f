//! One due subscription: ask the gateway about it and record new cycles, failed charges and
//! status changes (a subscription expiring, or changed at the gateway directly).

use time::OffsetDateTime;

use super::{PassReport, Reconciler, count};
use crate::metrics::reconcile::Event;
use crate::store::model::Subscription;

impl Reconciler {
    /// Polls one claimed subscription and gives its lease back.
    pub(super) async fn reconcile_subscription(
        &self,
        subscription: Subscription,
        now: OffsetDateTime,
    ) -> PassReport {
        let mut report = PassReport {
            subscriptions_polled: 1,
            ..PassReport::default()
        };
        count(Event::SubscriptionPolled, 1);
        let retry = match self.state.subscriptions().poll(&subscription, now).await {
            Ok((_, applied)) => {
                report.cycles_paid = applied.new_paid_cycles.len();
                report.cycles_failed = applied.new_failed_cycles.len();
                count(Event::CycleSucceeded, report.cycles_paid);
                count(Event::CycleFailed, report.cycles_failed);
                None
            }
            Err(error) => {
                tracing::warn!(subscription_id = %subscription.id, %error, "reconciler: subscription poll failed; retrying later");
                report.failures += 1;
                count(Event::LookupFailed, 1);
                let gap = time::Duration::try_from(self.state.config.timing.reconcile_interval)
                    .unwrap_or(time::Duration::MINUTE)
                    .max(time::Duration::MINUTE);
                Some(now.saturating_add(gap))
            }
        };
        match self
            .state
            .store
            .release_subscription(&subscription.id, &self.owner, retry)
            .await
        {
            Ok(true) => {}
            Ok(false) => {
                tracing::warn!(subscription_id = %subscription.id, "reconciler: lease expired before the subscription was released")
            }
            Err(error) => {
                tracing::error!(subscription_id = %subscription.id, %error, "reconciler: could not release a subscription")
            }
        }
        report
    }
}
