//! Settings of the protection layers, customer tokens and the subscription poll.
//!
//! | key | default | meaning |
//! |---|---|---|
//! | `MAX_BODY_BYTES` | 65536 | largest request body; larger ones get 413 |
//! | `PAY_RATE_LIMIT_PER_IP` | 30 | pay calls per minute from one client IP (burst of as many) |
//! | `PAY_RATE_LIMIT_PER_SESSION` | 10 | pay calls per minute on one checkout session |
//! | `CUSTOMER_TOKEN_TTL_SECONDS` | 900 | lifetime of a customer self-service token |
//! | `SUBSCRIPTION_POLL_SECONDS` | 3600 | longest wait between two gateway polls of a live subscription |

use std::time::Duration;

use super::error::ConfigError;
use super::source::{Layers, Setting};
use super::values;

/// Protection limits, customer tokens and the subscription poll.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpsSettings {
    /// `MAX_BODY_BYTES`.
    pub max_body_bytes: usize,
    /// `PAY_RATE_LIMIT_PER_IP`: pay calls per minute per client IP.
    pub pay_rate_per_ip: u32,
    /// `PAY_RATE_LIMIT_PER_SESSION`: pay calls per minute per checkout session.
    pub pay_rate_per_session: u32,
    /// `CUSTOMER_TOKEN_TTL_SECONDS`.
    pub customer_token_ttl: Duration,
    /// `SUBSCRIPTION_POLL_SECONDS`.
    pub subscription_poll: Duration,
}

impl Default for OpsSettings {
    fn default() -> Self {
        Self {
            max_body_bytes: 64 * 1024,
            pay_rate_per_ip: 30,
            pay_rate_per_session: 10,
            customer_token_ttl: Duration::from_secs(900),
            subscription_poll: Duration::from_secs(3600),
        }
    }
}

impl OpsSettings {
    /// Reads this file's keys (also listed in `source::KEYS`) from `layers`, defaults for the missing ones.
    pub(super) fn resolve(layers: &Layers) -> Result<Self, ConfigError> {
        let defaults = Self::default();
        let count = |key: &'static str, min: u64, max: u64, default: u64| {
            layers
                .get(key)
                .map_or(Ok(default), |setting| whole_number(setting, min, max))
        };
        let secs = |key: &'static str, min: u64, max: u64, default: Duration| {
            layers
                .get(key)
                .map_or(Ok(default), |setting| values::seconds(setting, min, max))
        };
        let max_body = count("MAX_BODY_BYTES", 1024, 16 * 1024 * 1024, 64 * 1024)?;
        Ok(Self {
            max_body_bytes: usize::try_from(max_body).unwrap_or(defaults.max_body_bytes),
            pay_rate_per_ip: narrow(count("PAY_RATE_LIMIT_PER_IP", 1, 100_000, 30)?),
            pay_rate_per_session: narrow(count("PAY_RATE_LIMIT_PER_SESSION", 1, 10_000, 10)?),
            customer_token_ttl: secs(
                "CUSTOMER_TOKEN_TTL_SECONDS",
                60,
                86_400,
                defaults.customer_token_ttl,
            )?,
            subscription_poll: secs(
                "SUBSCRIPTION_POLL_SECONDS",
                1,
                7 * 86_400,
                defaults.subscription_poll,
            )?,
        })
    }
}

/// A whole number within `min..=max`, naming the key otherwise.
fn whole_number(setting: &Setting, min: u64, max: u64) -> Result<u64, ConfigError> {
    setting
        .value
        .trim()
        .parse::<u64>()
        .ok()
        .filter(|value| (min..=max).contains(value))
        .ok_or_else(|| ConfigError::Invalid {
            key: setting.label(),
            reason: format!("must be a whole number from {min} to {max}"),
        })
}

/// Bounds above keep every count within `u32`.
fn narrow(value: u64) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::config::tests::emulator;

    #[test]
    fn defaults_and_overrides() {
        let config = Config::from_pairs(&[], &emulator()).expect("defaults");
        assert_eq!(config.ops, OpsSettings::default());
        let config = Config::from_pairs(
            &[
                ("MAX_BODY_BYTES", "2048"),
                ("PAY_RATE_LIMIT_PER_IP", "3"),
                ("PAY_RATE_LIMIT_PER_SESSION", "2"),
                ("CUSTOMER_TOKEN_TTL_SECONDS", "120"),
                ("SUBSCRIPTION_POLL_SECONDS", "5"),
            ],
            &emulator(),
        )
        .expect("valid");
        assert_eq!(config.ops.max_body_bytes, 2048);
        assert_eq!(
            (config.ops.pay_rate_per_ip, config.ops.pay_rate_per_session),
            (3, 2)
        );
        assert_eq!(config.ops.customer_token_ttl, Duration::from_secs(120));
        assert_eq!(config.ops.subscription_poll, Duration::from_secs(5));
    }

    #[test]
    fn bad_values_name_their_key() {
        for (key, value) in [
            ("MAX_BODY_BYTES", "10"),
            ("PAY_RATE_LIMIT_PER_IP", "0"),
            ("PAY_RATE_LIMIT_PER_SESSION", "many"),
            ("CUSTOMER_TOKEN_TTL_SECONDS", "5"),
            ("SUBSCRIPTION_POLL_SECONDS", "-1"),
        ] {
            let err = Config::from_pairs(&[(key, value)], &emulator())
                .expect_err(key)
                .to_string();
            assert!(
                err.starts_with(&format!("{key} (environment)")),
                "{key}: {err}"
            );
        }
    }
}
