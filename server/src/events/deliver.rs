//! The delivery worker: a background task beside the reconciler that sends the outbox's events
//! to the shop's endpoints. Never inline in a request: a slow or dead endpoint holds neither a
//! payment nor another endpoint.
//!
//! Each pass ([`Deliverer::run_once`], or the loop [`spawn`] runs):
//!
//! 1. fans out the events not yet fanned out (one delivery per enabled endpoint taking the
//!    type), counting them by type for the metrics;
//! 2. claims due deliveries with a lease in this instance's name, as many as it has free
//!    sending slots ([`CONCURRENCY`]), leaving out the endpoints it already sends to as much
//!    as one endpoint may ([`PER_ENDPOINT`]): a dead endpoint holds at most that many slots.
//!    The store gives only the first pending delivery of each object per endpoint, so an
//!    object's events arrive in order while objects go in parallel;
//! 3. sends each (rendered by [`render`], signed by [`sign`], posted by the SSRF-guarded
//!    [`WebhookClient`]) and records the attempts in batches (`finish_deliveries`): delivered
//!    on 2xx, otherwise retried with [`backoff`] until three days after the delivery was
//!    created, then failed; an endpoint failing every attempt for three days is disabled, with the
//!    reason the API shows;
//! 4. about hourly, prunes events older than [`KEEP_EVENTS`].
//!
//! The loop passes every `WEBHOOK_DELIVERY_INTERVAL_MS` (250 ms) when idle and again as soon as
//! half its slots are free after a claim that came back full; sends do not wait for each
//! other, so one slow answer delays nothing else. Several instances on one database share the
//! work through the leases; a SIGKILLed instance's deliveries are claimed again when their
//! lease runs out (at least once: a receiver de-duplicates on `webhook-id`), and
//! `finish_deliveries` only records for the lease's holder.
//!
//! Time comes from a [`Clock`] (the system's, which tests move forward); the signature's
//! `webhook-timestamp` is always the system's, since the shop checks it against its own clock.

use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use time::OffsetDateTime;
use tokio::sync::{Semaphore, mpsc, oneshot};
use tokio::task::{JoinError, JoinHandle, JoinSet};
use tokio_util::sync::CancellationToken;

use super::client::{Answer, ClientLimits, WebhookClient};
use super::{backoff, render, sign};
use crate::config::{CONFIG_ENDPOINT_ID, Config, ConfiguredEndpoint, PlanCatalogue};
use crate::metrics::events::{self as metric, Outcome};
use crate::store::model::{
    DeliveryOutcome, DueDelivery, EndpointStatus, EndpointUpdate, EventTypes, FinishedAttempt,
    NewDeliveryAttempt, NewEndpoint,
};
use crate::store::traits::EventStore;
use crate::store::{Store, StoreError};

/// Most deliveries one instance sends at once.
pub const CONCURRENCY: usize = 32;
/// Most deliveries one instance sends to one endpoint at once.
pub const PER_ENDPOINT: usize = 16;
/// Most events one fan-out handles.
pub const FAN_OUT_BATCH: u32 = 1_000;
/// How long events are kept.
pub const KEEP_EVENTS: time::Duration = time::Duration::days(30);
/// How often old events are pruned.
pub const PRUNE_EVERY: Duration = Duration::from_secs(3_600);
/// Most attempts recorded in one transaction.
pub const RECORD_BATCH: usize = 64;
/// How long the loop waits for its sends at shutdown before leaving them to the leases.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(3);

/// The worker's clock: the system's, moved by an offset tests set. Clones share the offset.
#[derive(Clone, Debug, Default)]
pub struct Clock {
    offset_ms: Arc<AtomicI64>,
}

impl Clock {
    /// Now, as this clock tells it.
    pub fn now(&self) -> OffsetDateTime {
        let offset = time::Duration::milliseconds(self.offset_ms.load(Ordering::Relaxed));
        OffsetDateTime::now_utc().saturating_add(offset)
    }

