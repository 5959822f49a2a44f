//! How long a checkout session can be paid and when the reconciler looks at a payment
//! (`SESSION_TTL_SECONDS`, `PAYMENT_*`, `RECONCILE_INTERVAL_SECONDS`).

use std::time::Duration;

use super::error::ConfigError;
use super::source::{Layers, Setting};
use super::{or_default, values};

/// Time limits of sessions and payments.
#[derive(Debug, Clone, Copy)]
pub struct Timing {
    /// `SESSION_TTL_SECONDS`.
    pub session_ttl: Duration,
    /// `PAYMENT_FIRST_CHECK_SECONDS`.
    pub payment_first_check: Duration,
    /// `PAYMENT_REVIEW_AFTER_SECONDS`.
    pub payment_review_after: Duration,
    /// `RECONCILE_INTERVAL_SECONDS`.
    pub reconcile_interval: Duration,
}

/// The four time limits, the review after the first check.
pub(super) fn resolve(layers: &Layers) -> Result<Timing, ConfigError> {
    let secs = |key: &'static str, min: u64, max: u64, default: u64| {
        or_default(
            layers.get(key),
            |s| values::seconds(s, min, max),
            || Ok(Duration::from_secs(default)),
        )
    };
    let timing = Timing {
        session_ttl: secs("SESSION_TTL_SECONDS", 60, 7 * 86_400, 3_600)?,
        payment_first_check: secs("PAYMENT_FIRST_CHECK_SECONDS", 1, 86_400, 60)?,
        payment_review_after: secs("PAYMENT_REVIEW_AFTER_SECONDS", 60, 30 * 86_400, 1_800)?,
        reconcile_interval: secs("RECONCILE_INTERVAL_SECONDS", 1, 86_400, 30)?,
    };
    if timing.payment_review_after <= timing.payment_first_check {
        let key = layers
            .get("PAYMENT_REVIEW_AFTER_SECONDS")
            .map_or_else(|| "PAYMENT_REVIEW_AFTER_SECONDS".to_owned(), Setting::label);
        return Err(ConfigError::Invalid {
            key,
            reason: "must be longer than PAYMENT_FIRST_CHECK_SECONDS".into(),
        });
    }
    Ok(timing)
}
