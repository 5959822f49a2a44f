//! What the delivery of events to the shop did, for `/metrics`: events fanned out (by type),
//! deliveries by outcome, each attempt's duration, and the oldest pending delivery's age
//! (set from the store before each render, as the other store figures).

use metrics::{counter, describe_counter, describe_gauge, describe_histogram, gauge, histogram};
use time::OffsetDateTime;

/// What became of one delivery attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The endpoint answered 2xx.
    Delivered,
    /// It failed; tried again later.
    Retried,
    /// It failed for the last time: the delivery failed.
    Failed,
}

impl Outcome {
    fn name(self) -> &'static str {
        match self {
            Self::Delivered => "delivered",
            Self::Retried => "retried",
            Self::Failed => "failed",
        }
    }
}

/// Counts `count` events of type `kind` fanned out to the endpoints.
pub fn fanned_out(kind: &str, count: u64) {
    super::recorder();
    counter!("checkout_events_total", "type" => kind.to_owned()).increment(count);
}

/// Counts one attempt's outcome and its duration.
pub fn attempt(outcome: Outcome, duration: std::time::Duration) {
    super::recorder();
    counter!("checkout_event_deliveries_total", "outcome" => outcome.name()).increment(1);
    histogram!("checkout_event_delivery_duration_seconds").record(duration.as_secs_f64());
}

/// Sets the age of the oldest pending delivery (0 when none is pending).
pub fn oldest_pending(oldest: Option<OffsetDateTime>, now: OffsetDateTime) {
    let age = oldest.map_or(0.0, |at| (now - at).as_seconds_f64().max(0.0));
    gauge!("checkout_event_delivery_oldest_pending_seconds").set(age);
}

/// Describes the metrics and shows every outcome from zero.
pub(super) fn describe() {
    describe_counter!(
        "checkout_events_total",
        "Events fanned out to the shop's endpoints by this process, by type."
    );
    describe_counter!(
        "checkout_event_deliveries_total",
        "Delivery attempts of events to the shop by this process, by outcome."
    );
    describe_histogram!(
        "checkout_event_delivery_duration_seconds",
        "How long one delivery attempt took, until the answer or the error."
    );
    describe_gauge!(
        "checkout_event_delivery_oldest_pending_seconds",
        "Age of the oldest delivery not yet made (every instance)."
    );
    for outcome in [Outcome::Delivered, Outcome::Retried, Outcome::Failed] {
        counter!("checkout_event_deliveries_total", "outcome" => outcome.name()).increment(0);
    }
}
