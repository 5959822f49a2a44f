//! Ids in paths: an id the server cannot have given (empty, over 64 characters, or with
//! anything but letters, digits, `_` and `-`) is answered 404 before it reaches the store or
//! an idempotency scope, so a NUL or a megabyte in a path is a plain "not found", never a 500.

use crate::web::ApiFailure;

/// Whether `id` could be an id the server gave.
pub fn plausible_id(id: &str) -> bool {
    (1..=64).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// `Ok` for a plausible `id`, else 404 naming `what`.
pub fn known(id: &str, what: &'static str) -> Result<(), ApiFailure> {
    if plausible_id(id) {
        Ok(())
    } else {
        Err(ApiFailure::NotFound(what))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids() {
        assert!(plausible_id("we_0123456789abcdef0123456789abcdef"));
        assert!(plausible_id("0b6f3a52-3c6e-4f0e-9a53-1d2c3b4a5f60"));
        assert!(!plausible_id(""));
        assert!(!plausible_id("we_\0"));
        assert!(!plausible_id("a b"));
        assert!(!plausible_id(&"a".repeat(65)));
    }
}
