//! The approval rate's trend: the range's rate beside that of the previous period of equal
//! length (read from the rollup as counts by state only, see `AnalyticsStore::state_counts`),
//! said as a signed change in percentage points, so it reads the same without colour.

use checkout::contract::PaymentState;

use super::figures::{Rate, class};

/// The approval rate of payments counted by state.
pub fn rate_of(counts: &[(PaymentState, u64)]) -> Rate {
    let mut rate = Rate::default();
    for (state, n) in counts {
        rate.add(class(*state), *n);
    }
    rate
}

/// The period compared with, as a sentence ends: "the previous day", "the previous 30 days".
pub fn period(days: i64) -> String {
    if days == 1 {
        "the previous day".to_owned()
    } else {
        format!("the previous {days} days")
    }
}

/// The change from `previous` to `current` in percentage points, to one decimal; `None` when
/// either period has no attempt.
pub fn points(current: Rate, previous: Rate) -> Option<f64> {
    let change = (current.ratio()? - previous.ratio()?) * 100.0;
    Some((change * 10.0).round() / 10.0)
}

/// The trend as text: "+3.2 points vs the previous 30 days (47.0 %, 94 approved of 200
/// attempted)", or why there is none.
pub fn text(current: Rate, previous: Rate, days: i64) -> String {
    let period = period(days);
    let before = match previous.ratio() {
        Some(ratio) => format!(
            "{:.1} %, {} approved of {} attempted",
            ratio * 100.0,
            previous.approved,
            previous.attempted
        ),
        None => return format!("No attempted payment in {period} to compare with."),
    };
    match points(current, previous) {
        None => format!("No attempted payment in this range; {period}: {before}."),
        Some(0.0) => {
            format!("Unchanged (0.0 points) vs {period} ({before}).")
        }
        Some(change) => format!("{change:+.1} points vs {period} ({before})."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use PaymentState::*;

    fn rate(approved: u64, attempted: u64) -> Rate {
        Rate {
            approved,
            attempted,
        }
    }

    #[test]
    fn counts_by_state_make_a_rate() {
        let counts = [
            (Captured, 3),
            (Refunded, 1),
            (Declined, 2),
            (Failed, 2),
            (Pending, 9),
        ];
        assert_eq!(rate_of(&counts), rate(4, 8));
        assert_eq!(rate_of(&[]), Rate::default());
    }

    #[test]
    fn the_change_is_signed_points_in_words() {
        assert_eq!(
            text(rate(3, 4), rate(1, 2), 30),
            "+25.0 points vs the previous 30 days (50.0 %, 1 approved of 2 attempted)."
        );
        assert_eq!(
            text(rate(1, 3), rate(1, 2), 1),
            "-16.7 points vs the previous day (50.0 %, 1 approved of 2 attempted)."
        );
        assert_eq!(
            text(rate(2, 4), rate(1, 2), 7),
            "Unchanged (0.0 points) vs the previous 7 days (50.0 %, 1 approved of 2 attempted)."
        );
        assert_eq!(
            text(rate(1, 1), Rate::default(), 7),
            "No attempted payment in the previous 7 days to compare with."
        );
        assert_eq!(
            text(Rate::default(), rate(1, 2), 7),
            "No attempted payment in this range; the previous 7 days: 50.0 %, 1 approved of 2 attempted."
        );
        // A change that rounds to nothing is no change, never "-0.0".
        assert_eq!(points(rate(1000, 3000), rate(1001, 3001)), Some(0.0));
        assert!(text(rate(1000, 3000), rate(1001, 3001), 30).starts_with("Unchanged (0.0 points)"));
    }
}
