//! The card-testing alert's two pure decisions: whether the store's recent tries look like an
//! attack ([`suspects`]), and the thresholds judged while one is suspected ([`tightened`]).
//!
//! The trigger is a share, not a count, so a busy shop needs the same kind of jump as a quiet
//! one; `RISK_ALERT_MIN_TRIES` keeps a handful of tries from meaning anything. While the alert
//! is open the card and decline thresholds are halved, never below two cards or three
//! declines: a shopper who mistypes twice (two declines of one card) and pays on the third try
//! still passes, as does one who tries a second card.

use crate::config::{AlertSettings, RiskSettings};
use crate::store::card_testing::TryTally;

/// Fewest distinct cards a tightened card rule allows.
const CARD_FLOOR: u32 = 2;
/// Fewest declines a tightened decline rule allows before blocking.
const DECLINE_FLOOR: u32 = 3;

/// Whether `tally` (the store's tries over the alert's window) raises or keeps the alert.
pub fn suspects(tally: &TryTally, alert: &AlertSettings) -> bool {
    let reaches = |part: u64, percent: u32| part * 100 >= u64::from(percent) * tally.tries;
    tally.tries >= u64::from(alert.min_tries)
        && (reaches(tally.blocked, alert.blocked_percent)
            || reaches(tally.declined, alert.declined_percent)
            || reaches(tally.switched, alert.switched_percent))
}

/// The thresholds judged while an alert is open: each card and decline threshold halved, no
/// lower than its floor (and never above what is configured); windows unchanged.
pub fn tightened(settings: &RiskSettings) -> RiskSettings {
    let halve = |value: u32, floor: u32| value.min((value / 2).max(floor));
    RiskSettings {
        max_cards_per_session: halve(settings.max_cards_per_session, CARD_FLOOR),
        max_declines_per_session: halve(settings.max_declines_per_session, DECLINE_FLOOR),
        max_declines_per_card: halve(settings.max_declines_per_card, DECLINE_FLOOR),
        max_cards_per_address: halve(settings.max_cards_per_address, CARD_FLOOR),
        max_cards_per_customer: halve(settings.max_cards_per_customer, CARD_FLOOR),
        max_cards_per_email: halve(settings.max_cards_per_email, CARD_FLOOR),
        ..*settings
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::risk::TryKind;
    use crate::risk::rules::first_broken;
    use crate::store::risk::RiskCounts;

    fn tally(tries: u64, declined: u64, blocked: u64) -> TryTally {
        TryTally {
            tries,
            declined,
            blocked,
            switched: 0,
        }
    }

    #[test]
    fn the_trigger_needs_enough_tries_and_a_share() {
        let alert = AlertSettings::default();
        assert!(!suspects(&tally(29, 0, 29), &alert), "too few tries");
        assert!(suspects(&tally(30, 0, 3), &alert), "a tenth blocked");
        assert!(!suspects(&tally(30, 14, 2), &alert), "an unlucky hour");
        assert!(suspects(&tally(30, 15, 0), &alert), "half declined");
        assert!(
            !suspects(&tally(1_000, 90, 9), &alert),
            "a busy shop's ordinary day"
        );
        let changing = |switched| TryTally {
            switched,
            ..tally(100, 5, 0)
        };
        assert!(
            !suspects(&changing(12), &alert),
            "some shoppers change card"
        );
        assert!(
            suspects(&changing(30), &alert),
            "a third of all tries change card"
        );
    }

    #[test]
    fn tightened_limits_halve_above_their_floors() {
        let tight = tightened(&RiskSettings::default());
        assert_eq!(tight.max_cards_per_session, 2);
        assert_eq!(tight.max_cards_per_address, 2);
        assert_eq!(tight.max_declines_per_session, 3);
        assert_eq!(tight.max_declines_per_card, 3);
        let strict = RiskSettings {
            max_cards_per_session: 1,
            ..RiskSettings::default()
        };
        assert_eq!(tightened(&strict).max_cards_per_session, 1, "never looser");
    }

    #[test]
    fn tightened_limits_still_pass_a_shopper_who_mistypes_twice() {
        let tight = tightened(&RiskSettings::default());
        let third_try = RiskCounts {
            session_cards: 1,
            session_declines: 2,
            card_declines: 2,
            client_cards: 1,
            customer_cards: 1,
            email_cards: 1,
            blocked: None,
        };
        assert_eq!(first_broken(&third_try, &tight, TryKind::TypedCard), None);
        let second_card = RiskCounts {
            session_cards: 2,
            client_cards: 2,
            email_cards: 2,
            ..third_try
        };
        assert_eq!(first_broken(&second_card, &tight, TryKind::TypedCard), None);
        let third_card = RiskCounts {
            session_cards: 3,
            ..second_card
        };
        assert!(first_broken(&third_card, &tight, TryKind::TypedCard).is_some());
    }
}
