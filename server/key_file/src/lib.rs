//! A 32-byte key kept in a file of its own: written as 64 hex digits (base64 is read too),
//! generated on first use into a private file (mode 0600, never over an existing one, so two
//! processes starting at once agree on one key) and read on later starts. checkout-server
//! keeps `card_fingerprint.key` and `secrets.key` this way, and its gateway emulator
//! (checkout-sandbox) `gateway-emulator.key`; each says in its own error type which file and
//! what to do.

use std::fs::File;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD_NO_PAD, URL_SAFE_NO_PAD};
use rand::RngCore as _;
use secrecy::{ExposeSecret as _, SecretBox};

/// Bytes of a key (AES-256, HMAC-SHA-256).
pub const KEY_BYTES: usize = 32;

/// A key's bytes; dropped, they are zeroed.
pub type KeyBytes = SecretBox<[u8; KEY_BYTES]>;

/// Why a key file gave no key.
#[derive(Debug, thiserror::Error)]
pub enum KeyFileError {
    /// It exists and cannot be read.
    #[error("cannot be read: {0}")]
    Read(std::io::Error),
    /// It did not exist and cannot be created.
    #[error("cannot be written: {0}")]
    Write(std::io::Error),
    /// It holds something else than a key.
    #[error("the file does not hold 64 hex digits")]
    NotAKey,
}

/// 32 bytes written as 64 hex digits, or as base64 (standard or URL-safe, padded or not);
/// `None` for anything else.
pub fn decode_key(text: &str) -> Option<KeyBytes> {
    let text = text.trim();
    let mut out = Box::new([0u8; KEY_BYTES]);
    if text.len() == 2 * KEY_BYTES && text.bytes().all(|b| b.is_ascii_hexdigit()) {
        for (byte, pair) in out.iter_mut().zip(text.as_bytes().chunks_exact(2)) {
            *byte = u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok()?;
        }
        return Some(SecretBox::new(out));
    }
    let unpadded = text.trim_end_matches('=');
    let decoded = STANDARD_NO_PAD
        .decode(unpadded)
        .or_else(|_| URL_SAFE_NO_PAD.decode(unpadded))
        .ok()
        .map(|bytes| SecretBox::new(Box::new(bytes)))?;
    let decoded: &Vec<u8> = decoded.expose_secret();
    if decoded.len() != KEY_BYTES {
        return None;
    }
    out.copy_from_slice(decoded);
    Some(SecretBox::new(out))
}

/// `bytes` as lower-case hex digits.
pub fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// A fresh random key.
pub fn generate() -> KeyBytes {
    let mut bytes = Box::new([0u8; KEY_BYTES]);
    rand::rng().fill_bytes(bytes.as_mut());
    SecretBox::new(bytes)
}

/// The key kept in `file`: read when it exists, otherwise generated and written as 64 hex
/// digits. Another process may write its key first: the file's key is the one returned.
pub fn load_or_create(file: &Path) -> Result<KeyBytes, KeyFileError> {
    match read(file) {
        Err(KeyFileError::Read(error)) if error.kind() == std::io::ErrorKind::NotFound => {}
        found => return found,
    }
    let text =
        secrecy::zeroize::Zeroizing::new(format!("{}\n", to_hex(generate().expose_secret())));
    write_new_private(file, &text).map_err(KeyFileError::Write)?;
    read(file)
}

/// The key kept in `file` (64 hex digits or base64, surrounding blanks ignored), as an operator
/// gives it from a secret manager or carries the sandbox's over; never generated.
pub fn read(file: &Path) -> Result<KeyBytes, KeyFileError> {
    let text = secrecy::zeroize::Zeroizing::new(
        std::fs::read_to_string(file).map_err(KeyFileError::Read)?,
    );
    decode_key(&text).ok_or(KeyFileError::NotAKey)
}

/// Writes `text` to `file` unless it exists (then leaves it: another process was first):
/// through a private temporary file linked into place, so no reader sees it half-written.
/// Creates the directory.
pub fn write_new_private(file: &Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = file.parent().filter(|dir| !dir.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let temporary = temporary_beside(file);
    let written = create_private(&temporary).and_then(|mut out| {
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

/// A name for a temporary file beside `file` that no other writer picks.
pub fn temporary_beside(file: &Path) -> PathBuf {
    let mut name = file.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".tmp-{}", uuid::Uuid::new_v4().simple()));
    file.with_file_name(name)
}

/// Creates a new file readable and writable by its owner only (mode 0600 on Unix).
pub fn create_private(path: &Path) -> std::io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEX: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

    #[test]
    fn hex_and_base64_spell_the_same_key() {
        let bytes: [u8; KEY_BYTES] = std::array::from_fn(|i| i as u8);
        for text in [
            HEX.to_owned(),
            format!("  {HEX}\n"),
            base64::engine::general_purpose::STANDARD.encode(bytes),
            URL_SAFE_NO_PAD.encode(bytes),
        ] {
            let key = decode_key(&text).expect("a key");
            assert_eq!(key.expose_secret(), &bytes, "{text}");
        }
        assert_eq!(to_hex(&bytes), HEX);
        for bad in [
            "",
            "00",
            &HEX[..62],
            &format!("{HEX}00"),
            "not base64 at all!",
        ] {
            assert!(decode_key(bad).is_none(), "{bad}");
        }
    }

    #[cfg(unix)]
    fn mode(file: &Path) -> u32 {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::metadata(file).expect("meta").permissions().mode() & 0o777
    }

    #[test]
    fn a_key_file_is_private_and_never_replaced() {
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("nested").join("k.key");
        write_new_private(&file, "first\n").expect("written");
        write_new_private(&file, "second\n").expect("left as it is");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "first\n");
        #[cfg(unix)]
        assert_eq!(mode(&file), 0o600);
        assert_eq!(
            std::fs::read_dir(file.parent().unwrap()).unwrap().count(),
            1
        );
    }

    #[test]
    fn the_key_is_generated_once_and_read_again() {
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("k.key");
        let first = load_or_create(&file).expect("created");
        let again = load_or_create(&file).expect("read");
        assert_eq!(first.expose_secret(), again.expose_secret());
        let text = std::fs::read_to_string(&file).unwrap();
        assert_eq!(text.trim(), to_hex(first.expose_secret()));
        #[cfg(unix)]
        assert_eq!(mode(&file), 0o600);
        std::fs::write(&file, "not a key").unwrap();
        assert!(matches!(load_or_create(&file), Err(KeyFileError::NotAKey)));
    }
}
