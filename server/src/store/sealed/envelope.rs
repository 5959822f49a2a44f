//! The stored text of a sealed secret: `v1.<key id>.<nonce>.<ciphertext and tag>`, nonce and
//! ciphertext in unpadded URL-safe base64. AES-256-GCM with a random 96-bit nonce per value
//! (a store seals a few values per endpoint or account, far below the 2^32 values per key
//! that random nonces allow), the [`Binding`] as associated data. A plain secret never starts
//! with `v1.` (webhook secrets start with `whsec_`, TOTP keys are base32 capitals), which is
//! how the upgrade tells the two apart.

use aes_gcm::Nonce;
use aes_gcm::aead::{Aead as _, Payload};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use rand::RngCore as _;
use secrecy::SecretString;

use super::{Binding, SealError, SecretsKey};

/// The format's prefix, version included.
pub const PREFIX: &str = "v1.";
/// Bytes in a nonce.
const NONCE_BYTES: usize = 12;

/// A stored sealed value, taken apart.
pub(super) struct Envelope<'a> {
    /// The id of the key it was sealed under.
    pub(super) key_id: &'a str,
    nonce: [u8; NONCE_BYTES],
    ciphertext: Vec<u8>,
}

impl<'a> Envelope<'a> {
    /// Takes `stored` apart; [`SealError::NotSealed`] unless it has the `v1.` form.
    pub(super) fn parse(stored: &'a str) -> Result<Self, SealError> {
        let rest = stored.strip_prefix(PREFIX).ok_or(SealError::NotSealed)?;
        let mut parts = rest.split('.');
        let (Some(key_id), Some(nonce), Some(ciphertext), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(SealError::NotSealed);
        };
        let nonce = URL_SAFE_NO_PAD
            .decode(nonce)
            .ok()
            .and_then(|bytes| <[u8; NONCE_BYTES]>::try_from(bytes).ok())
            .ok_or(SealError::NotSealed)?;
        let ciphertext = URL_SAFE_NO_PAD
            .decode(ciphertext)
            .map_err(|_| SealError::NotSealed)?;
        if key_id.is_empty() {
            return Err(SealError::NotSealed);
        }
        Ok(Self {
            key_id,
            nonce,
            ciphertext,
        })
    }

    /// The secret, if `key` and `binding` authenticate it.
    pub(super) fn open(
        &self,
        key: &SecretsKey,
        binding: &Binding,
    ) -> Result<SecretString, SealError> {
        let payload = Payload {
            msg: &self.ciphertext,
            aad: binding.as_bytes(),
        };
        let plain = key
            .cipher()
            .decrypt(Nonce::from_slice(&self.nonce), payload)
            .map_err(|_| SealError::Rejected {
                key_id: self.key_id.to_owned(),
            })?;
        String::from_utf8(plain)
            .map(SecretString::from)
            .map_err(|_| SealError::NotText)
    }
}

/// Whether `stored` has the sealed form's prefix (a plain secret from an older version has not).
pub fn is_sealed(stored: &str) -> bool {
    stored.starts_with(PREFIX)
}

/// `secret` sealed under `key` for `binding`, as stored.
pub(super) fn seal(key: &SecretsKey, secret: &str, binding: &Binding) -> Result<String, SealError> {
    let mut nonce = [0u8; NONCE_BYTES];
    rand::rng().fill_bytes(&mut nonce);
    let payload = Payload {
        msg: secret.as_bytes(),
        aad: binding.as_bytes(),
    };
    let ciphertext = key
        .cipher()
        .encrypt(Nonce::from_slice(&nonce), payload)
        .map_err(|_| SealError::Seal)?;
    Ok(format!(
        "{PREFIX}{}.{}.{}",
        key.id(),
        URL_SAFE_NO_PAD.encode(nonce),
        URL_SAFE_NO_PAD.encode(ciphertext)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stored_form_names_its_key_and_hides_the_secret() {
        let key = SecretsKey::generate();
        let binding = Binding::endpoint_secret("we_1");
        let stored = seal(&key, "whsec_plain", &binding).unwrap();
        assert!(stored.starts_with(&format!("v1.{}.", key.id())));
        assert!(!stored.contains("whsec_plain"));
        assert!(is_sealed(&stored));
        assert!(!is_sealed("whsec_plain"));
        let again = seal(&key, "whsec_plain", &binding).unwrap();
        assert_ne!(stored, again, "a fresh nonce each time");
    }

    #[test]
    fn damaged_values_are_refused_not_panicked_on() {
        for stored in [
            "v1.",
            "v1.k",
            "v1.k.AAAA.AAAA",
            "v1..AAAAAAAAAAAAAAAA.AAAA",
            "v1.k.!!.AA.x",
        ] {
            assert!(Envelope::parse(stored).is_err(), "{stored}");
        }
        let key = SecretsKey::generate();
        let binding = Binding::staff_totp("s");
        let stored = seal(&key, "JBSWY3DP", &binding).unwrap();
        let cut = &stored[..stored.len() - 2];
        let opened = Envelope::parse(cut).and_then(|e| e.open(&key, &binding));
        assert!(opened.is_err());
    }
}
