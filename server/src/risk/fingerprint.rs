//! The card fingerprint: HMAC-SHA256 of the card number's digits under
//! `CARD_FINGERPRINT_KEY`, written as base64url without padding (43 characters).
//!
//! The same card gives the same fingerprint on every instance that shares the key, so the
//! rules can count cards without keeping anything that leads back to the number: without the
//! key, a fingerprint cannot be checked against guessed numbers (a plain hash could, since a
//! card number has few unknown digits). It is never shown to the browser.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use checkout::card::CardNumber;
use hmac::{Hmac, Mac as _};
use sha2::Sha256;

use crate::config::CardFingerprintKey;

/// Characters of a fingerprint.
pub const FINGERPRINT_CHARS: usize = 43;

/// A card's keyed fingerprint (base64url of the MAC, 43 characters).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CardFingerprint(String);

impl CardFingerprint {
    /// The stored text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// A fingerprint as stored (with a saved card), taken as it is.
    pub fn stored(text: String) -> Self {
        Self(text)
    }

    /// The stored text, owned.
    pub fn into_string(self) -> String {
        self.0
    }
}

/// Makes fingerprints under one key. Cloning shares the key.
#[derive(Clone, Debug)]
pub struct Fingerprinter {
    key: CardFingerprintKey,
}

impl Fingerprinter {
    /// Fingerprints under `key`.
    pub fn new(key: CardFingerprintKey) -> Self {
        Self { key }
    }

    /// The fingerprint of `number` (its digits only, whatever spacing was typed).
    pub fn of(&self, number: &CardNumber) -> CardFingerprint {
        // HMAC pads a key shorter than SHA-256's 64-byte block with zeros: padding it here
        // gives the same MAC as `new_from_slice` with the 32 bytes, without a fallible call.
        let mut block = [0u8; 64];
        block[..self.key.bytes().len()].copy_from_slice(self.key.bytes());
        let mut mac = <Hmac<Sha256> as hmac::digest::KeyInit>::new(&block.into());
        for digit in number.secret().expose().bytes().filter(u8::is_ascii_digit) {
            mac.update(&[digit]);
        }
        CardFingerprint(URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn number(text: &str) -> CardNumber {
        CardNumber::parse(text).expect("valid number")
    }

    fn key(byte: u8) -> Fingerprinter {
        Fingerprinter::new(CardFingerprintKey::from_bytes([byte; 32]))
    }

    #[test]
    fn one_key_one_fingerprint_per_card_whatever_the_spacing() {
        let a = key(1).of(&number("4242 4242 4242 4242"));
        assert_eq!(a, key(1).of(&number("4242424242424242")));
        assert_eq!(a.as_str().len(), FINGERPRINT_CHARS);
        assert!(
            a.as_str()
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        );
        assert_ne!(a, key(1).of(&number("4000000000000002")));
    }

    #[test]
    fn it_is_the_plain_hmac_of_the_digits_under_the_32_byte_key() {
        let card = number("4242 4242 4242 4242");
        let mut mac = Hmac::<Sha256>::new_from_slice(&[9u8; 32]).expect("any key length");
        mac.update(b"4242424242424242");
        let expected = URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes());
        assert_eq!(key(9).of(&card).as_str(), expected);
    }

    #[test]
    fn two_keys_give_different_fingerprints() {
        let card = number("4242424242424242");
        assert_ne!(key(1).of(&card), key(2).of(&card));
    }

    #[test]
    fn a_fingerprint_shows_nothing_of_the_number_and_is_no_plain_hash() {
        use sha2::Digest as _;
        let card = number("4242424242424242");
        let fingerprint = key(7).of(&card);
        assert!(!fingerprint.as_str().contains("4242"));
        let plain = URL_SAFE_NO_PAD.encode(Sha256::digest(b"4242424242424242"));
        assert_ne!(fingerprint.as_str(), plain);
    }
}
