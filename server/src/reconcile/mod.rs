//! The reconciler: a background task that, every `RECONCILE_INTERVAL_SECONDS`,
//!
//! - settles through the status endpoint every unsettled payment whose gateway id is known
//!   (lost webhook, shopper who never came back from 3DS) — [`payments`];
//! - moves a payment whose gateway id was never learned to `needs_review` once its deadline
//!   (`PAYMENT_REVIEW_AFTER_SECONDS`) has passed. It never sends a payment again: an outcome
//!   that cannot be looked up is for a person to resolve (gateway-notes.md, "Finding a
//!   transaction again");
//! - polls live subscriptions and records new cycles and failed charges (the gateway sends no
//!   webhook for them) — [`subscriptions`];
//! - finds the subscription a sign-up made whose answer was lost, in the gateway's list, or
//!   proves it made none — [`signups`];
//! - compares the gateway's whole subscription list with the store every
//!   `SUBSCRIPTION_LIST_CHECK_SECONDS` and records what the gateway bills and the store lacks
//!   for review — [`gateway_list`];
//! - deletes the dashboard's expired staff sessions and login challenges — [`staff_sweep`];
//! - folds the dashboard rollup's per-connection shards of past slots — [`rollup`];
//! - reverses a second charge of one session that is still due (the process that recorded it
//!   died, or the gateway refused the reversal) — [`surplus`];
//! - reads the card-testing thresholds an admin set in the dashboard, and reviews the
//!   card-testing alert: joins one another instance raised, ends one whose trigger stopped
//!   holding (`risk::alert`).
//!
//! Several instances may share one Postgres database: each pass claims its rows with a lease
//! (`FOR UPDATE SKIP LOCKED`), so no two instances work on the same row at once, and every
//! state step is a compare-and-set besides, so even an expired lease cannot apply an outcome
//! twice.

pub mod gateway_list;
pub mod payments;
pub mod rollup;
pub mod signup_outcomes;
pub mod signups;
pub mod staff_sweep;
pub mod subscriptions;
pub mod surplus;

use std::sync::Arc;
use std::time::Duration;

use time::OffsetDateTime;
use tokio::task::{JoinHandle, JoinSet};

use crate::config::Config;
use crate::gateway::GatewayClient;
use crate::metrics::reconcile::{self as metric, Event};
use crate::payments::PaymentService;
use crate::store::Store;
use crate::subscriptions::Subscriptions;

/// Most rows one pass claims of each kind; a full batch starts another pass at once.
pub const BATCH: u32 = 32;

/// What a reconciler works with: the server's configuration, store, gateway and payment
/// service (the same ones its API uses).
#[derive(Clone)]
pub struct ReconcileServices {
    /// The configuration the server started with.
    pub config: Config,
    /// The database.
    pub store: Arc<dyn Store>,
    /// The gateway client.
    pub gateway: GatewayClient,
    /// Payments (settling through the status endpoint).
    pub payments: PaymentService,
}

impl ReconcileServices {
    /// The subscription operations over the same store, gateway and plans.
    pub fn subscriptions(&self) -> Subscriptions<'_> {
        Subscriptions::new(
            self.store.as_ref(),
            &self.gateway,
            &self.config.plans,
            self.config.ops.subscription_poll,
        )
    }
}

/// One reconciler: what it works with and the name its leases carry.
#[derive(Clone)]
pub struct Reconciler {
    state: ReconcileServices,
    owner: String,
}

/// What one pass did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PassReport {
    /// Payments claimed and looked at.
    pub payments_checked: usize,
    /// Payments a status lookup settled (approved or declined).
    pub payments_settled: usize,
    /// Payments moved to `needs_review`.
    pub payments_to_review: usize,
    /// Payments recorded but never sent, marked failed.
    pub payments_abandoned: usize,
    /// Subscriptions polled.
    pub subscriptions_polled: usize,
    /// New paid cycles recorded.
    pub cycles_paid: usize,
    /// New failed cycles recorded.
    pub cycles_failed: usize,
    /// Lookups or polls that failed (retried on a later pass).
    pub failures: usize,
    /// Expired staff sessions and login challenges deleted.
    pub swept: staff_sweep::Swept,
    /// Surplus charges voided or refunded.
    pub surplus_reversed: usize,
    /// The rollup's shard rows folded.
    pub rollup_folded: u64,
    /// Sign-ups whose answer was lost, found in the gateway's list and recorded.
    pub signups_recorded: usize,
    /// Sign-ups whose answer was lost that made no subscription (failed).
    pub signups_failed: usize,
    /// Sign-ups whose answer was lost that could not be told apart (to review).
    pub signups_to_review: usize,
    /// Subscriptions the gateway bills that the store lacked, recorded for review.
    pub subscriptions_found: usize,
}

impl PassReport {
    fn add(&mut self, other: &PassReport) {
        self.payments_checked += other.payments_checked;
        self.payments_settled += other.payments_settled;
        self.payments_to_review += other.payments_to_review;
        self.payments_abandoned += other.payments_abandoned;
        self.subscriptions_polled += other.subscriptions_polled;
        self.cycles_paid += other.cycles_paid;
        self.cycles_failed += other.cycles_failed;
        self.failures += other.failures;
        self.swept.sessions += other.swept.sessions;
        self.swept.challenges += other.swept.challenges;
        self.surplus_reversed += other.surplus_reversed;
        self.rollup_folded += other.rollup_folded;
        self.signups_recorded += other.signups_recorded;
        self.signups_failed += other.signups_failed;
        self.signups_to_review += other.signups_to_review;
        self.subscriptions_found += other.subscriptions_found;
    }

