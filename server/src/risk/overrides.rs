//! Thresholds an admin set in the dashboard, over the configuration file's: each names a rule
//! and replaces that rule's threshold; windows and the alert's trigger stay the file's.

use super::Rule;
use crate::config::RiskSettings;
use crate::store::risk_overrides::RiskOverride;

/// Highest threshold the dashboard takes (the configuration file's limit too).
pub const MAX_THRESHOLD: u32 = 100_000;

/// `configured` with each of `overrides` applied; an override naming no rule this build knows
/// (written by a newer one) is left out, logged.
pub fn applied(configured: &RiskSettings, overrides: &[RiskOverride]) -> RiskSettings {
    let mut settings = *configured;
    for item in overrides {
        match Rule::from_name(&item.rule) {
            Some(rule) => rule.set_limit(&mut settings, item.threshold.clamp(1, MAX_THRESHOLD)),
            None => {
                tracing::warn!(rule = %item.rule, "a threshold set for a rule this build does not know; ignored")
            }
        }
    }
    settings
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(rule: &str, threshold: u32) -> RiskOverride {
        RiskOverride {
            rule: rule.to_owned(),
            threshold,
            set_by: "admin@example.com".to_owned(),
            set_at: time::OffsetDateTime::UNIX_EPOCH,
        }
    }

    #[test]
    fn overrides_replace_their_rules_threshold_only() {
        let configured = RiskSettings::default();
        let applied = applied(
            &configured,
            &[
                set("cards_per_session", 2),
                set("declines_per_card", 9),
                set("no_such_rule", 1),
            ],
        );
        assert_eq!(applied.max_cards_per_session, 2);
        assert_eq!(applied.max_declines_per_card, 9);
        assert_eq!(
            applied.max_cards_per_address,
            configured.max_cards_per_address
        );
        assert_eq!(applied.address_window, configured.address_window);
        assert_eq!(applied.alert, configured.alert);
    }
}