    /// Moves the clock forward by `by` (backward when negative).
    pub fn advance(&self, by: time::Duration) {
        let millis = i64::try_from(by.whole_milliseconds()).unwrap_or(i64::MAX);
        self.offset_ms.fetch_add(millis, Ordering::Relaxed);
    }
}

/// How the worker paces itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeliverySettings {
    /// The pause between passes when idle (`WEBHOOK_DELIVERY_INTERVAL_MS`).
    pub interval: Duration,
    /// Most sends at once.
    pub concurrency: usize,
    /// Most sends at once to one endpoint.
    pub per_endpoint: usize,
    /// The client's timeouts and answer size.
    pub limits: ClientLimits,
    /// How long a claim holds: one whole exchange, recording it, and room to spare.
    pub lease: time::Duration,
}

impl DeliverySettings {
    /// The settings `config` gives.
    pub fn from_config(config: &Config) -> Self {
        let limits = ClientLimits::default();
        Self {
            interval: config.webhooks.delivery_interval,
            concurrency: CONCURRENCY,
            per_endpoint: PER_ENDPOINT,
            limits,
            lease: lease_for(&limits),
        }
    }
}

/// A lease covering one whole exchange under `limits` twice over, and ten seconds to record it.
pub fn lease_for(limits: &ClientLimits) -> time::Duration {
    let span = limits
        .timeout
        .saturating_mul(2)
        .saturating_add(Duration::from_secs(10));
    time::Duration::try_from(span).unwrap_or(time::Duration::MINUTE)
}

/// What the worker works with.
#[derive(Clone)]
pub struct DeliveryServices {
    /// The database.
    pub store: Arc<dyn Store>,
    /// The plans (a subscription event names its plan's terms).
    pub plans: PlanCatalogue,
    /// The client events go out with.
    pub client: WebhookClient,
    /// Pace and limits.
    pub settings: DeliverySettings,
    /// Its clock.
    pub clock: Clock,
}

impl DeliveryServices {
    /// The services for a server with `config` over `store`, on the system clock.
    pub fn new(store: Arc<dyn Store>, config: &Config) -> Result<Self, reqwest::Error> {
        Self::with_settings(
            store,
            config,
            DeliverySettings::from_config(config),
            config.webhooks.allow_private,
        )
    }

    /// The same with other `settings` and address rule (tests).
    pub fn with_settings(
        store: Arc<dyn Store>,
        config: &Config,
        settings: DeliverySettings,
        allow_private: bool,
    ) -> Result<Self, reqwest::Error> {
        Ok(Self {
            store,
            plans: config.plans.clone(),
            client: WebhookClient::new(allow_private, settings.limits)?,
            settings,
            clock: Clock::default(),
        })
    }
}

/// What one pass did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PassReport {
    /// Events fanned out.
    pub fanned_out: u64,
    /// Deliveries claimed and sent.
    pub claimed: usize,
    /// Delivered (2xx).
    pub delivered: usize,
    /// Failed, to be tried again.
    pub retried: usize,
    /// Failed for the last time.
    pub failed: usize,
    /// Endpoints disabled after failing for days.
    pub disabled: usize,
    /// Attempts not recorded (the lease was lost, or the store failed): tried again later.
    pub unrecorded: usize,
    /// Events pruned.
    pub pruned: u64,
    /// Whether a claim or the fan-out came back full: more is likely due at once.
    pub full: bool,
    /// Whether endpoints this worker sends to as much as it may were left out of the claim.
    pub held_back: bool,
}

impl PassReport {
    fn add(&mut self, other: &PassReport) {
        self.fanned_out += other.fanned_out;
        self.claimed += other.claimed;
        self.delivered += other.delivered;
        self.retried += other.retried;
        self.failed += other.failed;
        self.disabled += other.disabled;
        self.unrecorded += other.unrecorded;
        self.pruned += other.pruned;
        self.full |= other.full;
        self.held_back |= other.held_back;
    }
}

