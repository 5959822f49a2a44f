//! The delivery worker: sends the outbox's events to the shop's endpoints, in the background
//! beside the reconciler (never inline in a request: a slow or dead endpoint holds neither a
//! payment nor another endpoint). [`run::spawn`](super::run::spawn) paces its passes.
//!
//! Each pass ([`Deliverer::run_once`], or one step of the loop):
//!
//! 1. fans out the events not yet fanned out (one delivery per enabled endpoint taking the
//!    type), counting them by type for the metrics;
//! 2. asks which enabled endpoints have deliveries due, and claims each one's, with a lease in
//!    this instance's name, as many as it has room for: at most
//!    [`PER_ENDPOINT`](super::services::PER_ENDPOINT) sends to one endpoint (a dead endpoint
//!    holds no more slots than that) and [`CONCURRENCY`](super::services::CONCURRENCY) in all,
//!    starting each pass with the next endpoint so none waits behind the others. The store
//!    gives only the first pending delivery of each object per endpoint, so an object's events
//!    arrive in order while objects go in parallel;
//! 3. sends each ([`send`]: rendered by [`render()`](super::render()), signed by
//!    [`sign`](super::sign), posted by the SSRF-guarded
//!    [`WebhookClient`](super::client::WebhookClient)) and records the attempts in batches
//!    ([`recorder`](super::recorder)): delivered on 2xx, otherwise retried with
//!    [`backoff`](super::backoff) until three days after the delivery was created, then
//!    failed; an endpoint failing every attempt for three days is disabled, with the reason the
//!    API shows;
//! 4. about hourly, prunes events older than [`KEEP_EVENTS`].
//!
//! Several instances on one database share the work through the leases; a SIGKILLed
//! instance's deliveries are claimed again when their lease runs out (at least once: a
//! receiver de-duplicates on `webhook-id`), and an attempt is recorded only for the lease's
//! holder.
//!
//! Time comes from the services' [`Clock`]; the signature's
//! `webhook-timestamp` is always the system's, since the shop checks it against its own clock.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use tokio::sync::{Semaphore, mpsc, oneshot};
use tokio::task::JoinSet;

mod send;

use super::recorder::{Recording, record_batches};
use super::report::{PassReport, joined_report};
use super::services::{Clock, DeliveryServices, DeliverySettings};
use crate::metrics::events as metric;
use crate::store::model::{DueDelivery, FinishedAttempt};

/// Most events one fan-out handles.
pub const FAN_OUT_BATCH: u32 = 1_000;
/// How long events are kept.
pub const KEEP_EVENTS: time::Duration = time::Duration::days(30);
/// How often old events are pruned.
pub const PRUNE_EVERY: Duration = Duration::from_secs(3_600);

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
    /// Passes so far: each starts claiming with the next due endpoint.
    passes: AtomicUsize,
    /// The task recording attempts in batches ([`record_batches`]), started on first use.
    recorder: std::sync::OnceLock<mpsc::UnboundedSender<Recording>>,
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
                passes: AtomicUsize::new(0),
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

    /// Its pace and limits.
    pub fn settings(&self) -> DeliverySettings {
        self.inner.services.settings
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

    /// Fans out (when `fan_out`), claims each due endpoint's deliveries as far as there is
    /// room and starts sending them into `sends`; the report counts what was fanned out and
    /// claimed.
    pub(super) async fn dispatch(
        &self,
        sends: &mut JoinSet<PassReport>,
        fan_out: bool,
    ) -> PassReport {
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
        if self.inner.slots.available_permits() == 0 {
            return report;
        }
        let endpoints = match store.due_endpoints(now).await {
            Ok(endpoints) => endpoints,
            Err(error) => {
                tracing::error!(%error, "event delivery: cannot find the endpoints with deliveries due");
                return report;
            }
        };
        let first = self.inner.passes.fetch_add(1, Ordering::Relaxed) % endpoints.len().max(1);
        let per_endpoint = services.settings.per_endpoint.max(1);
        for endpoint_id in endpoints[first..].iter().chain(&endpoints[..first]) {
            let free = self.inner.slots.available_permits();
            if free == 0 {
                break;
            }
            let sending = self.busy().get(endpoint_id).copied().unwrap_or(0);
            let room = per_endpoint.saturating_sub(sending).min(free);
            if room == 0 {
                report.held_back = true;
                continue;
            }
            let limit = u32::try_from(room).unwrap_or(u32::MAX);
            let claimed = match store
                .claim_endpoint_deliveries(
                    self.owner(),
                    endpoint_id,
                    now,
                    services.settings.lease,
                    limit,
                )
                .await
            {
                Ok(claimed) => claimed,
                Err(error) => {
                    tracing::error!(%error, endpoint = %endpoint_id, "event delivery: cannot claim deliveries");
                    continue;
                }
            };
            report.full |= claimed.len() >= room;
            for due in claimed {
                self.start(sends, due, per_endpoint, &mut report).await;
            }
        }
        report
    }

    /// Starts sending `due` into `sends`, holding a slot and the endpoint's place; gives the
    /// delivery back when neither is free (another pass takes it).
    async fn start(
        &self,
        sends: &mut JoinSet<PassReport>,
        due: DueDelivery,
        per_endpoint: usize,
        report: &mut PassReport,
    ) {
        let Some(slot) = self.take_slot(&due.endpoint_id, per_endpoint) else {
            self.release(&due).await;
            return;
        };
        let Ok(permit) = self.inner.slots.clone().try_acquire_owned() else {
            drop(slot);
            self.release(&due).await;
            return;
        };
        report.claimed += 1;
        let deliverer = self.clone();
        sends.spawn(async move {
            let _held = (permit, slot);
            deliverer.deliver(due).await
        });
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

    /// Prunes old events when the last pruning is an hour old (or never happened); how many.
    pub(super) async fn prune_if_due(&self) -> u64 {
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
