//! Card expiry: month and four-digit year, checked against a "today" the caller supplies (this
//! code runs in the browser and on the server and reads no clock itself).

use super::error::CardError;

/// How far ahead an expiry may lie before it is taken for a typo.
const MAX_YEARS_AHEAD: u32 = 20;

/// A calendar month: the caller's "today" for expiry checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct YearMonth {
    year: u16,
    month: u8,
}

impl YearMonth {
    /// `None` unless `month` is 1–12.
    pub fn new(year: u16, month: u8) -> Option<Self> {
        (1..=12).contains(&month).then_some(Self { year, month })
    }

    /// The four-digit year.
    pub fn year(self) -> u16 {
        self.year
    }

    /// The month, 1–12.
    pub fn month(self) -> u8 {
        self.month
    }

    /// The calendar month `at` falls in (in `at`'s offset): the servers' "today".
    #[cfg(feature = "server")]
    pub fn of(at: time::OffsetDateTime) -> Self {
        Self {
            year: u16::try_from(at.year()).unwrap_or(u16::MAX),
            // `time::Month` is always 1–12.
            month: u8::from(at.month()),
        }
    }

    /// Months since year 0: makes month arithmetic a subtraction.
    fn index(self) -> u32 {
        u32::from(self.year) * 12 + u32::from(self.month) - 1
    }
}

/// A validated expiry date: month 1–12 and a four-digit year, not in the past when parsed.
///
/// A card is valid through the last day of its expiry month.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Expiry {
    year: u16,
    month: u8,
}

impl Expiry {
    /// Parses separate month (`"5"`, `"05"`) and year (`"28"` or `"2028"`) fields and checks
    /// the date is neither past nor more than twenty years after `today`.
    pub fn parse(month: &str, year: &str, today: YearMonth) -> Result<Self, CardError> {
        let month = parse_month(month.trim())?;
        let year = parse_year(year.trim(), today)?;
        Self::checked(YearMonth { year, month }, today)
    }

    /// Parses the combined form field: `"MM/YY"`, `"MM / YY"`, `"MMYY"`, and the same with a
    /// four-digit year (`"05/2028"`, `"052028"`). A one-digit month needs the slash (`"5/28"`).
    pub fn parse_combined(input: &str, today: YearMonth) -> Result<Self, CardError> {
        let compact: String = input.chars().filter(|c| !c.is_whitespace()).collect();
        if compact.is_empty() {
            return Err(CardError::ExpiryRequired);
        }
        let (month, year) = match compact.split_once('/') {
            Some((month, year)) => (month, year),
            None if compact.len() == 4 || compact.len() == 6 => {
                if !compact.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(CardError::InvalidExpiry);
                }
                compact.split_at(2)
            }
            None => return Err(CardError::InvalidExpiry),
        };
        if month.is_empty() || year.is_empty() || year.contains('/') {
            return Err(CardError::InvalidExpiry);
        }
        Self::parse(month, year, today)
    }

    /// True when the card is no longer valid in the month `today`.
    pub fn is_expired_at(&self, today: YearMonth) -> bool {
        self.year_month() < today
    }

    /// The month, 1–12.
    pub fn month(&self) -> u8 {
        self.month
    }

    /// The four-digit year.
    pub fn year(&self) -> u16 {
        self.year
    }

    /// The month as two digits, `"05"`: the gateway's `expiry_month`.
    pub fn month_2(&self) -> String {
        format!("{:02}", self.month)
    }

    /// The year as two digits, `"28"`: the gateway's `expiry_year`.
    pub fn year_2(&self) -> String {
        format!("{:02}", self.year % 100)
    }

    /// The year as four digits, `"2028"`.
    pub fn year_4(&self) -> String {
        format!("{:04}", self.year)
    }

    fn year_month(&self) -> YearMonth {
        YearMonth {
            year: self.year,
            month: self.month,
        }
    }

    fn checked(date: YearMonth, today: YearMonth) -> Result<Self, CardError> {
        if date < today {
            return Err(CardError::Expired);
        }
        if date.index() - today.index() > MAX_YEARS_AHEAD * 12 {
            return Err(CardError::ExpiryTooFar);
        }
        Ok(Self {
            year: date.year,
            month: date.month,
        })
    }
}

/// "1"–"12" or "01"–"12".
fn parse_month(text: &str) -> Result<u8, CardError> {
    if text.is_empty() {
        return Err(CardError::MonthRequired);
    }
    if text.len() > 2 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(CardError::InvalidMonth);
    }
    match text.parse::<u8>() {
        Ok(month @ 1..=12) => Ok(month),
        _ => Err(CardError::InvalidMonth),
    }
}

/// Two digits (in the century window around `today`) or four digits.
fn parse_year(text: &str, today: YearMonth) -> Result<u16, CardError> {
    if text.is_empty() {
        return Err(CardError::YearRequired);
    }
    if !(text.len() == 2 || text.len() == 4) || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(CardError::InvalidYear);
    }
    let value: u16 = text.parse().map_err(|_| CardError::InvalidYear)?;
    if text.len() == 4 {
        return Ok(value);
    }
    // The year ending in `value` closest to today: "28" is 2028 in 2026, and "05" is 2105
    // in 2095. Anything not near today then fails as expired or too far.
    let today_year = i32::from(today.year);
    let mut year = today_year - today_year % 100 + i32::from(value);
    if year < today_year - 50 {
        year += 100;
    } else if year >= today_year + 50 {
        year -= 100;
    }
    u16::try_from(year).map_err(|_| CardError::InvalidYear)
}

