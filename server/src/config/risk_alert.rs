//! The card-testing alert's trigger and hold (`risk/attack.rs`): when the store's share of
//! blocked or declined tries jumps, every instance tightens the card-testing thresholds until
//! the trigger has stopped holding for a while.
//!
//! | key | default | meaning |
//! |---|---|---|
//! | `RISK_ALERT_WINDOW_SECONDS` | 300 | the window the trigger looks back over |
//! | `RISK_ALERT_MIN_TRIES` | 30 | fewest tries in the window before a share means anything |
//! | `RISK_ALERT_BLOCKED_PERCENT` | 10 | share of the window's tries blocked that raises the alert |
//! | `RISK_ALERT_DECLINED_PERCENT` | 50 | share of the window's tries declined that raises it |
//! | `RISK_ALERT_SWITCHED_PERCENT` | 30 | share of the window's tries made with another card than their session's earlier try that raises it |
//! | `RISK_ALERT_SURGE_SECONDS` | 10 | the short window a surge of tries is counted over |
//! | `RISK_ALERT_SURGE_TIMES` | 3 | how many times the pace of the last day's busiest quarter hour a surge must reach to raise the alert (0: never) |
//! | `RISK_ALERT_HOLD_SECONDS` | 1800 | how long the alert stays after its trigger last held |
//! | `RISK_PROOF_OF_WORK` | `alert` | when a pay call needs a proof of work (`risk/proof.rs`): `alert` (while one is open), `always`, or `off` |
//!
//! Why these defaults: an ordinary shopper is never blocked, so a tenth of the tries blocked
//! is a bot at work; a shop's declines are a few in a hundred, half is a list of dead cards
//! being run; a shopper changes card in a checkout now and then (after a decline), a card
//! tester runs number after number through each checkout, so a third of all tries changing
//! card is a bot. Thirty tries keep a quiet shop's two unlucky declines from raising it.
//!
//! The shares need an attack to have run a while (a bot's first number in each checkout looks
//! like a shopper's); the surge does not: a bot runs tens of tries a second from its start, a
//! shop's busiest quarter hour of the last day paces its ordinary peak, and three times that
//! pace within ten seconds (and never fewer than `RISK_ALERT_MIN_TRIES`) is not a shop's
//! ordinary day. A sale that triples the peak raises it too; the tightened limits still pass
//! every ordinary shopper, who may be asked for a half-second proof of work until it ends.

use std::time::Duration;

use super::error::ConfigError;
use super::source::{Layers, Setting};
use super::values;

/// The alert's trigger and hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AlertSettings {
    /// `RISK_ALERT_WINDOW_SECONDS`.
    pub window: Duration,
    /// `RISK_ALERT_MIN_TRIES`.
    pub min_tries: u32,
    /// `RISK_ALERT_BLOCKED_PERCENT`.
    pub blocked_percent: u32,
    /// `RISK_ALERT_DECLINED_PERCENT`.
    pub declined_percent: u32,
    /// `RISK_ALERT_SWITCHED_PERCENT`.
    pub switched_percent: u32,
    /// `RISK_ALERT_SURGE_SECONDS`.
    pub surge_window: Duration,
    /// `RISK_ALERT_SURGE_TIMES`; 0 turns the surge trigger off.
    pub surge_times: u32,
    /// `RISK_ALERT_HOLD_SECONDS`.
    pub hold: Duration,
    /// `RISK_PROOF_OF_WORK`.
    pub proof_of_work: ProofOfWork,
}

/// When a pay call needs a proof of work.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ProofOfWork {
    /// Never.
    Off,
    /// While a card-testing alert is open: a bot pays for every card once it is suspected,
    /// shoppers only then.
    #[default]
    Alert,
    /// On every pay call: a bot pays from its first card; every shopper's browser spends
    /// about half a second on it.
    Always,
}

impl Default for AlertSettings {
    fn default() -> Self {
        Self {
            window: Duration::from_secs(300),
            min_tries: 30,
            blocked_percent: 10,
            declined_percent: 50,
            switched_percent: 30,
            surge_window: Duration::from_secs(10),
            surge_times: 3,
            hold: Duration::from_secs(1_800),
            proof_of_work: ProofOfWork::Alert,
        }
    }
}

/// Longest window or hold: a day.
const MAX_SECS: u64 = 86_400;
/// Longest surge window: a minute (a longer one catches a bot later).
const MAX_SURGE_SECS: u64 = 60;
/// Most a surge may be asked to exceed the day's busiest pace by.
const MAX_SURGE_TIMES: u32 = 100;

