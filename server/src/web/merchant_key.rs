//! The configured merchant key, kept only as its SHA-256 digest. The presented key and the
//! configured one are compared as digests in constant time, so neither the content nor the
//! length of the key leaks through timing. It lives in the state ([`super::AppState`]); the
//! merchant API's extractor (`api::MerchantAuth`) asks it.

use secrecy::{ExposeSecret as _, SecretString};
use sha2::{Digest as _, Sha256};
use subtle::ConstantTimeEq as _;

/// The configured merchant key, kept only as its digest.
#[derive(Clone)]
pub struct MerchantKey([u8; 32]);

impl MerchantKey {
    /// Digest of `key`.
    pub fn new(key: &SecretString) -> Self {
        Self(Sha256::digest(key.expose_secret().as_bytes()).into())
    }

    /// Whether `presented` is the key (constant time).
    pub fn verify(&self, presented: &str) -> bool {
        let candidate: [u8; 32] = Sha256::digest(presented.as_bytes()).into();
        bool::from(self.0.ct_eq(&candidate))
    }
}

impl std::fmt::Debug for MerchantKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("MerchantKey([REDACTED])")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verifies_only_the_exact_key() {
        let key = MerchantKey::new(&SecretString::from("sk_test_0123456789abcdef"));
        assert!(key.verify("sk_test_0123456789abcdef"));
        assert!(!key.verify("sk_test_0123456789abcdeF"));
        assert!(!key.verify(""));
        assert!(!format!("{key:?}").contains("sk_test"));
    }
}