#[cfg(test)]
mod tests {
    #[cfg(feature = "server")]
    #[test]
    fn year_month_of_a_date() {
        let at = time::OffsetDateTime::from_unix_timestamp(1_718_000_000).expect("time");
        assert_eq!(YearMonth::of(at), YearMonth::new(2024, 6).expect("month"));
    }

    use super::*;

    fn today() -> YearMonth {
        YearMonth::new(2026, 5).expect("valid")
    }

    #[test]
    fn year_month_rejects_bad_months() {
        assert!(YearMonth::new(2026, 0).is_none());
        assert!(YearMonth::new(2026, 13).is_none());
        assert_eq!(YearMonth::new(2026, 12).map(YearMonth::month), Some(12));
    }

    #[test]
    fn parses_month_and_year_fields() {
        let expiry = Expiry::parse("5", "28", today()).expect("valid");
        assert_eq!((expiry.month(), expiry.year()), (5, 2028));
        assert_eq!(expiry.month_2(), "05");
        assert_eq!(expiry.year_2(), "28");
        assert_eq!(expiry.year_4(), "2028");
        assert_eq!(Expiry::parse("05", "2028", today()), Ok(expiry));
        assert_eq!(
            Expiry::parse(" 12 ", " 30 ", today()).map(|e| e.month()),
            Ok(12)
        );
    }

    #[test]
    fn month_errors() {
        for bad in ["0", "00", "13", "99", "1a", "-1", "011", "+1"] {
            assert_eq!(
                Expiry::parse(bad, "28", today()),
                Err(CardError::InvalidMonth),
                "{bad}"
            );
        }
        assert_eq!(
            Expiry::parse("", "28", today()),
            Err(CardError::MonthRequired)
        );
    }

    #[test]
    fn year_errors() {
        for bad in ["2", "202", "20288", "2a", "+28"] {
            assert_eq!(
                Expiry::parse("05", bad, today()),
                Err(CardError::InvalidYear),
                "{bad}"
            );
        }
        assert_eq!(
            Expiry::parse("05", " ", today()),
            Err(CardError::YearRequired)
        );
    }

    #[test]
    fn valid_through_the_end_of_its_month() {
        assert!(Expiry::parse("05", "26", today()).is_ok());
        assert_eq!(Expiry::parse("04", "26", today()), Err(CardError::Expired));
        assert_eq!(
            Expiry::parse("12", "2025", today()),
            Err(CardError::Expired)
        );
        assert_eq!(Expiry::parse("05", "20", today()), Err(CardError::Expired));
        let expiry = Expiry::parse("05", "26", today()).expect("valid");
        assert!(!expiry.is_expired_at(today()));
        assert!(expiry.is_expired_at(YearMonth::new(2026, 6).expect("valid")));
    }

    #[test]
    fn at_most_twenty_years_ahead() {
        assert!(Expiry::parse("05", "2046", today()).is_ok());
        assert_eq!(
            Expiry::parse("06", "2046", today()),
            Err(CardError::ExpiryTooFar)
        );
        // Two-digit years read within fifty years of today: "75" is 2075, "99" is 1999.
        assert_eq!(
            Expiry::parse("01", "75", today()),
            Err(CardError::ExpiryTooFar)
        );
        assert_eq!(Expiry::parse("01", "99", today()), Err(CardError::Expired));
        assert_eq!(
            Expiry::parse("01", "9999", today()),
            Err(CardError::ExpiryTooFar)
        );
    }

    #[test]
    fn two_digit_years_near_a_century_boundary() {
        let late = YearMonth::new(2095, 1).expect("valid");
        assert_eq!(Expiry::parse("01", "05", late).map(|e| e.year()), Ok(2105));
        assert_eq!(
            Expiry::parse("01", "05", late).map(|e| e.year_2()),
            Ok("05".into())
        );
        assert_eq!(Expiry::parse("01", "94", late), Err(CardError::Expired));
    }

    #[test]
    fn parses_the_combined_field() {
        let expected = Expiry::parse("05", "28", today()).expect("valid");
        for input in [
            "05/28",
            "05 / 28",
            "0528",
            "5/28",
            " 05/2028 ",
            "052028",
            "05 /28",
        ] {
            assert_eq!(
                Expiry::parse_combined(input, today()),
                Ok(expected),
                "{input}"
            );
        }
    }

    #[test]
    fn combined_field_errors() {
        let cases = [
            ("", CardError::ExpiryRequired),
            ("  ", CardError::ExpiryRequired),
            ("528", CardError::InvalidExpiry),
            ("05-28", CardError::InvalidExpiry),
            ("05/", CardError::InvalidExpiry),
            ("/28", CardError::InvalidExpiry),
            ("05/28/1", CardError::InvalidExpiry),
            ("ab28", CardError::InvalidExpiry),
            ("13/28", CardError::InvalidMonth),
            ("05/2a", CardError::InvalidYear),
            ("05/20", CardError::Expired),
        ];
        for (input, error) in cases {
            assert_eq!(
                Expiry::parse_combined(input, today()),
                Err(error),
                "{input:?}"
            );
        }
    }
}
