//! Sealing the snapshot: AES-256-GCM over the whole serialized state, a fresh random nonce per
//! write. The file is `MAGIC ‖ nonce (12 bytes) ‖ ciphertext and tag`; the magic is also the
//! associated data, so a file of another format or version fails to open instead of being
//! misread.

use aes_gcm::aead::{Aead, KeyInit, Payload};
use aes_gcm::{Aes256Gcm, Nonce};
use secrecy::zeroize::Zeroizing;

use super::key::SnapshotKey;

/// The first bytes of every state file (format version 1).
pub const MAGIC: &[u8; 16] = b"checkout-emu-st1";
const NONCE_BYTES: usize = 12;

/// Why a sealed file could not be opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpenFailure {
    /// It does not start with [`MAGIC`]: not a state file, or another version's.
    NotAStateFile,
    /// Authentication failed: another key sealed it, or it was damaged.
    WrongKeyOrDamaged,
}

/// Encrypts `plain` under `key` with a new random nonce.
pub fn seal(key: &SnapshotKey, plain: &[u8]) -> Vec<u8> {
    let cipher = Aes256Gcm::new(key.bytes().into());
    let nonce_bytes: [u8; NONCE_BYTES] = rand::random();
    let nonce = Nonce::from(nonce_bytes);
    let sealed = cipher
        .encrypt(
            &nonce,
            Payload {
                msg: plain,
                aad: MAGIC,
            },
        )
        // Encryption fails only for inputs near 64 GiB, far beyond any emulator state.
        .unwrap_or_default();
    let mut file = Vec::with_capacity(MAGIC.len() + NONCE_BYTES + sealed.len());
    file.extend_from_slice(MAGIC);
    file.extend_from_slice(&nonce_bytes);
    file.extend_from_slice(&sealed);
    file
}

/// Decrypts a file written by [`seal`]; the plain text is zeroed when dropped.
pub fn open(key: &SnapshotKey, file: &[u8]) -> Result<Zeroizing<Vec<u8>>, OpenFailure> {
    let rest = file
        .strip_prefix(MAGIC.as_slice())
        .ok_or(OpenFailure::NotAStateFile)?;
    if rest.len() < NONCE_BYTES {
        return Err(OpenFailure::WrongKeyOrDamaged);
    }
    let (nonce_bytes, sealed) = rest.split_at(NONCE_BYTES);
    let nonce = Nonce::from_slice(nonce_bytes);
    let cipher = Aes256Gcm::new(key.bytes().into());
    cipher
        .decrypt(
            nonce,
            Payload {
                msg: sealed,
                aad: MAGIC,
            },
        )
        .map(Zeroizing::new)
        .map_err(|_| OpenFailure::WrongKeyOrDamaged)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_text_opens_only_under_its_key() {
        let key = SnapshotKey::generate();
        let sealed = seal(&key, b"4242424242424242");
        assert!(sealed.starts_with(MAGIC));
        assert!(!sealed.windows(16).any(|w| w == b"4242424242424242"));
        assert_eq!(
            open(&key, &sealed).expect("opens").as_slice(),
            b"4242424242424242"
        );
        assert_ne!(
            seal(&key, b"same"),
            seal(&key, b"same"),
            "a new nonce each time"
        );
        let other = SnapshotKey::generate();
        assert_eq!(open(&other, &sealed), Err(OpenFailure::WrongKeyOrDamaged));
    }

    #[test]
    fn damaged_or_foreign_files_do_not_open() {
        let key = SnapshotKey::generate();
        let mut sealed = seal(&key, b"state");
        let last = sealed.len() - 1;
        sealed[last] ^= 1;
        assert_eq!(open(&key, &sealed), Err(OpenFailure::WrongKeyOrDamaged));
        assert_eq!(open(&key, b"{\"json\":1}"), Err(OpenFailure::NotAStateFile));
        assert_eq!(open(&key, MAGIC), Err(OpenFailure::WrongKeyOrDamaged));
    }
}