/// One delivery worker: what it works with, the name its leases carry, its sending slots.
#[derive(Clone)]
pub struct Deliverer {
    inner: Arc<Inner>,
}

struct Inner {
    services: DeliveryServices,
    owner: String,
    slots: Arc<Semaphore>,
    /// Sends in flight per endpoint.
    busy: Mutex<HashMap<String, usize>>,
    last_prune: Mutex<Option<Instant>>,
    /// The task recording attempts in batches ([`record_batches`]), started on first use.
    recorder: std::sync::OnceLock<mpsc::UnboundedSender<Recording>>,
}

/// An attempt to record, and where to say whether it was.
type Recording = (FinishedAttempt, oneshot::Sender<Result<bool, String>>);

/// Records the attempts sent to it, as many at a time as are waiting (up to
/// [`RECORD_BATCH`]) in one transaction: one commit, not one per delivery. Ends when every
/// sender is gone.
async fn record_batches(
    store: Arc<dyn Store>,
    owner: String,
    mut waiting: mpsc::UnboundedReceiver<Recording>,
) {
    let mut batch = Vec::with_capacity(RECORD_BATCH);
    while waiting.recv_many(&mut batch, RECORD_BATCH).await > 0 {
        let (attempts, replies): (Vec<_>, Vec<_>) = batch.drain(..).unzip();
        match store.finish_deliveries(&owner, attempts).await {
            Ok(recorded) => {
                let recorded = recorded.into_iter().chain(std::iter::repeat(false));
                for (reply, held) in replies.into_iter().zip(recorded) {
                    let _ = reply.send(Ok(held));
                }
            }
            Err(error) => {
                let error = error.to_string();
                for reply in replies {
                    let _ = reply.send(Err(error.clone()));
                }
            }
        }
    }
}

/// Takes an endpoint's place among the sends in flight; gives it back when dropped (also when
/// the send's task is aborted).
struct EndpointSlot {
    deliverer: Deliverer,
    endpoint_id: String,
}

impl Drop for EndpointSlot {
    fn drop(&mut self) {
        let mut busy = self.deliverer.busy();
        if let Some(count) = busy.get_mut(&self.endpoint_id) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                busy.remove(&self.endpoint_id);
            }
        }
    }
}

impl Deliverer {
    /// A worker leasing as `owner` (a server uses `webhooks-<instance id>`).
    pub fn new(services: DeliveryServices, owner: impl Into<String>) -> Self {
        let slots = Arc::new(Semaphore::new(services.settings.concurrency.max(1)));
        Self {
            inner: Arc::new(Inner {
                services,
                owner: owner.into(),
                slots,
                busy: Mutex::new(HashMap::new()),
                last_prune: Mutex::new(None),
                recorder: std::sync::OnceLock::new(),
            }),
        }
    }

    /// The name its leases carry.
    pub fn owner(&self) -> &str {
        &self.inner.owner
    }

    /// Its clock (tests move it).
    pub fn clock(&self) -> &Clock {
        &self.inner.services.clock
    }

    fn services(&self) -> &DeliveryServices {
        &self.inner.services
    }

    /// Records `attempt` with the others waiting; whether this worker still held the lease.
    async fn record(&self, attempt: FinishedAttempt) -> Result<bool, String> {
        let recorder = self.inner.recorder.get_or_init(|| {
            let (sender, waiting) = mpsc::unbounded_channel();
            let store = self.services().store.clone();
            tokio::spawn(record_batches(store, self.owner().to_owned(), waiting));
            sender
        });
        let (reply, answer) = oneshot::channel();
        recorder
            .send((attempt, reply))
            .map_err(|_| "the recorder stopped".to_owned())?;
        answer
            .await
            .unwrap_or_else(|_| Err("the recorder stopped".to_owned()))
    }

