//! The key that seals secrets at rest (webhook signing secrets, staff TOTP keys, saved cards'
//! gateway tokens; see
//! `store::sealed`).
//!
//! | key | default | meaning |
//! |---|---|---|
//! | `SECRETS_KEY` | sandbox: generated into `secrets.key` beside the SQLite file (0600) and kept; real gateway: required (or `SECRETS_KEY_FILE`) | `[id:]<64 hex digits or base64 of 32 bytes>`; without an id, the key's fingerprint is its id |
//! | `SECRETS_KEY_PREVIOUS` | none | comma-separated older keys, same form: they still open what they sealed until `checkout-server keys rotate` |
//! | `SECRETS_KEY_FILE` | none | instead of the two above: a file with the current key on its first line and previous keys on the next (`#` comments) |

use std::path::PathBuf;
use std::sync::Arc;

use super::error::ConfigError;
use super::source::{Layers, Setting};
use crate::store::key_files;
use crate::store::sealed::key_file::{self, SANDBOX_KEY_FILE};
use crate::store::sealed::{KeyRing, SecretsKey};

/// Where the key ring comes from; read once at start ([`SecretsKeySource::key_ring`]).
#[derive(Debug, Clone)]
pub enum SecretsKeySource {
    /// `SECRETS_KEY` (and `SECRETS_KEY_PREVIOUS`), already parsed.
    Given(Arc<KeyRing>),
    /// `SECRETS_KEY_FILE`, with its label for messages.
    File {
        /// The file.
        path: PathBuf,
        /// `SECRETS_KEY_FILE (environment)` or the file key's label.
        label: String,
    },
    /// Sandbox without a key: generated beside the database and kept.
    SandboxFile,
}

impl SecretsKeySource {
    /// Reads this file's keys (also listed in `source::KEYS`); `sandbox`: no real gateway.
    pub(super) fn resolve(layers: &Layers, sandbox: bool) -> Result<Self, ConfigError> {
        let key = layers.get("SECRETS_KEY");
        let previous = layers.get("SECRETS_KEY_PREVIOUS");
        let file = layers.get("SECRETS_KEY_FILE");
        match (key, file) {
            (Some(_), Some(file)) => Err(invalid(
                file,
                "set either SECRETS_KEY or SECRETS_KEY_FILE, not both",
            )),
            (Some(key), None) => {
                let current =
                    SecretsKey::parse(&key.value).map_err(|e| invalid(key, &e.to_string()))?;
                let older = match previous {
                    Some(setting) => setting
                        .value
                        .split(',')
                        .filter(|text| !text.trim().is_empty())
                        .map(|text| {
                            SecretsKey::parse(text).map_err(|e| invalid(setting, &e.to_string()))
                        })
                        .collect::<Result<Vec<_>, _>>()?,
                    None => Vec::new(),
                };
                let ring = KeyRing::new(current, older)
                    .map_err(|e| invalid(previous.unwrap_or(key), &e.to_string()))?;
                Ok(Self::Given(Arc::new(ring)))
            }
            (None, Some(file)) => match previous {
                Some(previous) => Err(invalid(
                    previous,
                    "with SECRETS_KEY_FILE, previous keys go on the file's later lines",
                )),
                None => Ok(Self::File {
                    path: PathBuf::from(file.value.trim()),
                    label: file.label(),
                }),
            },
            (None, None) => match previous {
                Some(previous) => Err(invalid(previous, "needs SECRETS_KEY (the current key)")),
                None if sandbox => Ok(Self::SandboxFile),
                None => Err(ConfigError::Missing {
                    key: "SECRETS_KEY (or SECRETS_KEY_FILE)",
                    when: "when GATEWAY_BASE_URL is set (a real gateway): it seals webhook \
                           signing secrets, staff TOTP keys and saved cards' gateway tokens \
                           in the database",
                }),
            },
        }
    }

    /// The key ring: as given, read from the key file, or (sandbox) read from the generated
    /// file beside the SQLite database `database_url` names, written first if missing. An
    /// in-memory sandbox database gets a key of its own that ends with it.
    pub fn key_ring(&self, database_url: &str) -> Result<Arc<KeyRing>, ConfigError> {
        match self {
            Self::Given(ring) => Ok(ring.clone()),
            Self::File { path, label } => {
                key_file::read(path)
                    .map(Arc::new)
                    .map_err(|e| ConfigError::Invalid {
                        key: label.clone(),
                        reason: e.to_string(),
                    })
            }
            Self::SandboxFile => match sandbox_key_path(database_url) {
                None => Ok(Arc::new(KeyRing::generate())),
                Some(path) => key_file::read_or_generate(&path)
                    .map(Arc::new)
                    .map_err(|e| ConfigError::Invalid {
                        key: "SECRETS_KEY (unset: the sandbox's key file)".to_owned(),
                        reason: e.to_string(),
                    }),
            },
        }
    }
}

