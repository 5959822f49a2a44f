//! Opening the server's database for a command (`users`, `keys`): the configuration's
//! `DATABASE_URL` and its key for secrets at rest, as `serve` opens them.

use std::path::Path;
use std::sync::Arc;

use anyhow::Context as _;
use checkout_server::config::StoreSettings;
use checkout_server::store::Store;
use secrecy::ExposeSecret as _;

/// The store the configuration (`--config` file, then the environment) names, migrated; of
/// the configuration only `DATABASE_URL` and the secrets key are read.
pub async fn open_store(config_file: Option<&Path>) -> anyhow::Result<Arc<dyn Store>> {
    let config = StoreSettings::load(config_file).context("configuration")?;
    let database_url = config.database_url.expose_secret();
    let keys = config
        .secrets_key
        .key_ring(database_url)
        .context("cannot read the key for secrets at rest")?;
    checkout_server::store::connect(database_url, keys)
        .await
        .context("cannot open the database (DATABASE_URL)")
}
