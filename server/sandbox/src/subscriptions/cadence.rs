//! The billing period of a plan (`cycle_type` × `cycle_interval`) and the one date
//! computation everything else relies on: "k periods after this date".
//!
//! Months are calendar months. A date is always computed from its anchor in one step
//! (never by repeated addition), so a plan anchored on 31 January bills on 28/29 February,
//! 31 March, 30 April, 31 May: the day is clamped to the month's end only for the months
//! that are too short, and it does not drift.

use serde::{Deserialize, Serialize};
use time::{Duration, Month, OffsetDateTime};

/// The unit of a billing period, as sent in `subscription.cycle_type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum CycleType {
    /// `DAYS`: the interval counts days.
    Days,
    /// `WEEKLY`: the interval counts weeks of seven days.
    Weekly,
    /// `MONTHLY`: the interval counts calendar months (day clamped to the month's end).
    Monthly,
}

impl CycleType {
    /// Parses the request value (`DAYS`, `WEEKLY`, `MONTHLY`; exact, upper case).
    pub fn from_request(value: &str) -> Option<Self> {
        match value {
            "DAYS" => Some(Self::Days),
            "WEEKLY" => Some(Self::Weekly),
            "MONTHLY" => Some(Self::Monthly),
            _ => None,
        }
    }

    /// The value as sent in the creation request.
    pub fn request_name(self) -> &'static str {
        match self {
            Self::Days => "DAYS",
            Self::Weekly => "WEEKLY",
            Self::Monthly => "MONTHLY",
        }
    }

    /// The value shown in `subscription_plan_details.billing_cycle_type`. The contract names
    /// `DAYS` and `MONTHS` there; `WEEKS` for weekly plans is the emulator's choice.
    pub fn billing_name(self) -> &'static str {
        match self {
            Self::Days => "DAYS",
            Self::Weekly => "WEEKS",
            Self::Monthly => "MONTHS",
        }
    }

    /// The largest `cycle_interval` the emulator accepts for this unit (one year).
    pub fn max_interval(self) -> u32 {
        match self {
            Self::Days => 365,
            Self::Weekly => 52,
            Self::Monthly => 12,
        }
    }
}

/// A billing period: `interval` units of `unit`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cadence {
    /// The unit of the period.
    pub unit: CycleType,
    /// How many units one period lasts (at least 1).
    pub interval: u32,
}

impl Cadence {
    /// The date `periods` whole periods after `anchor`, keeping the time of day and offset.
    /// `None` only when the result falls outside the representable calendar (years ±9999).
    pub fn after(self, anchor: OffsetDateTime, periods: u32) -> Option<OffsetDateTime> {
        let units = i64::from(self.interval).checked_mul(i64::from(periods))?;
        match self.unit {
            CycleType::Days => anchor.checked_add(Duration::days(units)),
            CycleType::Weekly => anchor.checked_add(Duration::weeks(units)),
            CycleType::Monthly => add_months(anchor, units),
        }
    }
}

/// Adds calendar months, clamping the day to the last day of the target month.
fn add_months(anchor: OffsetDateTime, months: i64) -> Option<OffsetDateTime> {
    let month_index = i64::from(anchor.year())
        .checked_mul(12)?
        .checked_add(i64::from(u8::from(anchor.month())) - 1)?
        .checked_add(months)?;
    let year = i32::try_from(month_index.div_euclid(12)).ok()?;
    let month = Month::try_from(u8::try_from(month_index.rem_euclid(12) + 1).ok()?).ok()?;
    let day = anchor.day().min(time::util::days_in_month(month, year));
    let date = time::Date::from_calendar_date(year, month, day).ok()?;
    Some(anchor.replace_date(date))
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    fn monthly(interval: u32) -> Cadence {
        Cadence {
            unit: CycleType::Monthly,
            interval,
        }
    }

    #[test]
    fn parses_exactly_the_three_request_values() {
        assert_eq!(CycleType::from_request("DAYS"), Some(CycleType::Days));
        assert_eq!(CycleType::from_request("WEEKLY"), Some(CycleType::Weekly));
        assert_eq!(CycleType::from_request("MONTHLY"), Some(CycleType::Monthly));
        assert_eq!(CycleType::from_request("monthly"), None);
        assert_eq!(CycleType::from_request("MONTHS"), None);
        assert_eq!(CycleType::from_request(""), None);
        for unit in [CycleType::Days, CycleType::Weekly, CycleType::Monthly] {
            assert_eq!(CycleType::from_request(unit.request_name()), Some(unit));
        }
    }

    #[test]
    fn days_and_weeks_are_fixed_lengths() {
        let start = datetime!(2025-03-30 10:15:00 UTC);
        let days = Cadence {
            unit: CycleType::Days,
            interval: 3,
        };
        assert_eq!(days.after(start, 0), Some(start));
        assert_eq!(
            days.after(start, 2),
            Some(datetime!(2025-04-05 10:15:00 UTC))
        );
        let weeks = Cadence {
            unit: CycleType::Weekly,
            interval: 2,
        };
        assert_eq!(
            weeks.after(start, 1),
            Some(datetime!(2025-04-13 10:15:00 UTC))
        );
    }

    #[test]
    fn months_clamp_to_month_end_without_drifting() {
        let start = datetime!(2025-01-31 08:00:00 UTC);
        let plan = monthly(1);
        assert_eq!(
            plan.after(start, 1),
            Some(datetime!(2025-02-28 08:00:00 UTC))
        );
        assert_eq!(
            plan.after(start, 2),
            Some(datetime!(2025-03-31 08:00:00 UTC))
        );
        assert_eq!(
            plan.after(start, 3),
            Some(datetime!(2025-04-30 08:00:00 UTC))
        );
        assert_eq!(
            plan.after(start, 13),
            Some(datetime!(2026-02-28 08:00:00 UTC))
        );
    }

    #[test]
    fn months_know_leap_years_and_cross_years() {
        let start = datetime!(2023-11-30 23:59:59 UTC);
        assert_eq!(
            monthly(3).after(start, 1),
            Some(datetime!(2024-02-29 23:59:59 UTC))
        );
        assert_eq!(
            monthly(12).after(datetime!(2024-02-29 00:00:00 UTC), 1),
            Some(datetime!(2025-02-28 00:00:00 UTC))
        );
        assert_eq!(
            monthly(1).after(datetime!(2025-12-15 12:00:00 UTC), 1),
            Some(datetime!(2026-01-15 12:00:00 UTC))
        );
    }

    #[test]
    fn keeps_the_offset_of_the_anchor() {
        let start = datetime!(2025-01-31 23:30:00 +09:00);
        assert_eq!(
            monthly(1).after(start, 1),
            Some(datetime!(2025-02-28 23:30:00 +09:00))
        );
    }

    #[test]
    fn beyond_the_calendar_is_none_not_a_panic() {
        let start = datetime!(9999-06-01 00:00:00 UTC);
        assert_eq!(monthly(12).after(start, 1), None);
        let days = Cadence {
            unit: CycleType::Days,
            interval: u32::MAX,
        };
        assert_eq!(days.after(start, u32::MAX), None);
    }
}
