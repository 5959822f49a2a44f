//! The length of a plan's billing period in calendar terms: what a paid cycle covers. Used for
//! the `period_start` / `period_end` a paid cycle's event carries, wherever that cycle is
//! recorded (the sign-up, a poll, a subscription found in the gateway's list).

use checkout::contract::CycleUnit;
use time::{Date, Month, OffsetDateTime, util::days_in_month};

/// One billing period of `interval` `unit`s after `start`: days and weeks as exact days,
/// months as calendar months with the day clamped to the month's end (31 January + 1 month is
/// 28 or 29 February), the time of day kept. `None` past the calendar's range.
pub fn period_end(start: OffsetDateTime, unit: CycleUnit, interval: u32) -> Option<OffsetDateTime> {
    match unit {
        CycleUnit::Days => start.checked_add(time::Duration::days(i64::from(interval))),
        CycleUnit::Weeks => start.checked_add(time::Duration::weeks(i64::from(interval))),
        CycleUnit::Months => {
            let months = i64::from(start.month() as u8 - 1) + i64::from(interval);
            let year = i32::try_from(i64::from(start.year()) + months / 12).ok()?;
            let month = Month::try_from(u8::try_from(months % 12 + 1).ok()?).ok()?;
            let day = start.day().min(days_in_month(month, year));
            let date = Date::from_calendar_date(year, month, day).ok()?;
            Some(start.replace_date(date))
        }
    }
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;

    use super::*;

    #[test]
    fn periods_in_calendar_terms() {
        let start = datetime!(2031-01-31 10:30 UTC);
        assert_eq!(
            period_end(start, CycleUnit::Months, 1),
            Some(datetime!(2031-02-28 10:30 UTC))
        );
        assert_eq!(
            period_end(datetime!(2032-01-31 0:00 UTC), CycleUnit::Months, 1),
            Some(datetime!(2032-02-29 0:00 UTC))
        );
        assert_eq!(
            period_end(start, CycleUnit::Months, 12),
            Some(datetime!(2032-01-31 10:30 UTC))
        );
        assert_eq!(
            period_end(datetime!(2031-11-15 0:00 UTC), CycleUnit::Months, 3),
            Some(datetime!(2032-02-15 0:00 UTC))
        );
        assert_eq!(
            period_end(start, CycleUnit::Weeks, 2),
            Some(datetime!(2031-02-14 10:30 UTC))
        );
        assert_eq!(
            period_end(start, CycleUnit::Days, 7),
            Some(datetime!(2031-02-07 10:30 UTC))
        );
    }
}
