//! How an instance follows the card-testing alert: it reviews the store's recent tries
//! ([`RiskService::review_alert`]) after every try and every decline (by one task, at most
//! once a second, off the pay call's path) and on every reconciler pass, raises, keeps or ends the
//! one alert in the store, and keeps whether one is open in memory ([`AlertWatch`]), where the
//! pay call reads it without a round trip.
//!
//! Every instance reviews and the store keeps one open alert, so all of them tighten together:
//! an instance that has seen no failure itself joins the alert on its next reconciler pass.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use time::OffsetDateTime;

use super::RiskService;
use super::attack::suspects;
use crate::metrics::card_testing as metric;
use crate::store::card_testing::{AlertCause, CardTestingAlert};
use crate::store::error::StoreResult;
use checkout::contract::PaymentState;

/// How old a try must be before it keeps the alert seen: a shopper who mistyped has paid by
/// then (and no longer counts), a bot's checkout never pays.
const SETTLED: Duration = Duration::from_secs(60);

/// Least time between two reviews started by tries.
const REVIEW_SPACING: Duration = Duration::from_secs(1);

/// Whether an alert is open, as this instance last saw the store, and the one reviewer task
/// that tries start.
#[derive(Debug, Default)]
pub struct AlertWatch {
    open: AtomicBool,
    /// A try asked for a review since the reviewer last started one.
    asked: AtomicBool,
    /// The reviewer task is running.
    reviewing: AtomicBool,
}

impl AlertWatch {
    /// Whether the tightened thresholds apply.
    pub fn is_open(&self) -> bool {
        self.open.load(Ordering::Relaxed)
    }

    fn set_open(&self, open: bool) {
        self.open.store(open, Ordering::Relaxed);
    }

    /// Asks for a review; true when the caller must start the reviewer (none is running).
    fn ask(&self) -> bool {
        self.asked.store(true, Ordering::SeqCst);
        !self.reviewing.swap(true, Ordering::SeqCst)
    }

    /// The reviewer's next step: true to review again (asked since its last review), false to
    /// stop. A request that arrives while it stops starts it again, so none is lost.
    fn next(&self) -> bool {
        if self.asked.swap(false, Ordering::SeqCst) {
            return true;
        }
        self.reviewing.store(false, Ordering::SeqCst);
        self.asked.load(Ordering::SeqCst) && !self.reviewing.swap(true, Ordering::SeqCst) && {
            self.asked.store(false, Ordering::SeqCst);
            true
        }
    }
}

/// What a review found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AlertReview {
    /// The trigger holds: this review raised the alert.
    Raised(CardTestingAlert),
    /// An alert is open (raised before, or by another instance).
    Open(CardTestingAlert),
    /// This review ended the alert: its trigger had not held for the hold time.
    Ended(CardTestingAlert),
    /// No alert.
    Quiet,
}

impl RiskService {
    /// Whether a card-testing alert is open (as of this instance's last review).
    pub fn alert_open(&self) -> bool {
        self.watch.is_open()
    }

    /// Reviews the store's tries over the alert's window at `now`: raises the alert when its
    /// trigger holds (or keeps it seen), ends it once the trigger has not held for the hold
    /// time, and remembers whether one is open.
    ///
    /// The alert is seen when its attack was last seen (issue 47): for a share, the newest
    /// try counted in it that is at least [`SETTLED`] old (`CardTestingStore::
    /// last_suspect_try`: a shopper's mistype has paid by then), not the review's time, so
    /// the hold runs from the bot's last new try even while the window still holds its
    /// older ones, and a share whose newest such try is older than the hold raises nothing;
    /// for the surge, now.
    pub async fn review_alert(&self, now: OffsetDateTime) -> StoreResult<AlertReview> {
        let alert = &self.configured.alert;
        let since = |span: std::time::Duration| {
            now.saturating_sub(time::Duration::try_from(span).unwrap_or(time::Duration::ZERO))
        };
        let tally = self.store.try_tally(since(alert.window)).await?;
        let pace = self.store.try_pace(since(alert.surge_window), now).await?;
        let suspected = match suspects(&tally, &pace, alert) {
            Some(AlertCause::Surge) => Some((AlertCause::Surge, now)),
            Some(cause) => match self
                .store
                .last_suspect_try(since(alert.window), since(SETTLED))
                .await?
            {
                // Nothing new of the attack for the hold time: it holds the alert no more.
                Some(seen) if seen < since(alert.hold) => None,
                Some(seen) => Some((cause, seen)),
                // Only tries too recent to judge: the share may raise an alert (seen at its
                // start), not keep one seen.
                None => Some((cause, since(alert.window))),
            },
            None => None,
        };
        if let Some((cause, seen)) = suspected {
            let raised = CardTestingAlert {
                id: format!("ct_{}", uuid::Uuid::new_v4().simple()),
                started_at: now,
                last_seen_at: seen,
                ended_at: None,
                tally,
                window: alert.window,
                cause: Some(cause),
            };
            if let Some(open) = self.store.raise_card_testing_alert(&raised).await?
                && open.id == raised.id
            {
                metric::raised();
                tracing::warn!(
                    alert_id = %open.id,
                    cause = cause.as_str(),
                    tries = tally.tries,
                    declined = tally.declined,
                    blocked = tally.blocked,
                    switched = tally.switched,
                    surge_tries = pace.recent,
                    busiest_quarter_hour = pace.busiest_quarter_hour,
                    "card testing suspected: the card-testing limits are tightened"
                );
                self.watch.set_open(true);
                return Ok(AlertReview::Raised(open));
            }
        }
        let review = if let Some(ended) = self
            .store
            .end_card_testing_alert(since(alert.hold), now)
            .await?
        {
            metric::ended();
            tracing::info!(alert_id = %ended.id, "card-testing alert ended: the ordinary limits apply again");
            AlertReview::Ended(ended)
        } else {
            match self.store.open_card_testing_alert().await? {
                Some(open) => AlertReview::Open(open),
                None => AlertReview::Quiet,
            }
        };
        self.watch.set_open(matches!(review, AlertReview::Open(_)));
        Ok(review)
    }

    /// After a try was judged, or ended in `state`: a try (`None`), a block or a decline asks
    /// for a review. One reviewer task per instance answers, at most once a
    /// [`REVIEW_SPACING`], the last ask included; the caller does not wait for it.
    pub fn after_try(&self, state: Option<PaymentState>) {
        let counts = state
            .is_none_or(|state| matches!(state, PaymentState::Blocked | PaymentState::Declined));
        if !counts || !self.watch.ask() {
            return;
        }
        let service = self.clone();
        tokio::spawn(async move {
            while service.watch.next() {
                if let Err(error) = service.review_alert(OffsetDateTime::now_utc()).await {
                    tracing::warn!(%error, "card-testing alert: cannot review the store's tries");
                }
                tokio::time::sleep(REVIEW_SPACING).await;
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn asks_meet_one_reviewer_and_none_is_lost() {
        let watch = AlertWatch::default();
        assert!(watch.ask(), "the first ask starts the reviewer");
        assert!(!watch.ask(), "one reviewer at a time");
        assert!(watch.next(), "it reviews");
        assert!(!watch.next(), "nothing asked since: it stops");
        assert!(watch.ask(), "a later ask starts it again");
        assert!(watch.next());
        assert!(!watch.ask(), "asked while it runs");
        assert!(watch.next(), "that ask gets its review");
        assert!(!watch.next());
    }
}
