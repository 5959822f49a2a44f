//! Conversions between Rust values and the plain integers and strings stored in the tables,
//! the same on both backends.

use checkout::contract::DeclineCode;
use time::OffsetDateTime;

use crate::store::error::{StoreError, StoreResult};

/// Unix milliseconds, saturating far outside any real date.
pub(crate) fn ms(at: OffsetDateTime) -> i64 {
    i64::try_from(at.unix_timestamp_nanos() / 1_000_000).unwrap_or(i64::MAX)
}

/// `ms` of an optional time.
pub(crate) fn ms_opt(at: Option<OffsetDateTime>) -> Option<i64> {
    at.map(ms)
}

/// The time `value` milliseconds after the epoch.
pub(crate) fn time(value: i64, column: &'static str) -> StoreResult<OffsetDateTime> {
    OffsetDateTime::from_unix_timestamp_nanos(i128::from(value) * 1_000_000)
        .map_err(|_| StoreError::Corrupt(column))
}

/// `time` of an optional column.
pub(crate) fn time_opt(
    value: Option<i64>,
    column: &'static str,
) -> StoreResult<Option<OffsetDateTime>> {
    value.map(|v| time(v, column)).transpose()
}

/// A count or amount as the signed 64-bit integer both backends store.
pub(crate) fn int(value: u64, field: &'static str) -> StoreResult<i64> {
    i64::try_from(value).map_err(|_| StoreError::Invalid {
        field,
        reason: "is too large",
    })
}

/// `int` of an optional value.
pub(crate) fn int_opt(value: Option<u64>, field: &'static str) -> StoreResult<Option<i64>> {
    value.map(|v| int(v, field)).transpose()
}

/// A stored non-negative integer as the unsigned type the model uses.
pub(crate) fn unsigned<T: TryFrom<i64>>(value: i64, column: &'static str) -> StoreResult<T> {
    T::try_from(value).map_err(|_| StoreError::Corrupt(column))
}

/// A stored name parsed by `parse`.
pub(crate) fn named<T>(
    value: &str,
    column: &'static str,
    parse: impl Fn(&str) -> Option<T>,
) -> StoreResult<T> {
    parse(value).ok_or(StoreError::Corrupt(column))
}

/// Stored name of a decline reason (the contract's JSON name).
pub(crate) fn decline_name(code: DeclineCode) -> &'static str {
    match code {
        DeclineCode::DoNotHonour => "do_not_honour",
        DeclineCode::InsufficientFunds => "insufficient_funds",
        DeclineCode::ExpiredCard => "expired_card",
        DeclineCode::LostOrStolen => "lost_or_stolen",
        DeclineCode::IssuerUnavailable => "issuer_unavailable",
        DeclineCode::RiskRejected => "risk_rejected",
        DeclineCode::AuthenticationFailed => "authentication_failed",
        DeclineCode::Other => "other",
    }
}

const DECLINE_CODES: [DeclineCode; 8] = [
    DeclineCode::DoNotHonour,
    DeclineCode::InsufficientFunds,
    DeclineCode::ExpiredCard,
    DeclineCode::LostOrStolen,
    DeclineCode::IssuerUnavailable,
    DeclineCode::RiskRejected,
    DeclineCode::AuthenticationFailed,
    DeclineCode::Other,
];

/// Reads a stored decline reason.
pub(crate) fn parse_decline(name: &str) -> Option<DeclineCode> {
    DECLINE_CODES
        .into_iter()
        .find(|code| decline_name(*code) == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_keep_milliseconds() {
        let at = OffsetDateTime::from_unix_timestamp_nanos(1_700_000_000_123_456_789)
            .expect("valid time");
        assert_eq!(ms(at), 1_700_000_000_123);
        assert_eq!(
            time(ms(at), "t").expect("in range").unix_timestamp_nanos(),
            1_700_000_000_123_000_000
        );
        assert!(time(i64::MAX, "t").is_err());
    }

    #[test]
    fn integers_refuse_what_does_not_fit() {
        assert_eq!(int(5, "amount").ok(), Some(5));
        assert!(int(u64::MAX, "amount").is_err());
        assert!(unsigned::<u32>(-1, "attempts").is_err());
        assert_eq!(unsigned::<u8>(12, "month").ok(), Some(12));
    }

    #[test]
    fn decline_names_match_the_contract_json() {
        for code in DECLINE_CODES {
            assert_eq!(parse_decline(decline_name(code)), Some(code));
            let json = serde_json::to_value(code).expect("code serializes");
            assert_eq!(json.as_str(), Some(decline_name(code)));
        }
    }
}