    fn busy(&self) -> std::sync::MutexGuard<'_, HashMap<String, usize>> {
        self.inner
            .busy
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// One pass now: fan out, claim, send every claimed delivery and wait for them all,
    /// prune when due.
    pub async fn run_once(&self) -> PassReport {
        let mut sends = JoinSet::new();
        let mut report = self.dispatch(&mut sends, true).await;
        while let Some(joined) = sends.join_next().await {
            report.add(&joined_report(joined));
        }
        report.pruned = self.prune_if_due().await;
        report
    }

    /// Fans out, claims as many deliveries as there are free slots and starts sending them
    /// into `sends`; the report counts what was fanned out and claimed.
    async fn dispatch(&self, sends: &mut JoinSet<PassReport>, fan_out: bool) -> PassReport {
        let services = self.services();
        let store = services.store.as_ref();
        let now = services.clock.now();
        let mut report = PassReport::default();
        if fan_out {
            match store.fan_out_event_types(now, FAN_OUT_BATCH).await {
                Ok(types) => {
                    for (kind, count) in types {
                        metric::fanned_out(&kind, count);
                        report.fanned_out += count;
                    }
                    report.full = report.fanned_out >= u64::from(FAN_OUT_BATCH);
                }
                Err(error) => tracing::error!(%error, "event delivery: cannot fan out events"),
            }
        }
        let free = self.inner.slots.available_permits();
        if free == 0 {
            return report;
        }
        let per_endpoint = services.settings.per_endpoint.max(1);
        let (saturated, busiest) = {
            let busy = self.busy();
            let saturated: Vec<String> = busy
                .iter()
                .filter(|(_, count)| **count >= per_endpoint)
                .map(|(endpoint, _)| endpoint.clone())
                .collect();
            let busiest = busy
                .values()
                .copied()
                .filter(|count| *count < per_endpoint)
                .max()
                .unwrap_or(0);
            (saturated, busiest)
        };
        report.held_back = !saturated.is_empty();
        // No more than any endpoint still may take, so a claim never overshoots one.
        let room = free.min(per_endpoint - busiest).max(1);
        let limit = u32::try_from(room).unwrap_or(u32::MAX);
        let lease = services.settings.lease;
        let claimed = match store
            .claim_deliveries_except(self.owner(), now, lease, limit, &saturated)
            .await
        {
            Ok(claimed) => claimed,
            Err(error) => {
                tracing::error!(%error, "event delivery: cannot claim deliveries");
                return report;
            }
        };
        report.full |= claimed.len() >= room;
        for due in claimed {
            let Some(slot) = self.take_slot(&due.endpoint_id, per_endpoint) else {
                // This endpoint has as many sends as it may (or no slot is left): give the
                // delivery back for a later pass.
                self.release(&due).await;
                continue;
            };
            let Ok(permit) = self.inner.slots.clone().try_acquire_owned() else {
                drop(slot);
                self.release(&due).await;
                continue;
            };
            report.claimed += 1;
            let deliverer = self.clone();
            sends.spawn(async move {
                let _held = (permit, slot);
                deliverer.deliver(due).await
            });
        }
        report
    }

    fn take_slot(&self, endpoint_id: &str, per_endpoint: usize) -> Option<EndpointSlot> {
        let mut busy = self.busy();
        let count = busy.entry(endpoint_id.to_owned()).or_insert(0);
        if *count >= per_endpoint {
            return None;
        }
        *count += 1;
        drop(busy);
        Some(EndpointSlot {
            deliverer: self.clone(),
            endpoint_id: endpoint_id.to_owned(),
        })
    }

    async fn release(&self, due: &DueDelivery) {
        let store = self.services().store.as_ref();
        if let Err(error) = store
            .release_delivery(self.owner(), &due.endpoint_id, due.event.seq)
            .await
        {
            // The lease runs out by itself.
            tracing::warn!(%error, endpoint = %due.endpoint_id, "event delivery: cannot give a lease back");
        }
    }

