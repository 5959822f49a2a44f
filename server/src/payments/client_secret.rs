//! A session's client secret is derived, never stored: HMAC-SHA256 of the session id under the
//! merchant secret key (the store keeps only its hash). Derived here, below both the merchant
//! API (`api::client_secret`, which adds it to the create answer) and the payment links'
//! checkout start (`payments::links`), which hand it to the browser.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use secrecy::{ExposeSecret as _, SecretString};
use sha2::Sha256;

/// Separates this use of the merchant key from any other.
const CONTEXT: &[u8] = b"checkout-server client secret\0";

/// The client secret of session `session_id`: `cs_` and 43 URL-safe characters.
pub fn derive(key: &SecretString, session_id: &str) -> SecretString {
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(key.expose_secret().as_bytes())
        .expect("HMAC accepts a key of any length");
    mac.update(CONTEXT);
    mac.update(session_id.as_bytes());
    let tag = mac.finalize().into_bytes();
    SecretString::from(format!("cs_{}", URL_SAFE_NO_PAD.encode(tag)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_secret_depends_on_key_and_session_and_nothing_else() {
        let key = SecretString::from("sk_test_0123456789abcdef");
        let other_key = SecretString::from("sk_test_fedcba9876543210");
        let a = derive(&key, "session-a");
        assert_eq!(a.expose_secret(), derive(&key, "session-a").expose_secret());
        assert_ne!(a.expose_secret(), derive(&key, "session-b").expose_secret());
        assert_ne!(
            a.expose_secret(),
            derive(&other_key, "session-a").expose_secret()
        );
        assert!(a.expose_secret().starts_with("cs_"));
        assert_eq!(a.expose_secret().len(), 3 + 43);
    }
}
