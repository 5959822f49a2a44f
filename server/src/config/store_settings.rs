//! The little a command that only opens the database reads ([`StoreSettings`]).

use std::path::Path;

use secrecy::SecretString;

use super::error::ConfigError;
use super::secrets::SecretsKeySource;
use super::source::Layers;
use super::{DEFAULT_DATABASE_URL, or_default, values};

/// What a command that only opens the database (`users`, `keys`) reads: `DATABASE_URL` and
/// the key for secrets at rest. Nothing else of the file or the environment is checked, so a
/// configuration written for `serve` on another machine, or half written, still serves.
#[derive(Debug, Clone)]
pub struct StoreSettings {
    /// `DATABASE_URL`.
    pub database_url: SecretString,
    /// `SECRETS_KEY`, `SECRETS_KEY_PREVIOUS` or `SECRETS_KEY_FILE`.
    pub secrets_key: SecretsKeySource,
}

impl StoreSettings {
    /// Reads `file` (if given), then the environment.
    pub fn load(file: Option<&Path>) -> Result<Self, ConfigError> {
        Self::load_from(file, &|key| std::env::var(key).ok())
    }

    /// Reads `file` (if given), then the variables `env` returns.
    pub fn load_from(
        file: Option<&Path>,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Self, ConfigError> {
        let layers = Layers::read(file, env)?;
        let sandbox = layers.get("GATEWAY_BASE_URL").is_none();
        Ok(Self {
            database_url: or_default(layers.get("DATABASE_URL"), values::database_url, || {
                Ok(SecretString::from(DEFAULT_DATABASE_URL))
            })?,
            secrets_key: SecretsKeySource::resolve(&layers, sandbox)?,
        })
    }
}
