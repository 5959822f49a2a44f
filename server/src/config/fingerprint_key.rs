//! `CARD_FINGERPRINT_KEY`: the key under which `risk::fingerprint` hashes card numbers.
//!
//! Given as 32 bytes in hex (64 digits) or base64 (standard or URL-safe, padded or not), or as
//! `CARD_FINGERPRINT_KEY_FILE`, a file holding it (a secret manager's, or the sandbox's
//! `card_fingerprint.key` carried over). With a real gateway (`GATEWAY_BASE_URL`) one of them is
//! required: every instance must use the same key, or one card gets different fingerprints and
//! the rules count it twice; and a key other than the sandbox's makes its blocks match nothing. In the sandbox, when
//! unset, a key is generated once and kept in the file `card_fingerprint.key` (64 hex digits,
//! mode 0600) in the data directory (the directory of the SQLite database, `data/` for
//! Postgres), and read from there on later starts; an in-memory database gets a key for the
//! process only.
//!
//! Reading the key's text and keeping its file are the `checkout_key_file` crate's (shared with
//! `SECRETS_KEY` and the gateway emulator), where the sandbox keeps it
//! [`crate::store::key_files`]'s.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use checkout_key_file::{KEY_BYTES, KeyFileError, decode_key};
use secrecy::ExposeSecret as _;

use super::error::ConfigError;
use super::source::Setting;
use crate::store::key_files::sandbox_key_path;

/// The configuration key.
pub const KEY_NAME: &str = "CARD_FINGERPRINT_KEY";
/// The configuration key naming a file that holds the key instead.
pub const FILE_KEY_NAME: &str = "CARD_FINGERPRINT_KEY_FILE";
/// The sandbox's generated key file, in the data directory.
pub const SANDBOX_KEY_FILE: &str = "card_fingerprint.key";

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
        Self::from_bytes(*checkout_key_file::generate().expose_secret())
    }

    /// Reads 32 bytes written as 64 hex digits or as base64; `None` for anything else.
    pub fn parse(text: &str) -> Option<Self> {
        decode_key(text).map(|key| Self::from_bytes(*key.expose_secret()))
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
        match checkout_key_file::load_or_create(file) {
            Ok(key) => Ok(Self::from_bytes(*key.expose_secret())),
            Err(KeyFileError::NotAKey) => Err(fail(format!(
                "{}; set the key, or remove the file to have a new one generated",
                KeyFileError::NotAKey
            ))),
            Err(error) => Err(fail(error.to_string())),
        }
    }
}

/// Reads `CARD_FINGERPRINT_KEY` or `CARD_FINGERPRINT_KEY_FILE` (a file holding the key alone,
/// such as the sandbox's `card_fingerprint.key` carried over): one of them is required with a
/// real gateway; `None` in the sandbox when both are unset (the caller then uses
/// [`sandbox_key_file`]).
pub(super) fn resolve(
    key: Option<&Setting>,
    file: Option<&Setting>,
    sandbox: bool,
) -> Result<Option<CardFingerprintKey>, ConfigError> {
    let invalid = |setting: &Setting, reason: String| ConfigError::Invalid {
        key: setting.label(),
        reason,
    };
    match (key, file) {
        (Some(_), Some(file)) => Err(invalid(
            file,
            format!("set either {KEY_NAME} or {FILE_KEY_NAME}, not both"),
        )),
        (Some(key), None) => CardFingerprintKey::parse(&key.value)
            .map(Some)
            .ok_or_else(|| {
                invalid(
                    key,
                    "must be 32 bytes as 64 hex digits or as base64 \
                     (e.g. `openssl rand -hex 32`)"
                        .into(),
                )
            }),
        (None, Some(file)) => {
            let path = Path::new(file.value.trim());
            checkout_key_file::read(path)
                .map(|key| Some(CardFingerprintKey::from_bytes(*key.expose_secret())))
                .map_err(|error| invalid(file, format!("{}: {error}", path.display())))
        }
        (None, None) if sandbox => Ok(None),
        (None, None) => Err(ConfigError::Missing {
            key: "CARD_FINGERPRINT_KEY (or CARD_FINGERPRINT_KEY_FILE)",
            when: "when GATEWAY_BASE_URL is set (a real gateway): every instance must key card \
                   fingerprints alike, and as the sandbox did for its blocks to keep matching",
        }),
    }
}

/// Where the sandbox keeps its generated key for `database_url`: beside the SQLite file, or in
/// the default data directory for Postgres; `None` for an in-memory database.
pub fn sandbox_key_file(database_url: &str) -> Option<PathBuf> {
    sandbox_key_path(database_url, SANDBOX_KEY_FILE)
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEX: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

    #[test]
    fn the_key_reads_as_the_shared_form_and_never_prints() {
        let key = CardFingerprintKey::parse(HEX).expect("hex");
        let bytes: [u8; 32] = std::array::from_fn(|i| i as u8);
        assert_eq!(key.bytes(), &bytes);
        assert_eq!(CardFingerprintKey::parse(&HEX[..62]), None);
        assert_eq!(format!("{key:?}"), "CardFingerprintKey(…)");
    }

    #[test]
    fn the_sandbox_file_lives_beside_the_sqlite_database() {
        assert_eq!(
            sandbox_key_file("data/checkout.db"),
            Some(PathBuf::from("data/card_fingerprint.key"))
        );
        assert_eq!(sandbox_key_file("sqlite::memory:"), None);
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
    fn the_key_file_carries_the_sandbox_key_over_to_a_real_gateway() {
        use crate::config::Config;
        use crate::config::tests::emulator;
        let dir = tempfile::tempdir().expect("temp dir");
        let sandbox = CardFingerprintKey::load_or_create(&dir.path().join(SANDBOX_KEY_FILE))
            .expect("sandbox key");
        let file = dir.path().join(SANDBOX_KEY_FILE);
        let file = file.to_str().expect("utf-8");
        let live = [
            ("GATEWAY_BASE_URL", "https://api.example"),
            ("GATEWAY_API_KEY", "k"),
            ("GATEWAY_X_API_KEY", "x"),
            ("GATEWAY_MERCHANT_ID", "m-1"),
            ("MERCHANT_SECRET_KEY", "0123456789abcdef"),
            ("SECRETS_KEY", HEX),
        ];
        let error = Config::from_pairs(&live, &emulator()).expect_err("no key");
        assert!(
            error
                .to_string()
                .starts_with("CARD_FINGERPRINT_KEY (or CARD_FINGERPRINT_KEY_FILE) is required"),
            "{error}"
        );
        let with_file = [live.as_slice(), &[(FILE_KEY_NAME, file)]].concat();
        let config = Config::from_pairs(&with_file, &emulator()).expect("file read");
        assert_eq!(config.card_fingerprint_key, Some(sandbox));
        let both = [with_file.as_slice(), &[(KEY_NAME, HEX)]].concat();
        let error = Config::from_pairs(&both, &emulator()).expect_err("both");
        assert!(error.to_string().starts_with(FILE_KEY_NAME), "{error}");
        let missing = dir.path().join("absent.key");
        let missing = [(FILE_KEY_NAME, missing.to_str().expect("utf-8"))];
        let error = Config::from_pairs(&missing, &emulator()).expect_err("unreadable");
        assert!(error.to_string().starts_with(FILE_KEY_NAME), "{error}");
        assert!(error.to_string().contains("absent.key"), "{error}");
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
