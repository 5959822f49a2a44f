//! What the reconciler did, for `/metrics`: passes, payments settled or sent to review,
//! subscription cycles recorded, failures, and when the last pass finished.

use std::fmt::Write as _;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};

/// One kind of reconciler event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// A pass finished.
    Pass,
    /// A payment was settled by a status lookup.
    PaymentSettled,
    /// A payment whose outcome was never learned went to `needs_review`.
    PaymentToReview,
    /// A payment recorded but never sent to the gateway was marked failed.
    PaymentAbandoned,
    /// A status lookup or subscription poll failed (retried later).
    LookupFailed,
    /// A subscription was polled.
    SubscriptionPolled,
    /// A new paid cycle was recorded.
    CycleSucceeded,
    /// A new failed cycle was recorded.
    CycleFailed,
}

const EVENTS: [(Event, &str); 8] = [
    (Event::Pass, "pass"),
    (Event::PaymentSettled, "payment_settled"),
    (Event::PaymentToReview, "payment_to_review"),
    (Event::PaymentAbandoned, "payment_abandoned"),
    (Event::LookupFailed, "lookup_failed"),
    (Event::SubscriptionPolled, "subscription_polled"),
    (Event::CycleSucceeded, "cycle_succeeded"),
    (Event::CycleFailed, "cycle_failed"),
];

static COUNTS: [AtomicU64; EVENTS.len()] = [const { AtomicU64::new(0) }; EVENTS.len()];
static LAST_PASS_UNIX: AtomicI64 = AtomicI64::new(0);

/// Counts one event.
pub fn count(event: Event) {
    if let Some(slot) = EVENTS.iter().position(|(e, _)| *e == event) {
        COUNTS[slot].fetch_add(1, Ordering::Relaxed);
    }
}

/// Notes that a pass finished at `unix_seconds`.
pub fn pass_finished(unix_seconds: i64) {
    count(Event::Pass);
    LAST_PASS_UNIX.store(unix_seconds, Ordering::Relaxed);
}

/// When the last pass of this process finished (Unix seconds), if one did.
pub fn last_pass() -> Option<i64> {
    match LAST_PASS_UNIX.load(Ordering::Relaxed) {
        0 => None,
        at => Some(at),
    }
}

/// Writes the counters and the last pass time.
pub(super) fn write(out: &mut String) {
    out.push_str(
        "# HELP checkout_reconciler_events_total What the reconciler of this process did.\n",
    );
    out.push_str("# TYPE checkout_reconciler_events_total counter\n");
    for (slot, (_, name)) in EVENTS.iter().enumerate() {
        let value = COUNTS[slot].load(Ordering::Relaxed);
        let _ = writeln!(
            out,
            "checkout_reconciler_events_total{{event=\"{name}\"}} {value}"
        );
    }
    if let Some(at) = last_pass() {
        out.push_str("# HELP checkout_reconciler_last_pass_timestamp_seconds When this process's reconciler last finished a pass.\n");
        out.push_str("# TYPE checkout_reconciler_last_pass_timestamp_seconds gauge\n");
        let _ = writeln!(out, "checkout_reconciler_last_pass_timestamp_seconds {at}");
    }
}
