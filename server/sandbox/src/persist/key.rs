//! The key that seals the emulator's state file: 32 random bytes kept as 64 hex digits in a
//! key file of its own (mode 0600), generated on first use and read on later starts, the way
//! checkout-server keeps `card_fingerprint.key`. Losing or replacing the key makes the state
//! file unreadable, and the emulator then refuses to start rather than forget its records.

use std::fmt;
use std::io::Write as _;
use std::path::Path;

use rand::RngCore as _;
use secrecy::zeroize::Zeroizing;
use secrecy::{ExposeSecret as _, SecretBox};

use super::error::PersistError;

/// Length of the key in bytes (AES-256).
pub const KEY_BYTES: usize = 32;

/// The sealing key. `Debug` never shows it.
pub struct SnapshotKey(SecretBox<[u8; KEY_BYTES]>);

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
        Self(SecretBox::new(Box::new(bytes)))
    }

    /// A fresh random key.
    pub fn generate() -> Self {
        let mut bytes = Zeroizing::new([0u8; KEY_BYTES]);
        rand::rng().fill_bytes(bytes.as_mut());
        Self::from_bytes(*bytes)
    }

    /// The key's bytes, for the cipher.
    pub(super) fn bytes(&self) -> &[u8; KEY_BYTES] {
        self.0.expose_secret()
    }

    /// The key kept in `file`: read when it exists, otherwise generated and written (mode
    /// 0600, never over an existing file, so two processes starting at once agree on one).
    pub fn load_or_create(file: &Path) -> Result<Self, PersistError> {
        let fail = |reason: String| PersistError::Key {
            file: file.to_path_buf(),
            reason,
        };
        match std::fs::read_to_string(file) {
            Ok(text) => return parse_hex(&text).ok_or_else(|| fail(NOT_A_KEY.into())),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
            Err(error) => return Err(fail(format!("cannot be read: {error}"))),
        }
        let key = Self::generate();
        let text = Zeroizing::new(format!("{}\n", to_hex(key.bytes())));
        write_new_private(file, &text)
            .map_err(|error| fail(format!("cannot be written: {error}")))?;
        // Another process may have written its key first: the file's is the one to use.
        let text = std::fs::read_to_string(file).map_err(|error| fail(error.to_string()))?;
        parse_hex(&text).ok_or_else(|| fail(NOT_A_KEY.into()))
    }
}

const NOT_A_KEY: &str = "the file does not hold 64 hex digits";

fn parse_hex(text: &str) -> Option<SnapshotKey> {
    let text = text.trim();
    if text.len() != KEY_BYTES * 2 || !text.is_ascii() {
        return None;
    }
    let mut bytes = Zeroizing::new([0u8; KEY_BYTES]);
    for (index, byte) in bytes.iter_mut().enumerate() {
        *byte = u8::from_str_radix(text.get(index * 2..index * 2 + 2)?, 16).ok()?;
    }
    Some(SnapshotKey::from_bytes(*bytes))
}

fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// Creates `file` (and its directory) with `text` unless it exists: through a private
/// temporary file hard-linked into place, so no reader sees half a key.
fn write_new_private(file: &Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = file.parent().filter(|dir| !dir.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let temporary = super::file::temporary_beside(file);
    let written = super::file::create_private(&temporary).and_then(|mut out| {
        out.write_all(text.as_bytes())?;
        out.sync_all()
    });
    let linked = written.and_then(|()| match std::fs::hard_link(&temporary, file) {
        Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        other => other,
    });
    let _ = std::fs::remove_file(&temporary);
    linked
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
