//! The key that seals the emulator's state file: 32 random bytes kept as 64 hex digits in a
//! key file of its own (mode 0600), generated on first use and read on later starts, the way
//! checkout-server keeps `card_fingerprint.key` (both through the `checkout_key_file` crate).
//! Losing or replacing the key makes the state file unreadable, and the emulator then refuses
//! to start rather than forget its records.

use std::fmt;
use std::path::Path;

use checkout_key_file::KeyBytes;
use secrecy::ExposeSecret as _;

use super::error::PersistError;

/// Length of the key in bytes (AES-256).
pub const KEY_BYTES: usize = checkout_key_file::KEY_BYTES;

/// The sealing key. `Debug` never shows it.
pub struct SnapshotKey(KeyBytes);

impl Clone for SnapshotKey {
    fn clone(&self) -> Self {
        Self::from_bytes(*self.0.expose_secret())
    }
}

impl fmt::Debug for SnapshotKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SnapshotKey(…)")
    }
}

impl SnapshotKey {
    /// A key of these bytes (checkout-server may pass one it derives or keeps).
    pub fn from_bytes(bytes: [u8; KEY_BYTES]) -> Self {
        Self(KeyBytes::new(Box::new(bytes)))
    }

    /// A fresh random key.
    pub fn generate() -> Self {
        Self(checkout_key_file::generate())
    }

    /// The key's bytes, for the cipher.
    pub(super) fn bytes(&self) -> &[u8; KEY_BYTES] {
        self.0.expose_secret()
    }

    /// The key kept in `file`: read when it exists, otherwise generated and written (mode
    /// 0600, never over an existing file, so two processes starting at once agree on one).
    pub fn load_or_create(file: &Path) -> Result<Self, PersistError> {
        checkout_key_file::load_or_create(file)
            .map(Self)
            .map_err(|error| PersistError::Key {
                file: file.to_path_buf(),
                reason: error.to_string(),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_is_generated_once_private_and_reused() {
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("nested").join("gateway-emulator.key");
        let first = SnapshotKey::load_or_create(&file).expect("created");
        let again = SnapshotKey::load_or_create(&file).expect("read");
        assert_eq!(first.bytes(), again.bytes());
        assert_eq!(format!("{first:?}"), "SnapshotKey(…)");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = std::fs::metadata(&file).expect("meta").permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }

    #[test]
    fn a_damaged_key_file_is_refused_naming_it() {
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("gateway-emulator.key");
        std::fs::write(&file, "not a key").expect("write");
        let error = SnapshotKey::load_or_create(&file).expect_err("refused");
        assert!(
            error.to_string().contains("gateway-emulator.key"),
            "{error}"
        );
    }
}
