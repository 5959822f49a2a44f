//! Request checks beyond the wire types' own `validate()`: known currencies, an amount ceiling,
//! absolute return addresses, transaction ids in paths, and the mapping of wire validation
//! errors to 400 (or 406 for the card's number, expiry and CVC).

use uuid::Uuid;

use super::error::SandboxError;
use checkout::currency::Currency;
use checkout::wire::{ReturnUrl, WireValidationError};

/// Largest amount accepted, in minor units (twelve digits): keeps every sum far from overflow.
pub const MAX_AMOUNT: u64 = 999_999_999_999;

/// Maps a wire validation failure: card number, expiry and CVC → 406, the rest → 400.
pub fn from_wire(error: WireValidationError) -> SandboxError {
    let card_field = matches!(
        error.field.as_str(),
        "card.number" | "card.cvc" | "card.expiry_month" | "card.expiry_year"
    );
    if card_field {
        SandboxError::InvalidCard {
            field: error.field,
            reason: error.reason,
        }
    } else {
        SandboxError::InvalidField {
            field: error.field,
            reason: error.reason,
        }
    }
}

/// The currency for an upper-case ISO 4217 code with minor units.
pub fn currency(code: &str) -> Result<Currency, SandboxError> {
    Currency::find(code).ok_or_else(|| {
        SandboxError::invalid(
            "currency",
            "must be a known upper-case ISO 4217 currency code (for example USD, EUR, JPY)",
        )
    })
}

/// A positive amount no larger than [`MAX_AMOUNT`].
pub fn amount(minor_units: u64) -> Result<u64, SandboxError> {
    match minor_units {
        0 => Err(SandboxError::invalid("amount", "must be greater than zero")),
        n if n > MAX_AMOUNT => Err(SandboxError::invalid(
            "amount",
            format!("must be at most {MAX_AMOUNT} minor units"),
        )),
        n => Ok(n),
    }
}

/// Each address of `return_url` must be an absolute `http` or `https` URL.
pub fn return_url(urls: &ReturnUrl) -> Result<(), SandboxError> {
    for (field, url) in [
        ("return_url.webhook_url", &urls.webhook_url),
        ("return_url.success_url", &urls.success_url),
        ("return_url.decline_url", &urls.decline_url),
    ] {
        absolute_http_url(field, url)?;
    }
    Ok(())
}

fn absolute_http_url(field: &str, url: &str) -> Result<(), SandboxError> {
    if url.chars().count() > 2048 {
        return Err(SandboxError::invalid(
            field,
            "must be at most 2048 characters",
        ));
    }
    match reqwest::Url::parse(url) {
        Ok(parsed) if matches!(parsed.scheme(), "http" | "https") && parsed.host().is_some() => {
            Ok(())
        }
        _ => Err(SandboxError::invalid(
            field,
            "must be an absolute http or https URL",
        )),
    }
}

/// A transaction id from a path or body: longer than 36 characters is a 400 naming `field`;
/// anything else that is not a UUID (every id the emulator issues is one) names no
/// transaction, a 404.
pub fn transaction_id(field: &str, id: &str) -> Result<Uuid, SandboxError> {
    if id.chars().count() > 36 {
        return Err(SandboxError::invalid(
            field,
            "must be at most 36 characters",
        ));
    }
    Uuid::try_parse(id).map_err(|_| SandboxError::NotFound("transaction".to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn card_fields_map_to_406() {
        let card = from_wire(WireValidationError::new(
            "card.cvc",
            "must be 3 to 4 digits",
        ));
        assert_eq!(card.status(), axum::http::StatusCode::NOT_ACCEPTABLE);
        let other = from_wire(WireValidationError::new("merchant_txn_ref", "too long"));
        assert_eq!(other.status(), axum::http::StatusCode::BAD_REQUEST);
        let name = from_wire(WireValidationError::new("card.name", "too long"));
        assert_eq!(name.status(), axum::http::StatusCode::BAD_REQUEST);
    }

    #[test]
    fn currencies_must_be_known_and_upper_case() {
        assert_eq!(currency("JPY").map(|c| c.exponent).ok(), Some(0));
        for code in ["jpy", "ABC", "XAU"] {
            assert!(currency(code).is_err(), "{code}");
        }
    }

    #[test]
    fn amounts_are_bounded() {
        assert!(amount(0).is_err());
        assert!(amount(MAX_AMOUNT + 1).is_err());
        assert_eq!(amount(1).ok(), Some(1));
    }

    #[test]
    fn return_urls_must_be_absolute_http() {
        let mut urls = ReturnUrl {
            webhook_url: "http://127.0.0.1:9/hook".into(),
            success_url: "https://shop.example/ok?order=1".into(),
            decline_url: "https://shop.example/no".into(),
        };
        assert!(return_url(&urls).is_ok());
        urls.decline_url = "/relative".into();
        let error = return_url(&urls).expect_err("relative");
        assert!(error.to_string().contains("return_url.decline_url"));
        urls.decline_url = "javascript:alert(1)".into();
        assert!(return_url(&urls).is_err());
    }

    #[test]
    fn transaction_ids_are_bounded_uuids() {
        let id = Uuid::new_v4();
        assert_eq!(
            transaction_id("transactionId", &id.to_string()).ok(),
            Some(id)
        );
        assert!(transaction_id("transactionId", &"a".repeat(37)).is_err());
        let unknown = transaction_id("transactionId", "not-a-uuid").expect_err("unknown");
        assert_eq!(unknown.status(), axum::http::StatusCode::NOT_FOUND);
    }
}
