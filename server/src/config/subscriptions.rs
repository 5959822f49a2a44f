//! Settings of subscriptions beyond the plan catalogue: whether a customer may hold several
//! live subscriptions to one plan, and the whole-list check that finds what the gateway bills
//! and the store lacks (issue 46).
//!
//! | key | default | meaning |
//! |---|---|---|
//! | `SUBSCRIPTION_SEVERAL_PER_PLAN` | `false` | `true`: a customer may sign up to a plan they already hold (active or paused); otherwise such a sign-up is refused (409 `already_subscribed`). A second sign-up while one to the same plan is still unconfirmed is always refused (409 `subscription_pending`) |
//! | `SUBSCRIPTION_LIST_CHECK_SECONDS` | 3600 | how often one instance compares the gateway's whole subscription list with the store (60 to 7 days) |
//! | `SUBSCRIPTION_LIST_MAX_BYTES` | 33554432 | the largest list answer read (32 MiB, about 10,000 subscriptions with a year of history each); a larger one is not read and the check reports it (1 MiB to 1 GiB) |

use std::time::Duration;

use super::error::ConfigError;
use super::source::Layers;
use super::values;

/// Subscriptions' settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SubscriptionSettings {
    /// `SUBSCRIPTION_SEVERAL_PER_PLAN`.
    pub several_per_plan: bool,
    /// `SUBSCRIPTION_LIST_CHECK_SECONDS`.
    pub list_check_every: Duration,
    /// `SUBSCRIPTION_LIST_MAX_BYTES`.
    pub list_max_bytes: usize,
}

impl Default for SubscriptionSettings {
    fn default() -> Self {
        Self {
            several_per_plan: false,
            list_check_every: Duration::from_secs(3600),
            list_max_bytes: 32 * 1024 * 1024,
        }
    }
}

impl SubscriptionSettings {
    /// Reads this file's keys (also listed in `source::KEYS`) from `layers`, defaults for the
    /// missing ones.
    pub(super) fn resolve(layers: &Layers) -> Result<Self, ConfigError> {
        let defaults = Self::default();
        let several_per_plan = layers
            .get("SUBSCRIPTION_SEVERAL_PER_PLAN")
            .map(values::boolean)
            .transpose()?
            .unwrap_or(defaults.several_per_plan);
        let list_check_every = layers
            .get("SUBSCRIPTION_LIST_CHECK_SECONDS")
            .map(|setting| values::seconds(setting, 60, 7 * 86_400))
            .transpose()?
            .unwrap_or(defaults.list_check_every);
        let list_max_bytes = layers
            .get("SUBSCRIPTION_LIST_MAX_BYTES")
            .map(|setting| values::bytes(setting, 1 << 20, 1 << 30))
            .transpose()?
            .map_or(defaults.list_max_bytes, |bytes| {
                usize::try_from(bytes).unwrap_or(defaults.list_max_bytes)
            });
        Ok(Self {
            several_per_plan,
            list_check_every,
            list_max_bytes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::config::tests::emulator;

    #[test]
    fn defaults_and_names_of_bad_values() {
        let config = Config::from_pairs(&[], &emulator()).expect("defaults");
        assert_eq!(config.subscriptions, SubscriptionSettings::default());
        let config = Config::from_pairs(
            &[
                ("SUBSCRIPTION_SEVERAL_PER_PLAN", "true"),
                ("SUBSCRIPTION_LIST_CHECK_SECONDS", "600"),
                ("SUBSCRIPTION_LIST_MAX_BYTES", "2097152"),
            ],
            &emulator(),
        )
        .expect("valid");
        assert!(config.subscriptions.several_per_plan);
        assert_eq!(
            config.subscriptions.list_check_every,
            Duration::from_secs(600)
        );
        assert_eq!(config.subscriptions.list_max_bytes, 2 * 1024 * 1024);
        for (key, value) in [
            ("SUBSCRIPTION_SEVERAL_PER_PLAN", "maybe"),
            ("SUBSCRIPTION_LIST_CHECK_SECONDS", "5"),
            ("SUBSCRIPTION_LIST_MAX_BYTES", "10"),
        ] {
            let error = Config::from_pairs(&[(key, value)], &emulator())
                .expect_err("refused")
                .to_string();
            assert!(error.contains(key), "{error}");
        }
    }
}
