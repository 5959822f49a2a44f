//! One 32-byte AES-256-GCM key with its id. Written `[id:]<material>`, the material being 64
//! hex digits or the base64 (standard or URL-safe, padded or not) of 32 bytes; without an id,
//! the id is the key's fingerprint (8 hex digits of a SHA-256 of it), so the same key always
//! gets the same id. The id is stored with every value sealed under the key.

use std::fmt;

use aes_gcm::{Aes256Gcm, KeyInit as _};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD_NO_PAD;
use checkout_key_file::{KEY_BYTES, decode_key};
use secrecy::{ExposeSecret as _, SecretBox, SecretString};
use sha2::{Digest as _, Sha256};

use super::error::KeyError;

/// Longest key id.
const MAX_ID_CHARS: usize = 32;

/// A key that seals and opens stored secrets. `Debug` shows only its id.
pub struct SecretsKey {
    id: String,
    material: SecretBox<[u8; KEY_BYTES]>,
}

impl SecretsKey {
    /// Reads `[id:]<64 hex digits | base64 of 32 bytes>`.
    pub fn parse(text: &str) -> Result<Self, KeyError> {
        let text = text.trim();
        let (id, material) = match text.split_once(':') {
            Some((id, material)) => (Some(id.trim()), material.trim()),
            None => (None, text),
        };
        let material = decode_key(material).ok_or(KeyError::Material)?;
        match id {
            Some(id) => Self::with_id(id, material),
            None => Ok(Self::unnamed(material)),
        }
    }

    /// A fresh random key, named by its fingerprint.
    pub fn generate() -> Self {
        Self::unnamed(checkout_key_file::generate())
    }

    /// The id stored with every value sealed under this key.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The key as configuration takes it: `<id>:<base64>`.
    pub fn to_text(&self) -> SecretString {
        let material = STANDARD_NO_PAD.encode(self.material.expose_secret());
        SecretString::from(format!("{}:{material}", self.id))
    }

    /// Another copy of this key (for a ring built from another's keys).
    pub(super) fn duplicate(&self) -> Self {
        Self {
            id: self.id.clone(),
            material: SecretBox::new(Box::new(*self.material.expose_secret())),
        }
    }

    /// The cipher this key drives.
    pub(super) fn cipher(&self) -> Aes256Gcm {
        Aes256Gcm::new(self.material.expose_secret().into())
    }

    fn with_id(id: &str, material: SecretBox<[u8; KEY_BYTES]>) -> Result<Self, KeyError> {
        let allowed = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
        if id.is_empty() || id.len() > MAX_ID_CHARS || !id.chars().all(allowed) {
            return Err(KeyError::Id(id.chars().take(MAX_ID_CHARS + 1).collect()));
        }
        Ok(Self {
            id: id.to_owned(),
            material,
        })
    }

    fn unnamed(material: SecretBox<[u8; KEY_BYTES]>) -> Self {
        let digest = Sha256::new()
            .chain_update(b"checkout secrets key\0")
            .chain_update(material.expose_secret())
            .finalize();
        let id = digest[..4].iter().map(|b| format!("{b:02x}")).collect();
        Self { id, material }
    }
}

impl fmt::Debug for SecretsKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SecretsKey({})", self.id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEX: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

    #[test]
    fn hex_and_base64_of_the_same_key_agree() {
        let from_hex = SecretsKey::parse(HEX).expect("hex");
        let base64 = STANDARD_NO_PAD.encode((0u8..32).collect::<Vec<_>>());
        let from_base64 = SecretsKey::parse(&format!("{base64}=")).expect("base64");
        assert_eq!(from_hex.id(), from_base64.id());
        assert_eq!(from_hex.id().len(), 8);
    }

    #[test]
    fn a_named_key_keeps_its_name_and_prints_back() {
        let key = SecretsKey::parse(&format!("k2:{HEX}")).expect("named");
        assert_eq!(key.id(), "k2");
        let again = SecretsKey::parse(key.to_text().expose_secret()).expect("round trip");
        assert_eq!(again.id(), "k2");
    }

    #[test]
    fn bad_keys_are_refused_without_echoing_them() {
        assert_eq!(SecretsKey::parse("short").unwrap_err(), KeyError::Material);
        assert_eq!(
            SecretsKey::parse(&HEX[..62]).unwrap_err(),
            KeyError::Material
        );
        assert!(matches!(
            SecretsKey::parse(&format!("bad.id:{HEX}")),
            Err(KeyError::Id(_))
        ));
        let generated = SecretsKey::generate();
        let text = generated.to_text();
        assert!(!format!("{generated:?}").contains(text.expose_secret()));
    }
}