impl AlertSettings {
    /// Reads this file's keys (also listed in `source::KEYS`), defaults for the missing ones.
    pub(super) fn resolve(layers: &Layers) -> Result<Self, ConfigError> {
        let d = Self::default();
        let seconds = |key: &'static str, default: Duration| {
            layers.get(key).map_or(Ok(default), |setting| {
                values::seconds(setting, 60, MAX_SECS)
            })
        };
        let percent = |key: &'static str, default: u32| layers.get(key).map_or(Ok(default), share);
        Ok(Self {
            window: seconds("RISK_ALERT_WINDOW_SECONDS", d.window)?,
            min_tries: layers
                .get("RISK_ALERT_MIN_TRIES")
                .map_or(Ok(d.min_tries), values::threshold)?,
            blocked_percent: percent("RISK_ALERT_BLOCKED_PERCENT", d.blocked_percent)?,
            declined_percent: percent("RISK_ALERT_DECLINED_PERCENT", d.declined_percent)?,
            switched_percent: percent("RISK_ALERT_SWITCHED_PERCENT", d.switched_percent)?,
            surge_window: layers
                .get("RISK_ALERT_SURGE_SECONDS")
                .map_or(Ok(d.surge_window), |setting| {
                    values::seconds(setting, 1, MAX_SURGE_SECS)
                })?,
            surge_times: layers
                .get("RISK_ALERT_SURGE_TIMES")
                .map_or(Ok(d.surge_times), |setting| {
                    values::times(setting, MAX_SURGE_TIMES)
                })?,
            hold: seconds("RISK_ALERT_HOLD_SECONDS", d.hold)?,
            proof_of_work: layers
                .get("RISK_PROOF_OF_WORK")
                .map_or(Ok(d.proof_of_work), proof_of_work)?,
        })
    }
}

/// `alert`, `always` or `off`, naming the key otherwise.
fn proof_of_work(setting: &Setting) -> Result<ProofOfWork, ConfigError> {
    match setting.value.trim() {
        "alert" => Ok(ProofOfWork::Alert),
        "always" => Ok(ProofOfWork::Always),
        "off" => Ok(ProofOfWork::Off),
        _ => Err(ConfigError::Invalid {
            key: setting.label(),
            reason: "must be `alert`, `always` or `off`".to_owned(),
        }),
    }
}

/// A percentage: a whole number from 1 to 100, naming the key otherwise.
fn share(setting: &Setting) -> Result<u32, ConfigError> {
    setting
        .value
        .trim()
        .parse::<u32>()
        .ok()
        .filter(|value| (1..=100).contains(value))
        .ok_or_else(|| ConfigError::Invalid {
            key: setting.label(),
            reason: "must be a whole number of percent from 1 to 100".to_owned(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::config::tests::emulator;

    #[test]
    fn defaults_and_overrides() {
        let config = Config::from_pairs(&[], &emulator()).expect("defaults");
        assert_eq!(config.risk.alert, AlertSettings::default());
        let config = Config::from_pairs(
            &[
                ("RISK_ALERT_BLOCKED_PERCENT", "25"),
                ("RISK_ALERT_HOLD_SECONDS", "600"),
                ("RISK_PROOF_OF_WORK", "always"),
                ("RISK_ALERT_SURGE_SECONDS", "20"),
                ("RISK_ALERT_SURGE_TIMES", "0"),
            ],
            &emulator(),
        )
        .expect("valid");
        assert_eq!(config.risk.alert.proof_of_work, ProofOfWork::Always);
        assert_eq!(
            AlertSettings::default().proof_of_work,
            ProofOfWork::Alert,
            "asked while an alert is open, by default"
        );
        assert_eq!(config.risk.alert.blocked_percent, 25);
        assert_eq!(config.risk.alert.hold, Duration::from_secs(600));
        assert_eq!(config.risk.alert.min_tries, 30);
        assert_eq!(config.risk.alert.surge_window, Duration::from_secs(20));
        assert_eq!(config.risk.alert.surge_times, 0, "0 turns the surge off");
    }

    #[test]
    fn bad_values_name_their_key() {
        for (key, value) in [
            ("RISK_ALERT_BLOCKED_PERCENT", "0"),
            ("RISK_ALERT_DECLINED_PERCENT", "101"),
            ("RISK_ALERT_MIN_TRIES", "some"),
            ("RISK_ALERT_WINDOW_SECONDS", "10"),
            ("RISK_PROOF_OF_WORK", "sometimes"),
            ("RISK_ALERT_SURGE_SECONDS", "0"),
            ("RISK_ALERT_SURGE_SECONDS", "61"),
            ("RISK_ALERT_SURGE_TIMES", "101"),
            ("RISK_ALERT_SURGE_TIMES", "-1"),
        ] {
            let error = Config::from_pairs(&[(key, value)], &emulator()).expect_err(key);
            assert!(error.to_string().starts_with(key), "{error}");
        }
    }
}
