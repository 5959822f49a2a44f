//! The overview's range as the form sends it (`range`: today, 7d, 30d or custom with `from`
//! and `to`; `tz`: an IANA time zone, by default `DASHBOARD_TIME_ZONE`) and what it means: the
//! local days it covers and, for the store, their span in UTC with the zone's offsets
//! (daylight saving included). Errors name the field.

use jiff::civil::Date;
use jiff::tz::TimeZone;
use jiff::{Timestamp, ToSpan};
use serde::Deserialize;

use crate::config::time_zone;
use crate::dashboard::error::DashboardError;
use crate::store::analytics::LocalSpan;

/// The longest custom range, in days.
pub const MAX_DAYS: i64 = 366;

/// The form's fields, as sent (empty meaning unset).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct RangeForm {
    /// `today`, `7d`, `30d` or `custom`; empty: `7d`.
    pub range: String,
    /// First local day of a custom range, `YYYY-MM-DD`.
    pub from: String,
    /// Last local day of a custom range, `YYYY-MM-DD`.
    pub to: String,
    /// IANA time zone name.
    pub tz: String,
}

/// A resolved range: whole local days in one zone.
#[derive(Debug, Clone)]
pub struct Range {
    /// `today`, `7d`, `30d` or `custom`.
    pub kind: &'static str,
    /// The zone's IANA name.
    pub tz_name: String,
    /// The zone.
    pub tz: TimeZone,
    /// First day.
    pub first: Date,
    /// Last day (included).
    pub last: Date,
}

impl RangeForm {
    /// The range asked for, `now` being the current time and `default_tz` the configured
    /// zone.
    pub fn resolve(&self, now: Timestamp, default_tz: &str) -> Result<Range, DashboardError> {
        let tz_name = match self.tz.trim() {
            "" => default_tz,
            name => name,
        };
        let tz = time_zone(tz_name).map_err(|message| DashboardError::bad("tz", message))?;
        let today = now.to_zoned_datetime(tz.clone()).date();
        let back = |days: i64| {
            today
                .checked_sub(days.days())
                .map_err(|_| DashboardError::bad("range", "reaches before the calendar"))
        };
        let (kind, first, last) = match self.range.trim() {
            "today" => ("today", today, today),
            "" | "7d" => ("7d", back(6)?, today),
            "30d" => ("30d", back(29)?, today),
            "custom" => {
                let first = date("from", &self.from)?;
                let last = date("to", &self.to)?;
                if last < first {
                    return Err(DashboardError::bad("to", "must not be before from"));
                }
                if days_between(first, last) >= MAX_DAYS {
                    return Err(DashboardError::bad(
                        "to",
                        format!("a range is at most {MAX_DAYS} days"),
                    ));
                }
                ("custom", first, last)
            }
            _ => {
                return Err(DashboardError::bad(
                    "range",
                    "must be today, 7d, 30d or custom",
                ));
            }
        };
        Ok(Range {
            kind,
            tz_name: tz_name.to_owned(),
            tz,
            first,
            last,
        })
    }
}

fn date(field: &str, text: &str) -> Result<Date, DashboardError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(DashboardError::bad(field, "is required for a custom range"));
    }
    let valid = text.len() == 10 && text.as_bytes()[4] == b'-' && text.as_bytes()[7] == b'-';
    valid
        .then(|| text.parse::<Date>().ok())
        .flatten()
        .ok_or_else(|| DashboardError::bad(field, "must be a date as YYYY-MM-DD"))
}

fn days_between(first: Date, last: Date) -> i64 {
    (epoch_day(last) - epoch_day(first)).max(0)
}

/// Days since 1970-01-01 of `date` (the store's local day numbers).
pub fn epoch_day(date: Date) -> i64 {
    date.to_zoned_datetime(TimeZone::UTC)
        .map_or(0, |zdt| zdt.timestamp().as_second().div_euclid(86_400))
}

impl Range {
    /// Every day of the range, first to last.
    pub fn days(&self) -> Vec<Date> {
        let mut days = Vec::new();
        let mut day = self.first;
        while day <= self.last {
            days.push(day);
            match day.tomorrow() {
                Ok(next) => day = next,
                Err(_) => break,
            }
        }
        days
    }

    /// How many days the range covers.
    pub fn len_days(&self) -> i64 {
        days_between(self.first, self.last) + 1
    }

    /// The range of as many days just before this one, in the same zone (the period the
    /// approval rate is compared with).
    pub fn previous(&self) -> Result<Range, DashboardError> {
        let too_early = |_| DashboardError::bad("range", "reaches before the calendar");
        Ok(Range {
            first: self
                .first
                .checked_sub(self.len_days().days())
                .map_err(too_early)?,
            last: self.first.yesterday().map_err(too_early)?,
            ..self.clone()
        })
    }

    /// When local day `date` starts (its first instant: midnight, or the end of a daylight
    /// saving gap that swallows midnight).
    pub fn start_of(&self, date: Date) -> Result<Timestamp, DashboardError> {
        date.to_zoned_datetime(self.tz.clone())
            .and_then(|zdt| zdt.start_of_day())
            .map(|zdt| zdt.timestamp())
            .map_err(|_| DashboardError::bad("range", "reaches beyond the calendar"))
    }

