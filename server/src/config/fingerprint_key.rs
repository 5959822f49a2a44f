//! `CARD_FINGERPRINT_KEY`: the key under which `risk::fingerprint` hashes card numbers.
//!
//! Given as 32 bytes in hex (64 digits) or base64 (standard or URL-safe, padded or not). With a
//! real gateway (`GATEWAY_BASE_URL`) it is required: every instance must use the same key, or
//! one card gets different fingerprints and the rules count it twice. In the sandbox, when
//! unset, a key is generated once and kept in the file `card_fingerprint.key` (64 hex digits,
//! mode 0600) in the data directory (the directory of the SQLite database, `data/` for
//! Postgres), and read from there on later starts; an in-memory database gets a key for the
//! process only.
//!
//! Loading a key from configuration or from a generated sandbox file is kept in this one file
//! so that other keys made the same way can share it.

use std::fmt;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD};
use rand::RngCore as _;

use super::error::ConfigError;
use super::source::Setting;
use super::{DEFAULT_DATABASE_URL, missing};

/// The configuration key.
pub const KEY_NAME: &str = "CARD_FINGERPRINT_KEY";
/// The sandbox's generated key file, in the data directory.
pub const SANDBOX_KEY_FILE: &str = "card_fingerprint.key";
/// Bytes of the key.
pub const KEY_BYTES: usize = 32;

/// The fingerprint key. `Debug` never shows it; cloning shares it.
#[derive(Clone, PartialEq, Eq)]
pub struct CardFingerprintKey(Arc<[u8; KEY_BYTES]>);

impl fmt::Debug for CardFingerprintKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("CardFingerprintKey(…)")
    }
}

impl CardFingerprintKey {
    /// A key of these bytes.
    pub fn from_bytes(bytes: [u8; KEY_BYTES]) -> Self {
        Self(Arc::new(bytes))
    }

    /// A fresh random key.
    pub fn generate() -> Self {
        let mut bytes = [0u8; KEY_BYTES];
        rand::rng().fill_bytes(&mut bytes);
        Self::from_bytes(bytes)
    }

    /// Reads 32 bytes written as 64 hex digits or as base64; `None` for anything else.
    pub fn parse(text: &str) -> Option<Self> {
        let text = text.trim();
        let bytes = if text.len() == KEY_BYTES * 2 {
            from_hex(text)?
        } else {
            [STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD]
                .iter()
                .find_map(|engine| engine.decode(text).ok())?
        };
        bytes.try_into().ok().map(Self::from_bytes)
    }

    /// The key's bytes, for the MAC.
    pub fn bytes(&self) -> &[u8; KEY_BYTES] {
        &self.0
    }

    /// The sandbox's key kept in `file`: read when it exists, otherwise generated and written
    /// (mode 0600, never over an existing file, so two instances starting at once agree).
    pub fn load_or_create(file: &Path) -> Result<Self, ConfigError> {
        let fail = |reason: String| ConfigError::Invalid {
            key: format!(
                "{KEY_NAME} (unset: the sandbox key file {})",
                file.display()
            ),
            reason,
        };
        match std::fs::read_to_string(file) {
            Ok(text) => {
                return Self::parse(&text).ok_or_else(|| {
                    fail(
                        "the file does not hold 64 hex digits; set the key, or remove the file \
                          to have a new one generated"
                            .into(),
                    )
                });
            }
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
            Err(error) => return Err(fail(format!("cannot be read: {error}"))),
        }
        let key = Self::generate();
        write_new(file, &to_hex(key.bytes())).map_err(|error| fail(error.to_string()))?;
        // Another instance may have written its key first: the file's is the one to use.
        Self::load_existing(file).map_err(fail)
    }

    fn load_existing(file: &Path) -> Result<Self, String> {
        let text = std::fs::read_to_string(file).map_err(|error| error.to_string())?;
        Self::parse(&text).ok_or_else(|| "the file does not hold 64 hex digits".into())
    }
}

/// Reads `CARD_FINGERPRINT_KEY`: required with a real gateway; `None` in the sandbox when unset
/// (the caller then uses [`sandbox_key_file`]).
pub(super) fn resolve(
    setting: Option<&Setting>,
    sandbox: bool,
) -> Result<Option<CardFingerprintKey>, ConfigError> {
    match setting {
        Some(setting) => CardFingerprintKey::parse(&setting.value)
            .map(Some)
            .ok_or_else(|| ConfigError::Invalid {
                key: setting.label(),
                reason: "must be 32 bytes as 64 hex digits or as base64 \
                         (e.g. `openssl rand -hex 32`)"
                    .into(),
            }),
        None if sandbox => Ok(None),
        None => Err(missing(KEY_NAME)),
    }
}

