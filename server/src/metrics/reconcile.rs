//! What the reconciler did, for `/metrics`: passes, payments settled or sent to review,
//! subscription cycles recorded, lost sign-ups found again, subscriptions found in the
//! gateway's list, failures, and when the last pass finished.

use metrics::{counter, describe_counter, describe_gauge, gauge};

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
    /// A sign-up whose answer was lost was found in the gateway's list and recorded.
    SignupRecorded,
    /// A sign-up whose answer was lost made no subscription (the list proves it): failed.
    SignupFailed,
    /// A sign-up whose answer was lost could not be told apart: sent to review.
    SignupToReview,
    /// A subscription the gateway bills and the store lacked was recorded for review.
    SubscriptionFound,
}

const EVENTS: [(Event, &str); 12] = [
    (Event::Pass, "pass"),
    (Event::PaymentSettled, "payment_settled"),
    (Event::PaymentToReview, "payment_to_review"),
    (Event::PaymentAbandoned, "payment_abandoned"),
    (Event::LookupFailed, "lookup_failed"),
    (Event::SubscriptionPolled, "subscription_polled"),
    (Event::CycleSucceeded, "cycle_succeeded"),
    (Event::CycleFailed, "cycle_failed"),
    (Event::SignupRecorded, "signup_recorded"),
    (Event::SignupFailed, "signup_failed"),
    (Event::SignupToReview, "signup_to_review"),
    (Event::SubscriptionFound, "subscription_found"),
];

/// Counts one event.
pub fn count(event: Event) {
    super::recorder();
    if let Some((_, name)) = EVENTS.iter().find(|(e, _)| *e == event) {
        counter!("checkout_reconciler_events_total", "event" => *name).increment(1);
    }
}

/// Notes that a pass finished at `unix_seconds`.
pub fn pass_finished(unix_seconds: i64) {
    count(Event::Pass);
    gauge!("checkout_reconciler_last_pass_timestamp_seconds").set(unix_seconds as f64);
}

/// Describes the reconciler's metrics and shows every event from zero.
pub(super) fn describe() {
    describe_counter!(
        "checkout_reconciler_events_total",
        "What the reconciler of this process did."
    );
    describe_gauge!(
        "checkout_reconciler_last_pass_timestamp_seconds",
        "When this process's reconciler last finished a pass."
    );
    for (_, name) in EVENTS {
        counter!("checkout_reconciler_events_total", "event" => name).increment(0);
    }
}
