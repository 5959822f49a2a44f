//! The shape of an id this server (or its gateway) gives: 1 to 64 letters, digits, `_` and
//! `-`. An id in a path or a cursor that has another shape cannot name anything stored, so
//! the API and the dashboard answer 404 before asking the store (a NUL or a megabyte in a path
//! is a plain "not found", never a 500).

/// Whether `id` could be an id the server gave.
pub fn plausible_id(id: &str) -> bool {
    (1..=64).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
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