/// Where the sandbox keeps its key: beside the SQLite file, or under `data/` for another
/// database; `None` for an in-memory database.
pub fn sandbox_key_path(database_url: &str) -> Option<PathBuf> {
    key_files::sandbox_key_path(database_url, SANDBOX_KEY_FILE)
}

fn invalid(setting: &Setting, reason: &str) -> ConfigError {
    ConfigError::Invalid {
        key: setting.label(),
        reason: reason.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use secrecy::ExposeSecret as _;

    use super::*;
    use crate::config::Config;
    use crate::config::tests::emulator;

    const LIVE: [(&str, &str); 6] = [
        ("GATEWAY_BASE_URL", "https://api.example"),
        ("GATEWAY_API_KEY", "k"),
        ("GATEWAY_X_API_KEY", "x"),
        ("GATEWAY_MERCHANT_ID", "m-1"),
        ("MERCHANT_SECRET_KEY", "0123456789abcdef"),
        (
            "CARD_FINGERPRINT_KEY",
            "abababababababababababababababababababababababababababababababab",
        ),
    ];

    #[test]
    fn a_real_gateway_without_a_key_is_refused_naming_the_setting() {
        let error = Config::from_pairs(&LIVE, &emulator()).expect_err("no key");
        assert_eq!(
            error.to_string().split(" is required").next(),
            Some("SECRETS_KEY (or SECRETS_KEY_FILE)"),
            "{error}"
        );
        let key = SecretsKey::generate().to_text();
        let with_key = [LIVE.as_slice(), &[("SECRETS_KEY", key.expose_secret())]].concat();
        let config = Config::from_pairs(&with_key, &emulator()).expect("complete");
        assert!(matches!(config.secrets_key, SecretsKeySource::Given(_)));
        assert!(!format!("{config:?}").contains(key.expose_secret()));
    }

    #[test]
    fn bad_keys_name_their_setting_and_not_their_value() {
        let good = SecretsKey::generate().to_text();
        for (pairs, named) in [
            (
                vec![("SECRETS_KEY", "not-a-key")],
                "SECRETS_KEY (environment)",
            ),
            (
                vec![
                    ("SECRETS_KEY", good.expose_secret()),
                    ("SECRETS_KEY_PREVIOUS", "x"),
                ],
                "SECRETS_KEY_PREVIOUS (environment)",
            ),
            (
                vec![("SECRETS_KEY_PREVIOUS", good.expose_secret())],
                "SECRETS_KEY_PREVIOUS (environment)",
            ),
            (
                vec![
                    ("SECRETS_KEY", good.expose_secret()),
                    ("SECRETS_KEY_FILE", "/k"),
                ],
                "SECRETS_KEY_FILE (environment)",
            ),
        ] {
            let error = Config::from_pairs(&pairs, &emulator())
                .expect_err(named)
                .to_string();
            assert!(error.starts_with(named), "{error}");
            assert!(!error.contains(good.expose_secret()));
        }
    }

    #[test]
    fn the_sandbox_keeps_its_key_beside_the_database() {
        assert_eq!(
            sandbox_key_path("data/checkout.db"),
            Some(PathBuf::from("data/secrets.key"))
        );
        assert_eq!(
            sandbox_key_path("sqlite:///var/lib/c/x.db?mode=rwc"),
            Some(PathBuf::from("/var/lib/c/secrets.key"))
        );
        assert_eq!(sandbox_key_path("sqlite::memory:"), None);
        assert_eq!(
            sandbox_key_path("postgres://u@h/db"),
            Some(PathBuf::from("data/secrets.key"))
        );
        let dir = tempfile::tempdir().expect("temp dir");
        let db = dir.path().join("shop.db");
        let source = SecretsKeySource::SandboxFile;
        let first = source
            .key_ring(db.to_str().expect("utf-8"))
            .expect("generated");
        let again = source.key_ring(db.to_str().expect("utf-8")).expect("kept");
        assert_eq!(first.current_id(), again.current_id());
        assert!(dir.path().join(SANDBOX_KEY_FILE).exists());
    }
}
