//! The one error type of the card rules: which field is wrong, a stable machine code the UI and
//! the HTTP layer translate, and an English message. No message ever contains the input.

use thiserror::Error;

/// Why a piece of card input was refused.
///
/// [`CardError::field`] names the form field and [`CardError::code`] the problem; both are
/// stable strings. The `Display` text is English fallback wording and never repeats the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum CardError {
    /// The card number is empty.
    #[error("enter the card number")]
    NumberRequired,
    /// The card number holds something other than digits, spaces and dashes.
    #[error("the card number may contain only digits, spaces and dashes")]
    InvalidNumber,
    /// Too few digits, for any card or for the detected brand.
    #[error("the card number is incomplete")]
    IncompleteNumber,
    /// Too many digits, for any card or for the detected brand.
    #[error("the card number has too many digits")]
    NumberTooLong,
    /// The digits fail the Luhn check: a typo.
    #[error("the card number is not valid")]
    LuhnFailed,
    /// The combined expiry field is empty.
    #[error("enter the expiry date")]
    ExpiryRequired,
    /// The combined expiry field is not `MM/YY`, `MM / YY`, `MMYY` or a four-digit-year form.
    #[error("the expiry date must look like MM / YY")]
    InvalidExpiry,
    /// The expiry month is empty.
    #[error("enter the expiry month")]
    MonthRequired,
    /// The expiry month is not a number from 1 to 12.
    #[error("the expiry month must be a number from 01 to 12")]
    InvalidMonth,
    /// The expiry year is empty.
    #[error("enter the expiry year")]
    YearRequired,
    /// The expiry year is not two or four digits.
    #[error("the expiry year must have two or four digits")]
    InvalidYear,
    /// The card expired before the current month.
    #[error("the card has expired")]
    Expired,
    /// The expiry is more than twenty years ahead: almost certainly a typo.
    #[error("the expiry date is too far in the future")]
    ExpiryTooFar,
    /// The security code is empty.
    #[error("enter the security code")]
    CvcRequired,
    /// The security code holds something other than digits.
    #[error("the security code may contain only digits")]
    InvalidCvc,
    /// The security code has the wrong number of digits (for the brand, when known).
    #[error("the security code must have {} digits", digit_count_phrase(*.min, *.max))]
    CvcLength {
        /// Fewest digits accepted.
        min: u8,
        /// Most digits accepted.
        max: u8,
    },
    /// The cardholder name is empty.
    #[error("enter the name on the card")]
    NameRequired,
    /// The cardholder name is longer than the limit.
    #[error("the name on the card may have at most {max} characters")]
    NameTooLong {
        /// The limit, in characters.
        max: usize,
    },
    /// The cardholder name holds control characters.
    #[error("the name on the card contains characters that are not allowed")]
    InvalidName,
    /// The cardholder name holds a long run of digits, as if a card number was typed there.
    #[error("the name on the card must not contain a card number")]
    NameContainsNumber,
}

impl CardError {
    /// The form field at fault: one of `number`, `expiry`, `expiry_month`, `expiry_year`,
    /// `cvc`, `name`.
    pub fn field(&self) -> &'static str {
        match self {
            Self::NumberRequired
            | Self::InvalidNumber
            | Self::IncompleteNumber
            | Self::NumberTooLong
            | Self::LuhnFailed => "number",
            Self::ExpiryRequired | Self::InvalidExpiry | Self::Expired | Self::ExpiryTooFar => {
                "expiry"
            }
            Self::MonthRequired | Self::InvalidMonth => "expiry_month",
            Self::YearRequired | Self::InvalidYear => "expiry_year",
            Self::CvcRequired | Self::InvalidCvc | Self::CvcLength { .. } => "cvc",
            Self::NameRequired
            | Self::NameTooLong { .. }
            | Self::InvalidName
            | Self::NameContainsNumber => "name",
        }
    }

    /// A stable snake_case code for the problem, for translation and for API clients.
    pub fn code(&self) -> &'static str {
        match self {
            Self::NumberRequired => "number_required",
            Self::InvalidNumber => "invalid_number",
            Self::IncompleteNumber => "incomplete_number",
            Self::NumberTooLong => "number_too_long",
            Self::LuhnFailed => "luhn_failed",
            Self::ExpiryRequired => "expiry_required",
            Self::InvalidExpiry => "invalid_expiry",
            Self::MonthRequired => "month_required",
            Self::InvalidMonth => "invalid_month",
            Self::YearRequired => "year_required",
            Self::InvalidYear => "invalid_year",
            Self::Expired => "expired",
            Self::ExpiryTooFar => "expiry_too_far",
            Self::CvcRequired => "cvc_required",
            Self::InvalidCvc => "invalid_cvc",
            Self::CvcLength { .. } => "invalid_cvc_length",
            Self::NameRequired => "name_required",
            Self::NameTooLong { .. } => "name_too_long",
            Self::InvalidName => "invalid_name",
            Self::NameContainsNumber => "name_contains_number",
        }
    }
}

/// "3", or "3 or 4" when the range is wider than one length.
fn digit_count_phrase(min: u8, max: u8) -> String {
    if min == max {
        min.to_string()
    } else {
        format!("{min} or {max}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: [CardError; 20] = [
        CardError::NumberRequired,
        CardError::InvalidNumber,
        CardError::IncompleteNumber,
        CardError::NumberTooLong,
        CardError::LuhnFailed,
        CardError::ExpiryRequired,
        CardError::InvalidExpiry,
        CardError::MonthRequired,
        CardError::InvalidMonth,
        CardError::YearRequired,
        CardError::InvalidYear,
        CardError::Expired,
        CardError::ExpiryTooFar,
        CardError::CvcRequired,
        CardError::InvalidCvc,
        CardError::CvcLength { min: 3, max: 4 },
        CardError::NameRequired,
        CardError::NameTooLong { max: 100 },
        CardError::InvalidName,
        CardError::NameContainsNumber,
    ];

    #[test]
    fn codes_are_unique_snake_case() {
        let mut codes: Vec<&str> = ALL.iter().map(CardError::code).collect();
        assert!(
            codes
                .iter()
                .all(|c| c.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'))
        );
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), ALL.len());
    }

    #[test]
    fn fields_are_from_the_documented_set() {
        let fields = [
            "number",
            "expiry",
            "expiry_month",
            "expiry_year",
            "cvc",
            "name",
        ];
        for error in ALL {
            assert!(fields.contains(&error.field()), "{error:?}");
        }
        assert_eq!(CardError::LuhnFailed.field(), "number");
        assert_eq!(CardError::InvalidMonth.field(), "expiry_month");
        assert_eq!(CardError::Expired.field(), "expiry");
    }

    #[test]
    fn cvc_length_message_names_the_digit_count() {
        let exact = CardError::CvcLength { min: 4, max: 4 };
        assert_eq!(exact.to_string(), "the security code must have 4 digits");
        let either = CardError::CvcLength { min: 3, max: 4 };
        assert_eq!(
            either.to_string(),
            "the security code must have 3 or 4 digits"
        );
    }
}
