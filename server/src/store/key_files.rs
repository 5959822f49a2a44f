//! What the server's two generated keys share (`SECRETS_KEY`, sealing secrets at rest, and
//! `CARD_FINGERPRINT_KEY`, keying card fingerprints): a 32-byte key written as 64 hex digits
//! or base64, and, in the sandbox, a key file of its own in the data directory, created once
//! (mode 0600, never over an existing one, so two instances starting at once agree).

use std::io::Write as _;
use std::path::{Path, PathBuf};

use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD_NO_PAD, URL_SAFE_NO_PAD};
use secrecy::{ExposeSecret as _, SecretBox};

/// Bytes of a key.
pub const KEY_BYTES: usize = 32;
/// The data directory when the database is not a SQLite file (PostgreSQL).
pub const DATA_DIR: &str = "data";

/// 32 bytes written as 64 hex digits, or as base64 (standard or URL-safe, padded or not);
/// `None` for anything else.
pub fn decode_key(text: &str) -> Option<SecretBox<[u8; KEY_BYTES]>> {
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

/// Where the sandbox keeps its key file `name` for `database_url`: beside the SQLite file, or
/// under [`DATA_DIR`] for another database; `None` for an in-memory database (whose key lives
/// and dies with the process, like its data).
pub fn sandbox_key_path(database_url: &str, name: &str) -> Option<PathBuf> {
    let url = database_url.trim();
    if url.contains(":memory:") || url.contains("mode=memory") {
        return None;
    }
    let dir = if url.starts_with("sqlite:") || !url.contains("://") {
        let path = url
            .strip_prefix("sqlite://")
            .or_else(|| url.strip_prefix("sqlite:"))
            .unwrap_or(url);
        let path = path.split('?').next().unwrap_or(path);
        Path::new(path)
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default()
    } else {
        PathBuf::from(DATA_DIR)
    };
    Some(dir.join(name))
}

/// Writes `text` to `file` unless it exists (then leaves it: another instance was first):
/// through a private temporary file (mode 0600) linked into place, so no reader sees it
/// half-written. Creates the directory.
pub fn write_new_private(file: &Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = file.parent().filter(|dir| !dir.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let temporary = file.with_extension(format!("tmp-{}", uuid::Uuid::new_v4().simple()));
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let written = options.open(&temporary).and_then(|mut out| {
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

    #[test]
    fn the_sandbox_file_lives_beside_the_sqlite_database() {
        let at = |url| sandbox_key_path(url, "k.key");
        assert_eq!(at("data/checkout.db"), Some(PathBuf::from("data/k.key")));
        assert_eq!(
            at("sqlite:///var/lib/c/x.db?mode=rwc"),
            Some(PathBuf::from("/var/lib/c/k.key"))
        );
        assert_eq!(at("postgres://u@h/db"), Some(PathBuf::from("data/k.key")));
        assert_eq!(at("sqlite::memory:"), None);
    }

    #[test]
    fn a_key_file_is_private_and_never_replaced() {
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("nested").join("k.key");
        write_new_private(&file, "first\n").expect("written");
        write_new_private(&file, "second\n").expect("left as it is");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "first\n");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = std::fs::metadata(&file).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }
}
