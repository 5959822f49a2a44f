//! The delivery loop a server runs ([`spawn`]): passes of the [`Deliverer`] paced by the
//! interval and by its sends finishing, and a graceful stop that leaves unfinished sends to
//! their leases.

use std::time::{Duration, Instant};

use tokio::task::{JoinHandle, JoinSet};
use tokio_util::sync::CancellationToken;

use super::deliver::{Deliverer, FAN_OUT_BATCH};
use super::report::{PassReport, joined_report};

/// How long the loop waits for its sends at shutdown before leaving them to the leases.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(3);

/// Runs `deliverer` until `stop` is cancelled: a pass at once, then one every interval, or
/// sooner when a pass had more to do than room (a claim came back full, or an endpoint was
/// left out at its limit) and enough sends have finished to make room again. At `stop` it
/// waits up to [`SHUTDOWN_GRACE`] for the sends in flight; what is cut off then is sent again
/// once its lease runs out (by this instance's successor or another).
pub fn spawn(deliverer: Deliverer, stop: CancellationToken) -> JoinHandle<()> {
    tokio::spawn(async move {
        let settings = deliverer.settings();
        tracing::info!(
            owner = deliverer.owner(),
            interval_ms = settings.interval.as_millis(),
            "event delivery started"
        );
        // Half of what one endpoint may take: a claim worth making.
        let enough = settings.per_endpoint.min(settings.concurrency).max(2) / 2;
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
            let busy = pass.full || pass.held_back;
            let idle = tokio::time::sleep(settings.interval);
            tokio::pin!(idle);
            let mut finished = 0;
            while !(busy && (finished >= enough || sends.is_empty())) {
                tokio::select! {
                    () = stop.cancelled() => break,
                    () = &mut idle => break,
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
