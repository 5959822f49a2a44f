//! The card-testing alert's two pure decisions: whether the store's recent tries look like an
//! attack ([`suspects`]), and the thresholds judged while one is suspected ([`tightened`]).
//!
//! The triggers are a share or a pace measured against the shop's own, not a count, so a busy
//! shop needs the same kind of jump as a quiet one; `RISK_ALERT_MIN_TRIES` keeps a handful of
//! tries from meaning anything. The shares see a bot once it runs a second number through its
//! checkouts; the surge sees it from its first seconds, by pace alone. While the alert
//! is open the card and decline thresholds are halved, never below two cards or three
//! declines: a shopper who mistypes twice (two declines of one card) and pays on the third try
//! still passes, as does one who tries a second card. A try past a halved threshold but within
//! the ordinary one is asked for a proof of work, not refused (`RiskService::check`): a
//! shopper who mistyped with two different wrong numbers pays with their own third card.

use crate::config::{AlertSettings, RiskSettings};
use crate::store::card_testing::{AlertCause, TryPace, TryTally};

/// Fewest distinct cards a tightened card rule allows.
const CARD_FLOOR: u32 = 2;
/// Fewest declines a tightened decline rule allows before blocking.
const DECLINE_FLOOR: u32 = 3;

/// A rollup slot, the busiest quarter hour's length, in seconds.
const QUARTER_HOUR_SECS: u64 = 900;

/// Whether `tally` (the store's tries over the alert's window) or `pace` raises or keeps the
/// alert, and by which trigger (the first that holds, shares before the surge).
pub fn suspects(tally: &TryTally, pace: &TryPace, alert: &AlertSettings) -> Option<AlertCause> {
    let reaches = |part: u64, percent: u32| part * 100 >= u64::from(percent) * tally.tries;
    let share = if tally.tries < u64::from(alert.min_tries) {
        None
    } else if reaches(tally.blocked, alert.blocked_percent) {
        Some(AlertCause::Blocked)
    } else if reaches(tally.declined, alert.declined_percent) {
        Some(AlertCause::Declined)
    } else if reaches(tally.switched, alert.switched_percent) {
        Some(AlertCause::Switched)
    } else {
        None
    };
    share.or_else(|| surges(pace, alert).then_some(AlertCause::Surge))
}

/// Whether the surge window's tries reach `RISK_ALERT_SURGE_TIMES` the pace of the day's
/// busiest quarter hour over as long, and at least `RISK_ALERT_MIN_TRIES`.
fn surges(pace: &TryPace, alert: &AlertSettings) -> bool {
    let window = alert.surge_window.as_secs();
    // recent / window >= times × busiest / quarter hour, in whole numbers.
    alert.surge_times > 0
        && pace.recent >= u64::from(alert.min_tries)
        && pace.recent * QUARTER_HOUR_SECS
            >= u64::from(alert.surge_times) * pace.busiest_quarter_hour * window
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

    /// A quiet surge window.
    const CALM: TryPace = TryPace {
        recent: 0,
        busiest_quarter_hour: 0,
    };

    fn pace(recent: u64, busiest_quarter_hour: u64) -> TryPace {
        TryPace {
            recent,
            busiest_quarter_hour,
        }
    }

    #[test]
    fn the_trigger_needs_enough_tries_and_a_share() {
        let alert = AlertSettings::default();
        let judge = |tally: TryTally| suspects(&tally, &CALM, &alert);
        assert_eq!(judge(tally(29, 0, 29)), None, "too few tries");
        assert_eq!(
            judge(tally(30, 0, 3)),
            Some(AlertCause::Blocked),
            "a tenth blocked"
        );
        assert_eq!(judge(tally(30, 14, 2)), None, "an unlucky hour");
        assert_eq!(
            judge(tally(30, 15, 0)),
            Some(AlertCause::Declined),
            "half declined"
        );
        assert_eq!(
            judge(tally(1_000, 90, 9)),
            None,
            "a busy shop's ordinary day"
        );
        let changing = |switched| TryTally {
            switched,
            ..tally(100, 5, 0)
        };
        assert_eq!(judge(changing(12)), None, "some shoppers change card");
        assert_eq!(
            judge(changing(30)),
            Some(AlertCause::Switched),
            "a third of all tries change card"
        );
    }

    #[test]
    fn a_surge_past_three_times_the_days_busiest_pace_raises_it() {
        let alert = AlertSettings::default();
        let judge = |pace: TryPace| suspects(&tally(0, 0, 0), &pace, &alert);
        // 1,800 tries in the busiest quarter hour: 2 a second, 20 in ten seconds.
        assert_eq!(judge(pace(40, 1_800)), None, "twice the peak's pace");
        assert_eq!(judge(pace(59, 1_800)), None, "just under three times");
        assert_eq!(
            judge(pace(60, 1_800)),
            Some(AlertCause::Surge),
            "three times"
        );
        assert_eq!(judge(pace(29, 0)), None, "a new shop's first tries");
        assert_eq!(
            judge(pace(30, 0)),
            Some(AlertCause::Surge),
            "thirty tries in ten seconds where there were none yesterday"
        );
        assert_eq!(judge(pace(30, 10)), Some(AlertCause::Surge), "a quiet shop");
        let off = AlertSettings {
            surge_times: 0,
            ..alert
        };
        assert_eq!(
            suspects(&tally(0, 0, 0), &pace(10_000, 0), &off),
            None,
            "off"
        );
        assert_eq!(
            suspects(&tally(30, 15, 0), &pace(60, 1_800), &alert),
            Some(AlertCause::Declined),
            "a share is named before the surge"
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
