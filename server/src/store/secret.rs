//! Secrets the store keeps only as hashes (client secrets, customer tokens), random tokens,
//! and the SHA-256 digests used to recognise a repeated request or webhook body.

use std::fmt;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use rand::RngCore as _;
use secrecy::SecretString;
use sha2::{Digest as _, Sha256};
use subtle::ConstantTimeEq as _;

/// Random bytes in a generated token: 256 bits.
const TOKEN_BYTES: usize = 32;

/// A fresh random token, `prefix` followed by 43 URL-safe characters.
///
/// Comes wrapped in [`SecretString`] so it cannot reach a log by accident; hand its
/// [`SecretHash`] to the store and the exposed value to whoever must present it later.
pub fn generate_token(prefix: &str) -> SecretString {
    let mut bytes = [0u8; TOKEN_BYTES];
    rand::rng().fill_bytes(&mut bytes);
    SecretString::from(format!("{prefix}{}", URL_SAFE_NO_PAD.encode(bytes)))
}

/// The SHA-256 of a request or webhook body: enough to recognise a repeat, nothing to read.
///
/// Only [`BodyDigest::of`] makes one, so the store cannot be handed the body itself.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BodyDigest(String);

impl BodyDigest {
    /// Digest of `body`.
    pub fn of(body: &[u8]) -> Self {
        Self(to_hex(&Sha256::digest(body)))
    }

    /// 64 lowercase hex characters, as stored.
    pub fn as_hex(&self) -> &str {
        &self.0
    }

    /// Reads the stored form back; `None` unless it is 64 lowercase hex characters.
    pub fn from_hex(hex: &str) -> Option<Self> {
        let lower_hex = |b: u8| b.is_ascii_digit() || (b'a'..=b'f').contains(&b);
        (hex.len() == 64 && hex.bytes().all(lower_hex)).then(|| Self(hex.to_owned()))
    }
}

/// The SHA-256 of a secret: what the store keeps instead of the secret itself.
#[derive(Clone, PartialEq, Eq)]
pub struct SecretHash([u8; 32]);

impl SecretHash {
    /// Hashes `secret`.
    pub fn of(secret: &str) -> Self {
        Self(Sha256::digest(secret.as_bytes()).into())
    }

    /// Whether `presented` hashes to this value, compared in constant time.
    pub fn verify(&self, presented: &str) -> bool {
        let candidate = Self::of(presented);
        bool::from(self.0.ct_eq(&candidate.0))
    }

    /// 64 lowercase hex characters, as stored.
    pub fn to_hex(&self) -> String {
        to_hex(&self.0)
    }

    /// Reads the stored form back; `None` unless it is exactly 64 hex characters.
    pub fn from_hex(hex: &str) -> Option<Self> {
        if hex.len() != 64 {
            return None;
        }
        let mut out = [0u8; 32];
        for (byte, pair) in out.iter_mut().zip(hex.as_bytes().chunks_exact(2)) {
            let text = std::str::from_utf8(pair).ok()?;
            *byte = u8::from_str_radix(text, 16).ok()?;
        }
        Some(Self(out))
    }
}

impl fmt::Debug for SecretHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SecretHash({}…)", &self.to_hex()[..8])
    }
}

fn to_hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        out.push(char::from(DIGITS[usize::from(byte >> 4)]));
        out.push(char::from(DIGITS[usize::from(byte & 0x0f)]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use secrecy::ExposeSecret as _;

    #[test]
    fn a_hash_verifies_its_secret_and_nothing_else() {
        let secret = generate_token("cs_");
        let hash = SecretHash::of(secret.expose_secret());
        assert!(hash.verify(secret.expose_secret()));
        assert!(!hash.verify("cs_wrong"));
        assert!(!hash.verify(""));
    }

    #[test]
    fn hex_round_trips_and_rejects_bad_input() {
        let hash = SecretHash::of("abc");
        assert_eq!(
            hash.to_hex(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(SecretHash::from_hex(&hash.to_hex()), Some(hash));
        assert_eq!(SecretHash::from_hex("zz"), None);
        assert_eq!(SecretHash::from_hex(&"g".repeat(64)), None);
    }

    #[test]
    fn tokens_are_long_distinct_and_hidden_in_debug() {
        let a = generate_token("ct_");
        let b = generate_token("ct_");
        assert_eq!(a.expose_secret().len(), 3 + 43);
        assert_ne!(a.expose_secret(), b.expose_secret());
        assert!(!format!("{a:?}").contains(a.expose_secret()));
    }

    #[test]
    fn body_digests_are_hex_and_checked_on_read() {
        let digest = BodyDigest::of(b"{\"amount\":1}");
        assert_eq!(digest.as_hex().len(), 64);
        assert_eq!(BodyDigest::from_hex(digest.as_hex()), Some(digest.clone()));
        assert_eq!(BodyDigest::from_hex(&digest.as_hex().to_uppercase()), None);
        assert_eq!(BodyDigest::from_hex("4000002500003155"), None);
    }

    #[test]
    fn debug_of_a_hash_shows_only_a_prefix() {
        let hash = SecretHash::of("abc");
        assert_eq!(format!("{hash:?}"), "SecretHash(ba7816bf…)");
    }
}