/// Where the sandbox keeps its generated key for `database_url`: beside the SQLite file, or in
/// the default data directory for Postgres; `None` for an in-memory database.
pub fn sandbox_key_file(database_url: &str) -> Option<PathBuf> {
    let url = database_url.trim();
    let database = if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        DEFAULT_DATABASE_URL
    } else if url.contains(":memory:") || url.contains("mode=memory") {
        return None;
    } else {
        let path = url
            .strip_prefix("sqlite://")
            .or_else(|| url.strip_prefix("sqlite:"))
            .unwrap_or(url);
        path.split('?').next().unwrap_or(path)
    };
    let dir = Path::new(database)
        .parent()
        .filter(|dir| !dir.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    Some(dir.join(SANDBOX_KEY_FILE))
}

/// Writes `text` to `file`, which must not exist yet: through a private temporary file
/// linked into place, so no reader sees it half-written and no existing key is replaced.
fn write_new(file: &Path, text: &str) -> std::io::Result<()> {
    let dir = file.parent().filter(|d| !d.as_os_str().is_empty());
    if let Some(dir) = dir {
        std::fs::create_dir_all(dir)?;
    }
    let temporary = file.with_extension(format!("tmp-{}", uuid::Uuid::new_v4().simple()));
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let written = options.open(&temporary).and_then(|mut out| {
        out.write_all(text.as_bytes())?;
        out.write_all(b"\n")?;
        out.sync_all()
    });
    let linked = written.and_then(|()| match std::fs::hard_link(&temporary, file) {
        Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        other => other,
    });
    let _ = std::fs::remove_file(&temporary);
    linked
}

fn from_hex(text: &str) -> Option<Vec<u8>> {
    (0..text.len())
        .step_by(2)
        .map(|at| u8::from_str_radix(text.get(at..at + 2)?, 16).ok())
        .collect()
}

fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEX: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

    #[test]
    fn hex_and_base64_spell_the_same_key() {
        let from_hex = CardFingerprintKey::parse(HEX).expect("hex");
        let bytes: [u8; 32] = std::array::from_fn(|i| i as u8);
        assert_eq!(from_hex.bytes(), &bytes);
        for encoded in [
            STANDARD.encode(bytes),
            URL_SAFE_NO_PAD.encode(bytes),
            format!("  {HEX}\n"),
        ] {
            assert_eq!(CardFingerprintKey::parse(&encoded), Some(from_hex.clone()));
        }
        assert_eq!(format!("{from_hex:?}"), "CardFingerprintKey(…)");
    }

    #[test]
    fn other_lengths_and_junk_are_refused() {
        for bad in [
            "",
            "00",
            &HEX[..62],
            &format!("{HEX}00"),
            &HEX.replace('0', "g"),
            &STANDARD.encode([0u8; 16]),
        ] {
            assert_eq!(CardFingerprintKey::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_sandbox_file_lives_beside_the_sqlite_database() {
        let file = |url| sandbox_key_file(url).map(|p| p.display().to_string());
        assert_eq!(
            file("data/checkout.db").as_deref(),
            Some("data/card_fingerprint.key")
        );
        assert_eq!(
            file("sqlite:///var/lib/c/x.db?mode=rwc").as_deref(),
            Some("/var/lib/c/card_fingerprint.key")
        );
        assert_eq!(file("shop.db").as_deref(), Some("./card_fingerprint.key"));
        assert_eq!(
            file("postgres://u@h/db").as_deref(),
            Some("data/card_fingerprint.key")
        );
        assert_eq!(file("sqlite::memory:"), None);
    }

    #[test]
    fn the_sandbox_key_is_generated_once_private_and_reused() {
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("data").join(SANDBOX_KEY_FILE);
        let first = CardFingerprintKey::load_or_create(&file).expect("created");
        let again = CardFingerprintKey::load_or_create(&file).expect("read");
        assert_eq!(first, again);
        let text = std::fs::read_to_string(&file).expect("file");
        assert_eq!(text.trim().len(), 64);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = std::fs::metadata(&file).expect("meta").permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let leftovers = std::fs::read_dir(file.parent().expect("dir"))
            .expect("list")
            .count();
        assert_eq!(leftovers, 1, "no temporary file is left behind");
    }

    #[test]
    fn a_damaged_key_file_stops_start_up_naming_the_key() {
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join(SANDBOX_KEY_FILE);
        std::fs::write(&file, "not a key").expect("write");
        let error = CardFingerprintKey::load_or_create(&file).expect_err("refused");
        assert!(error.to_string().starts_with(KEY_NAME), "{error}");
    }
}
