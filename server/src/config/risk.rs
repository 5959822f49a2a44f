//! The card-testing rules' thresholds and windows (`risk/`): checked on every pay call before
//! the gateway is called, counted from the database.
//!
//! | key | default | meaning |
//! |---|---|---|
//! | `RISK_MAX_CARDS_PER_SESSION` | 4 | distinct cards one checkout session may try; the next new card is blocked |
//! | `RISK_MAX_DECLINES_PER_SESSION` | 6 | declines one session may have; every later try is blocked |
//! | `RISK_MAX_DECLINES_PER_CARD` | 4 | declines of one card within `RISK_CARD_DECLINES_WINDOW_SECONDS`; its next try is blocked |
//! | `RISK_CARD_DECLINES_WINDOW_SECONDS` | 3600 | that window |
//! | `RISK_MAX_CARDS_PER_ADDRESS` | 5 | distinct cards from one client (IPv4 address or IPv6 /64) within `RISK_ADDRESS_WINDOW_SECONDS` |
//! | `RISK_ADDRESS_WINDOW_SECONDS` | 3600 | that window |
//! | `RISK_MAX_CARDS_PER_CUSTOMER` | 5 | distinct cards of one customer id within `RISK_CUSTOMER_WINDOW_SECONDS` |
//! | `RISK_CUSTOMER_WINDOW_SECONDS` | 86400 | that window |
//! | `RISK_MAX_CARDS_PER_EMAIL` | 5 | distinct cards with one session e-mail (lower-cased) within `RISK_EMAIL_WINDOW_SECONDS` |
//! | `RISK_EMAIL_WINDOW_SECONDS` | 86400 | that window |
//!
//! Why these defaults: a shopper who mistypes a number (a typo that still passes Luhn is a
//! different card to the rules), is declined, and pays with the right number or a second card
//! uses two or three cards and one or two declines; paying twice a day with one card is one
//! card. A bot testing stolen numbers uses a new card on every try, so it is stopped after
//! four in a session and five per address, customer or e-mail. An address shared by many
//! shoppers (carrier-grade NAT, an office) may need a higher `RISK_MAX_CARDS_PER_ADDRESS`.

use std::time::Duration;

use super::error::ConfigError;
use super::risk_alert::AlertSettings;
use super::source::Layers;
use super::values;

/// Thresholds and windows of the card-testing rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RiskSettings {
    /// `RISK_MAX_CARDS_PER_SESSION`.
    pub max_cards_per_session: u32,
    /// `RISK_MAX_DECLINES_PER_SESSION`.
    pub max_declines_per_session: u32,
    /// `RISK_MAX_DECLINES_PER_CARD`.
    pub max_declines_per_card: u32,
    /// `RISK_CARD_DECLINES_WINDOW_SECONDS`.
    pub card_declines_window: Duration,
    /// `RISK_MAX_CARDS_PER_ADDRESS`.
    pub max_cards_per_address: u32,
    /// `RISK_ADDRESS_WINDOW_SECONDS`.
    pub address_window: Duration,
    /// `RISK_MAX_CARDS_PER_CUSTOMER`.
    pub max_cards_per_customer: u32,
    /// `RISK_CUSTOMER_WINDOW_SECONDS`.
    pub customer_window: Duration,
    /// `RISK_MAX_CARDS_PER_EMAIL`.
    pub max_cards_per_email: u32,
    /// `RISK_EMAIL_WINDOW_SECONDS`.
    pub email_window: Duration,
    /// When the thresholds tighten by themselves (`config/risk_alert.rs`).
    pub alert: AlertSettings,
}

/// An hour.
const HOUR: Duration = Duration::from_secs(3_600);
/// A day.
const DAY: Duration = Duration::from_secs(86_400);
/// Longest window: 30 days.
const MAX_WINDOW_SECS: u64 = 30 * 86_400;

impl Default for RiskSettings {
    fn default() -> Self {
        Self {
            max_cards_per_session: 4,
            max_declines_per_session: 6,
            max_declines_per_card: 4,
            card_declines_window: HOUR,
            max_cards_per_address: 5,
            address_window: HOUR,
            max_cards_per_customer: 5,
            customer_window: DAY,
            max_cards_per_email: 5,
            email_window: DAY,
            alert: AlertSettings::default(),
        }
    }
}

impl RiskSettings {
    /// Reads this file's keys (also listed in `source::KEYS`), defaults for the missing ones.
    pub(super) fn resolve(layers: &Layers) -> Result<Self, ConfigError> {
        let d = Self::default();
        let count = |key: &'static str, default: u32| {
            layers.get(key).map_or(Ok(default), values::threshold)
        };
        let window = |key: &'static str, default: Duration| {
            layers.get(key).map_or(Ok(default), |setting| {
                values::seconds(setting, 60, MAX_WINDOW_SECS)
            })
        };
        Ok(Self {
            max_cards_per_session: count("RISK_MAX_CARDS_PER_SESSION", d.max_cards_per_session)?,
            max_declines_per_session: count(
                "RISK_MAX_DECLINES_PER_SESSION",
                d.max_declines_per_session,
            )?,
            max_declines_per_card: count("RISK_MAX_DECLINES_PER_CARD", d.max_declines_per_card)?,
            card_declines_window: window(
                "RISK_CARD_DECLINES_WINDOW_SECONDS",
                d.card_declines_window,
            )?,
            max_cards_per_address: count("RISK_MAX_CARDS_PER_ADDRESS", d.max_cards_per_address)?,
            address_window: window("RISK_ADDRESS_WINDOW_SECONDS", d.address_window)?,
            max_cards_per_customer: count("RISK_MAX_CARDS_PER_CUSTOMER", d.max_cards_per_customer)?,
            customer_window: window("RISK_CUSTOMER_WINDOW_SECONDS", d.customer_window)?,
            max_cards_per_email: count("RISK_MAX_CARDS_PER_EMAIL", d.max_cards_per_email)?,
            email_window: window("RISK_EMAIL_WINDOW_SECONDS", d.email_window)?,
            alert: AlertSettings::resolve(layers)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::config::tests::emulator;

    #[test]
    fn defaults_and_overrides() {
        let config = Config::from_pairs(&[], &emulator()).expect("defaults");
        assert_eq!(config.risk, RiskSettings::default());
        let config = Config::from_pairs(
            &[
                ("RISK_MAX_CARDS_PER_SESSION", "2"),
                ("RISK_MAX_DECLINES_PER_CARD", "3"),
                ("RISK_EMAIL_WINDOW_SECONDS", "600"),
            ],
            &emulator(),
        )
        .expect("valid");
        assert_eq!(config.risk.max_cards_per_session, 2);
        assert_eq!(config.risk.max_declines_per_card, 3);
        assert_eq!(config.risk.email_window, Duration::from_secs(600));
        assert_eq!(config.risk.max_cards_per_address, 5);
    }

    #[test]
    fn bad_values_name_their_key() {
        for (key, value) in [
            ("RISK_MAX_CARDS_PER_SESSION", "0"),
            ("RISK_MAX_CARDS_PER_ADDRESS", "many"),
            ("RISK_ADDRESS_WINDOW_SECONDS", "5"),
            ("RISK_CUSTOMER_WINDOW_SECONDS", "99999999"),
        ] {
            let error = Config::from_pairs(&[(key, value)], &emulator()).expect_err(key);
            assert!(error.to_string().starts_with(key), "{error}");
        }
    }
}