    /// Sends one delivery and records the attempt; the report counts what became of it.
    async fn deliver(&self, due: DueDelivery) -> PassReport {
        let services = self.services();
        let mut report = PassReport::default();
        let body = render(&due.event, &services.plans)
            .map_err(|error| format!("the event cannot be rendered: {error}"))
            .and_then(|body| {
                serde_json::to_vec(&body)
                    .map_err(|error| format!("the event cannot be serialised: {error}"))
            });
        let attempted_at = services.clock.now();
        let (answer, unsendable) = match body {
            Ok(body) => (self.send(&due, body).await, false),
            // A snapshot that cannot be read now never will be: give up at once.
            Err(reason) => (Answer::failed(reason), true),
        };
        let delivered = answer.delivered();
        let outcome = if delivered {
            DeliveryOutcome::Delivered
        } else if unsendable {
            DeliveryOutcome::GiveUp
        } else {
            backoff::after_failure(
                due.attempts.saturating_add(1),
                due.created_at,
                attempted_at,
                backoff::jitter(),
            )
        };
        let attempt = NewDeliveryAttempt {
            attempted_at,
            duration_us: i64::try_from(answer.duration.as_micros()).unwrap_or(i64::MAX),
            status_code: answer.status,
            error: answer.error.clone(),
        };
        let recorded = self
            .record(FinishedAttempt {
                endpoint_id: due.endpoint_id.clone(),
                event_seq: due.event.seq,
                attempt,
                outcome,
            })
            .await;
        let counted = match outcome {
            DeliveryOutcome::Delivered => Outcome::Delivered,
            DeliveryOutcome::RetryAt(_) => Outcome::Retried,
            DeliveryOutcome::GiveUp => Outcome::Failed,
        };
        match recorded {
            Ok(true) => {
                metric::attempt(counted, answer.duration);
                match counted {
                    Outcome::Delivered => report.delivered += 1,
                    Outcome::Retried => report.retried += 1,
                    Outcome::Failed => report.failed += 1,
                }
                if !delivered {
                    tracing::info!(
                        endpoint = %due.endpoint_id,
                        event = %due.event.id,
                        attempt = due.attempts + 1,
                        status = answer.status,
                        error = answer.error.as_deref(),
                        outcome = ?outcome,
                        "event delivery failed"
                    );
                }
            }
            Ok(false) => {
                tracing::warn!(
                    endpoint = %due.endpoint_id,
                    event = %due.event.id,
                    "event delivery: the lease ran out before the attempt was recorded"
                );
                report.unrecorded += 1;
            }
            Err(error) => {
                tracing::error!(
                    %error,
                    endpoint = %due.endpoint_id,
                    event = %due.event.id,
                    "event delivery: cannot record an attempt (sent again when the lease runs out)"
                );
                report.unrecorded += 1;
            }
        }
        if !delivered && backoff::disable(due.failing_since, attempted_at) {
            report.disabled += usize::from(self.disable(&due).await);
        }
        report
    }

    /// Signs and posts `body`.
    async fn send(&self, due: &DueDelivery, body: Vec<u8>) -> Answer {
        // The shop compares the signed time with its own clock: always the system's.
        let timestamp = OffsetDateTime::now_utc().unix_timestamp();
        let signature = match sign::signature(&due.secrets, &due.event.id, timestamp, &body) {
            Ok(signature) => signature,
            Err(error) => return Answer::failed(error.to_string()),
        };
        let mut headers = HeaderMap::new();
        for (name, value) in [
            ("webhook-id", due.event.id.clone()),
            ("webhook-timestamp", timestamp.to_string()),
            ("webhook-signature", signature),
        ] {
            match HeaderValue::from_str(&value) {
                Ok(value) => {
                    headers.insert(HeaderName::from_static(name), value);
                }
                Err(_) => return Answer::failed(format!("{name} is not a valid header value")),
            }
        }
        self.services().client.post(&due.url, headers, body).await
    }

