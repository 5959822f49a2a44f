//! `checkout-server keys generate`: print a fresh key for `SECRETS_KEY`.
//! `checkout-server keys rotate`: re-seal every secret at rest (webhook signing secrets, staff
//! TOTP keys, saved cards' gateway tokens) under the current key, after a new key became `SECRETS_KEY` and the old one
//! moved to `SECRETS_KEY_PREVIOUS` (or the key file's later lines). Idempotent; audited. Once
//! it reports nothing left under an older key, the old key can be dropped.

use std::path::PathBuf;

use anyhow::Context as _;
use checkout_server::store::prelude::{NewAuditEntry, ResealReport};
use checkout_server::store::sealed::SecretsKey;
use clap::{Args, Subcommand};
use secrecy::ExposeSecret as _;
use time::OffsetDateTime;

use crate::open_store::open_store;

/// Options of `checkout-server keys`.
#[derive(Debug, Args)]
pub struct KeysArgs {
    /// TOML configuration file (its `database_url` and `secrets_key*`); environment variables
    /// override it.
    #[arg(long, value_name = "FILE", env = "CHECKOUT_CONFIG", global = true)]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: KeysCommand,
}

#[derive(Debug, Subcommand)]
enum KeysCommand {
    /// Print a fresh random key (`<id>:<base64>`) for SECRETS_KEY.
    Generate,
    /// Re-seal every stored secret under the current key (SECRETS_KEY); prints the counts.
    Rotate,
}

/// Runs a `keys` subcommand.
pub async fn run(args: KeysArgs) -> anyhow::Result<()> {
    match args.command {
        KeysCommand::Generate => {
            println!("{}", SecretsKey::generate().to_text().expose_secret());
            Ok(())
        }
        KeysCommand::Rotate => {
            let store = open_store(args.config.as_deref()).await?;
            let rotated = rotate(store.as_ref()).await;
            store.close().await;
            let report = rotated?;
            println!(
                "{} re-sealed under the current key, {} sealed from plain text, {} already current",
                report.resealed, report.sealed_plain, report.already_current
            );
            Ok(())
        }
    }
}

async fn rotate(store: &dyn checkout_server::store::Store) -> anyhow::Result<ResealReport> {
    let report = store
        .reseal_secrets()
        .await
        .context("cannot re-seal the stored secrets")?;
    let detail = format!(
        "checkout-server keys rotate: {} re-sealed, {} sealed from plain text, {} already current",
        report.resealed, report.sealed_plain, report.already_current
    );
    let entry = NewAuditEntry::of_command(None, "secrets_rotate", "ok", detail);
    store
        .append_audit(entry, OffsetDateTime::now_utc())
        .await
        .context("cannot write the audit line")?;
    Ok(report)
}