    /// The range for the store: from the first day's start to the start of the day after
    /// the last, with the zone's offset from the first instant and at each transition within.
    pub fn local_span(&self) -> Result<LocalSpan, DashboardError> {
        let from = self.start_of(self.first)?;
        let after = self
            .last
            .tomorrow()
            .map_err(|_| DashboardError::bad("to", "reaches beyond the calendar"))?;
        let before = self.start_of(after)?;
        let mut offsets = vec![(from.as_millisecond(), self.tz.to_offset(from).seconds())];
        for transition in self.tz.following(from) {
            if transition.timestamp() >= before {
                break;
            }
            offsets.push((
                transition.timestamp().as_millisecond(),
                transition.offset().seconds(),
            ));
        }
        Ok(LocalSpan {
            from_ms: from.as_millisecond(),
            before_ms: before.as_millisecond(),
            offsets,
        })
    }

    /// `[from, before)` of the range as `time` instants (for the store's other reads).
    pub fn bounds(&self) -> Result<(time::OffsetDateTime, time::OffsetDateTime), DashboardError> {
        let span = self.local_span()?;
        let at = |ms: i64| {
            time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000)
                .map_err(|_| DashboardError::bad("range", "reaches beyond the calendar"))
        };
        Ok((at(span.from_ms)?, at(span.before_ms)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(range: &str, from: &str, to: &str, tz: &str) -> RangeForm {
        RangeForm {
            range: range.into(),
            from: from.into(),
            to: to.into(),
            tz: tz.into(),
        }
    }

    fn field(result: Result<Range, DashboardError>) -> String {
        match result {
            Err(DashboardError::BadRequest { field, .. }) => field,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn presets_end_today_in_the_zone() {
        // 23:30 UTC on 31 March is already 1 April in Berlin.
        let now: Timestamp = "2025-03-31T23:30:00Z".parse().expect("time");
        let range = form("7d", "", "", "Europe/Berlin")
            .resolve(now, "UTC")
            .expect("valid");
        assert_eq!(range.last.to_string(), "2025-04-01");
        assert_eq!(range.first.to_string(), "2025-03-26");
        assert_eq!(range.days().len(), 7);
        let utc = form("today", "", "", "").resolve(now, "UTC").expect("utc");
        assert_eq!((utc.first, utc.tz_name.as_str()), (utc.last, "UTC"));
        assert_eq!(utc.last.to_string(), "2025-03-31");
        let month = form("30d", "", "", "").resolve(now, "UTC").expect("30d");
        assert_eq!(month.days().len(), 30);
    }

    #[test]
    fn the_previous_range_has_as_many_days_just_before() {
        let now: Timestamp = "2025-03-31T12:00:00Z".parse().expect("time");
        let month = form("30d", "", "", "").resolve(now, "UTC").expect("30d");
        let before = month.previous().expect("previous");
        assert_eq!(before.first.to_string(), "2025-01-31");
        assert_eq!(before.last.to_string(), "2025-03-01");
        assert_eq!((before.len_days(), month.len_days()), (30, 30));
        let today = form("today", "", "", "")
            .resolve(now, "UTC")
            .expect("today");
        let yesterday = today.previous().expect("previous");
        assert_eq!(
            (yesterday.first.to_string(), yesterday.last.to_string()),
            ("2025-03-30".to_owned(), "2025-03-30".to_owned())
        );
        // Its span ends where the range's starts.
        assert_eq!(
            before.local_span().expect("span").before_ms,
            month.local_span().expect("span").from_ms
        );
    }

    #[test]
    fn a_daylight_saving_day_has_23_hours_and_its_offsets() {
        let now: Timestamp = "2025-04-10T12:00:00Z".parse().expect("time");
        let range = form("custom", "2025-03-30", "2025-03-30", "Europe/Berlin")
            .resolve(now, "UTC")
            .expect("valid");
        let span = range.local_span().expect("span");
        assert_eq!(span.before_ms - span.from_ms, 23 * 3_600_000);
        // Midnight CET is 23:00 UTC the day before; CEST from 01:00 UTC.
        let start: Timestamp = "2025-03-29T23:00:00Z".parse().expect("time");
        let switch: Timestamp = "2025-03-30T01:00:00Z".parse().expect("time");
        assert_eq!(
            span.offsets,
            vec![
                (start.as_millisecond(), 3600),
                (switch.as_millisecond(), 7200)
            ]
        );
    }

    #[test]
    fn bad_ranges_name_their_field() {
        let now: Timestamp = "2025-06-01T00:00:00Z".parse().expect("time");
        let resolve = |f: RangeForm| field(f.resolve(now, "UTC"));
        assert_eq!(resolve(form("", "", "", "Mars/Olympus")), "tz");
        assert_eq!(resolve(form("", "", "", "../../etc/passwd")), "tz");
        assert_eq!(resolve(form("week", "", "", "")), "range");
        assert_eq!(resolve(form("custom", "", "2025-01-01", "")), "from");
        assert_eq!(
            resolve(form("custom", "2025-01-01", "01/02/2025", "")),
            "to"
        );
        assert_eq!(
            resolve(form("custom", "2025-02-01", "2025-01-01", "")),
            "to"
        );
        assert_eq!(
            resolve(form("custom", "2024-01-01", "2025-01-01", "")),
            "to"
        );
        assert!(
            form("custom", "2024-01-02", "2025-01-01", "")
                .resolve(now, "UTC")
                .is_ok()
        );
    }
}