    /// Disables an endpoint that has failed every attempt for days; whether it did.
    async fn disable(&self, due: &DueDelivery) -> bool {
        let since = due
            .failing_since
            .and_then(|since| {
                since
                    .format(&time::format_description::well_known::Rfc3339)
                    .ok()
            })
            .unwrap_or_default();
        let reason = format!(
            "every delivery has failed since {since} ({} days): disabled automatically",
            backoff::DISABLE_AFTER.whole_days()
        );
        let update = EndpointUpdate {
            status: Some((EndpointStatus::Disabled, Some(reason))),
            ..EndpointUpdate::default()
        };
        match self
            .services()
            .store
            .update_endpoint(&due.endpoint_id, update)
            .await
        {
            Ok(Some(_)) => {
                tracing::warn!(endpoint = %due.endpoint_id, "webhook endpoint disabled after failing for days");
                true
            }
            Ok(None) => false,
            Err(error) => {
                tracing::error!(%error, endpoint = %due.endpoint_id, "cannot disable a failing webhook endpoint");
                false
            }
        }
    }

    /// Prunes old events when the last pruning is an hour old (or never happened); how many.
    async fn prune_if_due(&self) -> u64 {
        {
            let mut last = self
                .inner
                .last_prune
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            if last.is_some_and(|at| at.elapsed() < PRUNE_EVERY) {
                return 0;
            }
            *last = Some(Instant::now());
        }
        let services = self.services();
        let before = services.clock.now().saturating_sub(KEEP_EVENTS);
        match services.store.prune_events(before).await {
            Ok(pruned) => {
                if pruned > 0 {
                    tracing::info!(pruned, "events older than 30 days pruned");
                }
                pruned
            }
            Err(error) => {
                tracing::error!(%error, "cannot prune old events");
                0
            }
        }
    }
}

fn joined_report(joined: Result<PassReport, JoinError>) -> PassReport {
    match joined {
        Ok(report) => report,
        Err(error) => {
            tracing::error!(%error, "event delivery task failed");
            PassReport {
                unrecorded: 1,
                ..PassReport::default()
            }
        }
    }
}

/// Runs `deliverer` until `stop` is cancelled: a pass at once, then one every interval when
/// idle, or as soon as half the slots are free after a full claim. At `stop` it waits up to
/// [`SHUTDOWN_GRACE`] for the sends in flight; what is cut off then is sent again once its
/// lease runs out (by this instance's successor or another).
pub fn spawn(deliverer: Deliverer, stop: CancellationToken) -> JoinHandle<()> {
    tokio::spawn(async move {
        let settings = deliverer.services().settings;
        tracing::info!(
            owner = deliverer.owner(),
            interval_ms = settings.interval.as_millis(),
            "event delivery started"
        );
        let mut sends: JoinSet<PassReport> = JoinSet::new();
        let mut last_fan_out: Option<Instant> = None;
        let mut more_to_fan_out = false;
        loop {
            while let Some(joined) = sends.try_join_next() {
                joined_report(joined);
            }
            // Passes between sends fan out only when the last fan-out is an interval old
            // (or came back full): new events wait at most that long.
            let fan_out = last_fan_out.is_none_or(|at: Instant| at.elapsed() >= settings.interval)
                || more_to_fan_out;
            let pass = deliverer.dispatch(&mut sends, fan_out).await;
            if fan_out {
                last_fan_out = Some(Instant::now());
                more_to_fan_out = pass.fanned_out >= u64::from(FAN_OUT_BATCH);
            }
            deliverer.prune_if_due().await;
            let idle = tokio::time::sleep(settings.interval);
            tokio::pin!(idle);
            // After a full claim: go again once half the slots are free. With endpoints held
            // back: once half of one endpoint's sends are done. Otherwise at the interval.
            let enough = settings.per_endpoint.max(2) / 2;
            let mut finished = 0;
            loop {
                let half_free =
                    deliverer.inner.slots.available_permits() * 2 >= settings.concurrency.max(1);
                if pass.full && (sends.is_empty() || half_free) {
                    break;
                }
                if pass.held_back && finished >= enough {
                    break;
                }
                tokio::select! {
                    () = stop.cancelled() => break,
                    () = &mut idle, if !pass.full => break,
                    Some(joined) = sends.join_next(), if !sends.is_empty() => {
                        joined_report(joined);
                        finished += 1;
                    }
                }
            }
            if stop.is_cancelled() {
                break;
            }
        }
        let drained = tokio::time::timeout(SHUTDOWN_GRACE, async {
            while let Some(joined) = sends.join_next().await {
                joined_report(joined);
            }
        })
        .await;
        if drained.is_err() {
            tracing::warn!(
                in_flight = sends.len(),
                "stopping with event deliveries in flight; they are sent again when their leases run out"
            );
            sends.abort_all();
        }
        tracing::info!("event delivery stopped");
    })
}

