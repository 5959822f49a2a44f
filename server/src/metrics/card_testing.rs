//! The card-testing defence for `/metrics`: whether an alert is open (from the store, so every
//! instance reports the same) and the alerts this process raised and ended.

use metrics::{counter, describe_counter, describe_gauge, gauge};

/// Names the metrics for the exposition's `# HELP` lines.
pub(super) fn describe() {
    describe_gauge!(
        "checkout_card_testing_suspected",
        "1 while a card-testing alert is open (tightened limits apply), else 0."
    );
    describe_counter!(
        "checkout_card_testing_alerts_total",
        "Card-testing alerts this process raised or ended, by step."
    );
    describe_counter!(
        "checkout_card_testing_proofs_total",
        "Pay calls during a card-testing alert, by their proof of work: asked (none sent), \
         refused (wrong or stale), accepted."
    );
}

/// Sets the gauge from the store's open alert.
pub(super) fn set_open(open: bool) {
    gauge!("checkout_card_testing_suspected").set(f64::from(u8::from(open)));
}

/// Counts an alert this process raised.
pub fn raised() {
    super::recorder();
    counter!("checkout_card_testing_alerts_total", "step" => "raised").increment(1);
}

/// Counts a pay call's proof of work during an alert: `asked`, `refused` or `accepted`.
pub fn proof(outcome: &'static str) {
    super::recorder();
    counter!("checkout_card_testing_proofs_total", "outcome" => outcome).increment(1);
}

/// Counts an alert this process ended.
pub fn ended() {
    super::recorder();
    counter!("checkout_card_testing_alerts_total", "step" => "ended").increment(1);
}