    fn is_quiet(&self) -> bool {
        *self == PassReport::default()
    }
}

impl Reconciler {
    /// A reconciler leasing rows as this process (`PaymentService::instance_id`).
    pub fn new(state: ReconcileServices) -> Self {
        let owner = format!("reconciler-{}", state.payments.instance_id());
        Self { state, owner }
    }

    /// A reconciler with its own lease name (a second instance in tests).
    pub fn with_owner(state: ReconcileServices, owner: impl Into<String>) -> Self {
        Self {
            state,
            owner: owner.into(),
        }
    }

    /// The name its leases carry.
    pub fn owner(&self) -> &str {
        &self.owner
    }

    /// One pass now.
    pub async fn run_once(&self) -> PassReport {
        self.run_once_at(OffsetDateTime::now_utc()).await
    }

    /// One pass as if it were `now` (deadlines and due times are compared with it).
    pub async fn run_once_at(&self, now: OffsetDateTime) -> PassReport {
        let mut report = PassReport::default();
        report.add(&self.payment_batch(now).await);
        report.add(&self.subscription_batch(now).await);
        report.add(&self.signup_batch(now).await);
        report.add(&self.list_check(now).await);
        report.add(&self.surplus_batch(now).await);
        report.swept = staff_sweep::sweep(self.state.store.as_ref(), now).await;
        report.rollup_folded = rollup::fold(self.state.store.as_ref(), now).await;
        let risk = self.state.payments.risk();
        if let Err(error) = risk.refresh_overrides().await {
            tracing::error!(%error, "reconciler: cannot read the card-testing thresholds set in the dashboard");
        }
        if let Err(error) = risk.review_alert(now).await {
            tracing::error!(%error, "reconciler: cannot review the card-testing alert");
        }
        metric::pass_finished(OffsetDateTime::now_utc().unix_timestamp());
        if !report.is_quiet() {
            tracing::info!(?report, "reconciler pass");
        }
        report
    }

    /// How long a claim holds: enough for one gateway call per row of a batch run in
    /// parallel, with room to spare.
    fn lease(&self) -> time::Duration {
        let timeout = self.state.config.gateway.timeout;
        let span = timeout
            .saturating_mul(3)
            .saturating_add(Duration::from_secs(30));
        time::Duration::try_from(span).unwrap_or(time::Duration::MINUTE)
    }

    async fn payment_batch(&self, now: OffsetDateTime) -> PassReport {
        let claimed = match self
            .state
            .store
            .claim_due_payments(now, &self.owner, self.lease(), BATCH)
            .await
        {
            Ok(claimed) => claimed,
            Err(error) => {
                tracing::error!(%error, "reconciler: cannot claim due payments");
                return PassReport::default();
            }
        };
        let mut tasks = JoinSet::new();
        for payment in claimed {
            let reconciler = self.clone();
            tasks.spawn(async move { reconciler.reconcile_payment(payment, now).await });
        }
        collect(tasks).await
    }

    async fn subscription_batch(&self, now: OffsetDateTime) -> PassReport {
        let claimed = match self
            .state
            .store
            .claim_due_subscriptions(now, &self.owner, self.lease(), BATCH)
            .await
        {
            Ok(claimed) => claimed,
            Err(error) => {
                tracing::error!(%error, "reconciler: cannot claim due subscriptions");
                return PassReport::default();
            }
        };
        let mut tasks = JoinSet::new();
        for subscription in claimed {
            let reconciler = self.clone();
            tasks.spawn(async move { reconciler.reconcile_subscription(subscription, now).await });
        }
        collect(tasks).await
    }
}

async fn collect(mut tasks: JoinSet<PassReport>) -> PassReport {
    let mut report = PassReport::default();
    while let Some(joined) = tasks.join_next().await {
        match joined {
            Ok(one) => report.add(&one),
            Err(error) => {
                tracing::error!(%error, "reconciler task failed");
                report.failures += 1;
            }
        }
    }
    report
}

/// Runs the reconciler every `interval` (first pass at once) until the task is aborted.
/// Aborting is safe at any point: leases expire and every step is a compare-and-set.
pub fn spawn(state: ReconcileServices, interval: Duration) -> JoinHandle<()> {
    let reconciler = Reconciler::new(state);
    tokio::spawn(async move {
        tracing::info!(
            interval_secs = interval.as_secs(),
            owner = reconciler.owner(),
            "reconciler started"
        );
        let mut ticker = tokio::time::interval(interval.max(Duration::from_millis(100)));
        ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticker.tick().await;
            let mut report = reconciler.run_once().await;
            // A full batch means more is due: keep going, a bounded number of times.
            for _ in 0..10 {
                if report.payments_checked < BATCH as usize
                    && report.subscriptions_polled < BATCH as usize
                {
                    break;
                }
                report = reconciler.run_once().await;
            }
        }
    })
}

/// Counts `event` `times` times in the metrics.
fn count(event: Event, times: usize) {
    for _ in 0..times {
        metric::count(event);
    }
}
