//! The API's one rule for a customer id, wherever one arrives (a checkout session's
//! `customer_id`, a customer's cards, a customer token): the store's
//! ([`is_customer_id`]: 1 to 64 characters, no control character), so an id one route takes
//! is never refused by another, and a refusal names the field.

use crate::store::model::{MAX_CUSTOMER_ID_CHARS, is_customer_id};
use crate::web::ApiFailure;

/// `Ok` for an id the store keeps, else a 400 `invalid_field` naming `customer_id`.
pub fn check(id: &str) -> Result<(), ApiFailure> {
    if is_customer_id(id) {
        Ok(())
    } else {
        Err(ApiFailure::invalid(
            "invalid_field",
            "customer_id",
            format!(
                "customer_id: must be 1 to {MAX_CUSTOMER_ID_CHARS} characters without control characters"
            ),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn customer_ids_follow_the_store_rule() {
        for id in ["cust-1", "a/b", "José Ñ", "with space", &"x".repeat(64)] {
            assert!(check(id).is_ok(), "{id}");
        }
        for id in ["", "a\0b", "a\nb", &"x".repeat(65)] {
            assert!(check(id).is_err(), "{id:?}");
        }
    }
}
