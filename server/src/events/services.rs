//! What the delivery worker works with ([`DeliveryServices`]): the store, the plans, the
//! SSRF-guarded client, its pace ([`DeliverySettings`]) and its [`Clock`] (the system's, which
//! tests move forward).

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use time::OffsetDateTime;

use super::client::{ClientLimits, WebhookClient};
use crate::config::{Config, PlanCatalogue};
use crate::store::Store;

/// Most deliveries one instance sends at once.
pub const CONCURRENCY: usize = 32;
/// Most deliveries one instance sends to one endpoint at once.
pub const PER_ENDPOINT: usize = 16;

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
        let timeout = config.webhooks.timeout;
        let defaults = ClientLimits::default();
        let limits = ClientLimits {
            timeout,
            connect_timeout: defaults.connect_timeout.min(timeout),
            ..defaults
        };
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::EmulatorDefaults;

    #[test]
    fn the_endpoint_timeout_sets_the_lease() {
        let config = Config::from_pairs(
            &[("WEBHOOK_TIMEOUT_SECONDS", "2")],
            &EmulatorDefaults::default(),
        )
        .expect("valid");
        let settings = DeliverySettings::from_config(&config);
        assert_eq!(settings.limits.timeout, Duration::from_secs(2));
        assert_eq!(settings.limits.connect_timeout, Duration::from_secs(2));
        assert_eq!(settings.lease, time::Duration::seconds(14));
        let default = DeliverySettings::from_config(
            &Config::from_pairs(&[], &EmulatorDefaults::default()).expect("valid"),
        );
        assert_eq!(default.limits.timeout, Duration::from_secs(10));
        assert_eq!(default.lease, time::Duration::seconds(30));
    }
}
