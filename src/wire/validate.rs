//! Structural checks of request bodies and path ids against the contract's limits
//! (gateway-interface.md, "Limits"), shared by the client (before sending) and the emulator
//! (on receipt). Each failure names the JSON field it concerns.

use std::net::IpAddr;

use thiserror::Error;

/// A request field that breaks the contract, named by its JSON path (`card.number`).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("invalid `{field}`: {reason}")]
pub struct WireValidationError {
    /// JSON path of the offending field.
    pub field: String,
    /// What is wrong with it (never the value itself: it may be card data).
    pub reason: String,
}

impl WireValidationError {
    /// Builds an error for `field`.
    pub fn new(field: impl Into<String>, reason: impl Into<String>) -> Self {
        Self {
            field: field.into(),
            reason: reason.into(),
        }
    }
}

/// Result of a validation step.
pub type Validation = Result<(), WireValidationError>;

/// Requires `1..=max` characters.
pub(crate) fn bounded(field: &str, value: &str, max: usize) -> Validation {
    let length = value.chars().count();
    if length == 0 {
        return Err(WireValidationError::new(field, "must not be empty"));
    }
    if length > max {
        return Err(WireValidationError::new(
            field,
            format!("must be at most {max} characters, got {length}"),
        ));
    }
    Ok(())
}

/// A three-letter ISO 4217 code ("length 3").
pub(crate) fn currency(field: &str, value: &str) -> Validation {
    if value.len() == 3 && value.bytes().all(|b| b.is_ascii_alphabetic()) {
        Ok(())
    } else {
        Err(WireValidationError::new(
            field,
            "must be a three-letter currency code",
        ))
    }
}

/// An IPv4 or IPv6 address of at most 45 characters.
pub(crate) fn ip_address(field: &str, value: &str) -> Validation {
    bounded(field, value, 45)?;
    value
        .parse::<IpAddr>()
        .map(|_| ())
        .map_err(|_| WireValidationError::new(field, "must be an IPv4 or IPv6 address"))
}

/// `len` ASCII digits, with `len` in the given range.
pub(crate) fn digits(field: &str, value: &str, min: usize, max: usize) -> Validation {
    let ok = (min..=max).contains(&value.len()) && value.bytes().all(|b| b.is_ascii_digit());
    if ok {
        Ok(())
    } else if min == max {
        Err(WireValidationError::new(
            field,
            format!("must be {min} digits"),
        ))
    } else {
        Err(WireValidationError::new(
            field,
            format!("must be {min} to {max} digits"),
        ))
    }
}

/// `transactionId` in a path or body: a 36-character id (UUID form) of letters, digits and
/// hyphens, so it can be placed in a URL path without escaping.
pub fn transaction_id(value: &str) -> Validation {
    let field = "transactionId";
    if value.len() != 36 {
        return Err(WireValidationError::new(
            field,
            "must be exactly 36 characters",
        ));
    }
    url_safe_id(field, value)
}

/// `subscription_id` in a path: 1 to 36 letters, digits, hyphens or underscores, and not
/// `list` (`GET /subscription/list` is the list endpoint, so that id could never be read).
pub fn subscription_id(value: &str) -> Validation {
    let field = "subscription_id";
    bounded(field, value, 36)?;
    url_safe_id(field, value)?;
    if value.eq_ignore_ascii_case("list") {
        return Err(WireValidationError::new(
            field,
            "`list` is reserved by the list endpoint",
        ));
    }
    Ok(())
}

fn url_safe_id(field: &str, value: &str) -> Validation {
    if value
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    {
        Ok(())
    } else {
        Err(WireValidationError::new(
            field,
            "may contain only letters, digits, '-' and '_'",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transaction_ids() {
        assert!(transaction_id("0b6f3a52-3c6e-4f0e-9a53-1d2c3b4a5f60").is_ok());
        assert!(transaction_id("short").is_err());
        assert!(transaction_id("0b6f3a52/3c6e-4f0e-9a53-1d2c3b4a5f60").is_err());
        assert!(transaction_id("0b6f3a52-3c6e-4f0e-9a53-1d2c3b4a5f6é").is_err());
    }

    #[test]
    fn subscription_ids() {
        assert!(subscription_id("sub_123").is_ok());
        assert!(subscription_id("").is_err());
        assert!(subscription_id(&"a".repeat(37)).is_err());
        assert!(subscription_id("../list").is_err());
        assert!(subscription_id("a?b").is_err());
        assert!(subscription_id("list").is_err());
    }

    #[test]
    fn limits_name_the_field() {
        let error = bounded("merchant_txn_ref", &"x".repeat(46), 45).unwrap_err();
        assert_eq!(error.field, "merchant_txn_ref");
        assert!(currency("currency", "JP").is_err());
        assert!(ip_address("customer_ip", "::1").is_ok());
        assert!(ip_address("customer_ip", "nope").is_err());
        assert!(digits("card.cvc", "012", 3, 4).is_ok());
        assert!(digits("card.cvc", "12", 3, 4).is_err());
    }
}