/// Creates the endpoint `MERCHANT_WEBHOOK_URL` names (id [`CONFIG_ENDPOINT_ID`], every event
/// type), or brings it in line with the configuration: its URL, all types, its secret (replaced
/// at once, no overlap). A changed URL or secret enables it again (the operator fixed it).
pub async fn configure_endpoint(
    store: &dyn EventStore,
    configured: &ConfiguredEndpoint,
) -> Result<(), StoreError> {
    use secrecy::ExposeSecret as _;
    for round in 0..2 {
        let Some(existing) = store.get_endpoint(CONFIG_ENDPOINT_ID).await? else {
            let new = NewEndpoint {
                id: CONFIG_ENDPOINT_ID.to_owned(),
                url: configured.url.clone(),
                description: Some("MERCHANT_WEBHOOK_URL".to_owned()),
                event_types: EventTypes::All,
                secret: configured.secret.clone(),
            };
            match store.create_endpoint(new).await {
                Ok(_) => {
                    tracing::info!(
                        endpoint = CONFIG_ENDPOINT_ID,
                        "webhook endpoint created from MERCHANT_WEBHOOK_URL"
                    );
                    return Ok(());
                }
                // Another instance starting at the same moment created it: update that one.
                Err(error) if round == 0 => {
                    tracing::debug!(%error, "the configured webhook endpoint exists already");
                    continue;
                }
                Err(error) => return Err(error),
            }
        };
        let new_secret = existing.secret.expose_secret() != configured.secret.expose_secret();
        let moved = existing.url != configured.url;
        if new_secret {
            store
                .rotate_endpoint_secret(
                    CONFIG_ENDPOINT_ID,
                    configured.secret.clone(),
                    OffsetDateTime::now_utc(),
                )
                .await?;
        }
        let reenable = (new_secret || moved) && existing.status == EndpointStatus::Disabled;
        if moved || existing.event_types != EventTypes::All || reenable {
            let update = EndpointUpdate {
                url: moved.then(|| configured.url.clone()),
                event_types: Some(EventTypes::All),
                status: reenable.then_some((EndpointStatus::Enabled, None)),
                ..EndpointUpdate::default()
            };
            store.update_endpoint(CONFIG_ENDPOINT_ID, update).await?;
        }
        if existing.status == EndpointStatus::Disabled && !reenable {
            tracing::warn!(
                endpoint = CONFIG_ENDPOINT_ID,
                reason = existing.disabled_reason.as_deref(),
                "the webhook endpoint MERCHANT_WEBHOOK_URL names is disabled; enable it through the API"
            );
        }
        return Ok(());
    }
    Err(StoreError::Invalid {
        field: "MERCHANT_WEBHOOK_URL",
        reason: "the configured endpoint could be neither created nor read",
    })
}
