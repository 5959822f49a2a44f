//! The whole-list check (issue 46): every `SUBSCRIPTION_LIST_CHECK_SECONDS`, one instance
//! (the one that takes the check's lease) reads the gateway's whole subscription list and
//! compares it with the store. A subscription the gateway bills and the store lacks is
//! recorded for review and reported (the event `subscription.needs_review`, the dashboard's
//! review queue, a warning in the log, `/metrics`), never ignored.
//!
//! Bounded: the list is read up to `SUBSCRIPTION_LIST_MAX_BYTES` and summarised item by item
//! ([`crate::subscriptions::listed`]); the store is asked about it in batches; at most
//! [`MOST_FOUND_PER_RUN`] subscriptions are recorded a run (each is one gateway read), the
//! rest at a run that follows at once. It runs in the reconciler's task, off the pay path.
//! A subscription an open sign-up could still claim is left to that sign-up.

use time::OffsetDateTime;

use super::{PassReport, Reconciler, count};
use crate::metrics::reconcile::Event;
use crate::store::gateway_list::ListCheckRun;
use crate::store::signups::Signup;
use crate::subscriptions::listed::ListedSubscription;
use crate::subscriptions::signup_match::SignupWindow;

/// Most subscriptions one run records.
pub const MOST_FOUND_PER_RUN: usize = 50;
/// How soon a run that failed is tried again (at most).
const RETRY_AFTER_ERROR: time::Duration = time::Duration::minutes(5);
/// Most open sign-ups whose plans are left alone.
const OPEN_SIGNUPS_READ: u32 = 500;

impl Reconciler {
    /// Runs the check if it is due and no other instance holds it.
    pub(super) async fn list_check(&self, now: OffsetDateTime) -> PassReport {
        let store = &self.state.store;
        match store.claim_list_check(now, &self.owner, self.lease()).await {
            Ok(true) => {}
            Ok(false) => return PassReport::default(),
            Err(error) => {
                tracing::error!(%error, "reconciler: cannot take the subscription list check");
                return PassReport::default();
            }
        }
        let mut report = PassReport::default();
        let (run, more) = self.compare_list(now, &mut report).await;
        let every = time::Duration::try_from(self.state.config.subscriptions.list_check_every)
            .unwrap_or(time::Duration::HOUR);
        let next = match (&run.error, more) {
            (Some(_), _) => now.saturating_add(every.min(RETRY_AFTER_ERROR)),
            (None, true) => now,
            (None, false) => now.saturating_add(every),
        };
        if let Some(error) = &run.error {
            tracing::error!(%error, "reconciler: the subscription list check could not finish");
            report.failures += 1;
        }
        match store.finish_list_check(&self.owner, &run, next).await {
            Ok(true) => {}
            Ok(false) => {
                tracing::warn!("reconciler: the list check's lease expired before it finished")
            }
            Err(error) => tracing::error!(%error, "reconciler: could not finish the list check"),
        }
        report
    }

    /// One comparison; whether subscriptions are left for the next run.
    async fn compare_list(
        &self,
        now: OffsetDateTime,
        report: &mut PassReport,
    ) -> (ListCheckRun, bool) {
        let mut run = ListCheckRun {
            ran_at: Some(now),
            ..ListCheckRun::default()
        };
        let subscriptions = self.state.subscriptions();
        let max_bytes = self.state.config.subscriptions.list_max_bytes;
        let (listed, read) = match subscriptions.read_list(max_bytes, |_| true).await {
            Ok(read) => read,
            Err(error) => {
                run.error = Some(format!("the gateway's list could not be read: {error}"));
                return (run, false);
            }
        };
        run.listed = read.listed;
        let open = match self.state.store.open_signups(OPEN_SIGNUPS_READ).await {
            Ok(open) => open,
            Err(error) => {
                run.error = Some(format!("the open sign-ups could not be read: {error}"));
                return (run, false);
            }
        };
        let split = match subscriptions.unknown(listed).await {
            Ok(split) => split,
            Err(error) => {
                run.error = Some(format!("the store could not be compared: {error}"));
                return (run, false);
            }
        };
        let lacking: Vec<ListedSubscription> = split
            .unknown
            .into_iter()
            .filter(|listed| !self.claimable(listed, &open))
            .collect();
        let more = lacking.len() > MOST_FOUND_PER_RUN;
        for listed in lacking.into_iter().take(MOST_FOUND_PER_RUN) {
            let note = format!(
                "found in the gateway's list on {}: the gateway bills it and checkout-server did \
                 not start it (or never learned of its sign-up)",
                now.date()
            );
            let found = match self
                .state
                .gateway
                .subscription_get(&listed.gateway_id)
                .await
            {
                Ok(details) => {
                    subscriptions
                        .record_found(&details.subscription_details, note, now)
                        .await
                }
                Err(error) => Err(error.into()),
            };
            match found {
                Ok((_, false)) => {}
                Ok((subscription, true)) => {
                    tracing::warn!(subscription_id = %subscription.id, gateway_subscription_id = %listed.gateway_id, plan = %listed.terms.name, "reconciler: the gateway bills a subscription the store lacked: recorded for review");
                    run.found += 1;
                    report.subscriptions_found += 1;
                    count(Event::SubscriptionFound, 1);
                }
                Err(error) => {
                    run.error = Some(format!(
                        "subscription {} could not be recorded: {error}",
                        listed.gateway_id
                    ));
                    return (run, true);
                }
            }
        }
        (run, more)
    }

    /// Whether an open sign-up could still claim `listed` (its plan, inside its window).
    fn claimable(&self, listed: &ListedSubscription, open: &[Signup]) -> bool {
        let call_limit = time::Duration::try_from(self.state.config.gateway.timeout)
            .unwrap_or(time::Duration::MINUTE);
        open.iter().any(|signup| {
            let window = SignupWindow {
                called_at: signup.called_at,
                call_limit,
            };
            self.state
                .config
                .plans
                .get(&signup.plan_id)
                .is_none_or(|plan| listed.has_plan(plan))
                && window.contains(listed.started_at)
        })
    }
}
