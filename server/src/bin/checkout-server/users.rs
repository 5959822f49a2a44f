//! `checkout-server users add EMAIL --role admin|operator|viewer`, `users list`,
//! `users disable EMAIL`, `users reset-2fa EMAIL`: the dashboard's staff accounts, in the database the server uses
//! (`DATABASE_URL`, or the `--config` file's). The password is read from standard input
//! when it is not a terminal, else prompted for twice without echo; it is never printed or
//! logged.

use std::io::{BufRead as _, IsTerminal as _};
use std::path::PathBuf;

use anyhow::Context as _;
use checkout_server::dashboard::auth::accounts;
use checkout_server::store::prelude::StaffRole;
use clap::{Args, Subcommand, ValueEnum};
use secrecy::SecretString;

use crate::open_store::open_store;

/// Options of `checkout-server users`.
#[derive(Debug, Args)]
pub struct UsersArgs {
    /// TOML configuration file (only its `database_url` and `secrets_key*` are read);
    /// environment variables override it.
    #[arg(long, value_name = "FILE", env = "CHECKOUT_CONFIG", global = true)]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: UsersCommand,
}

#[derive(Debug, Subcommand)]
enum UsersCommand {
    /// Add a staff account (password from standard input, or prompted).
    Add {
        /// Login e-mail.
        email: String,
        /// What the account may do.
        #[arg(long, value_enum)]
        role: Role,
    },
    /// List the staff accounts.
    List,
    /// Disable an account and end its sessions.
    Disable {
        /// Login e-mail.
        email: String,
    },
    /// Remove an account's two-factor sign-in (lost authenticator and recovery codes), end its
    /// sessions and login challenges and clear its lock-out; audited.
    #[command(name = "reset-2fa")]
    Reset2fa {
        /// Login e-mail.
        email: String,
    },
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Role {
    Admin,
    Operator,
    Viewer,
}

impl From<Role> for StaffRole {
    fn from(role: Role) -> Self {
        match role {
            Role::Admin => Self::Admin,
            Role::Operator => Self::Operator,
            Role::Viewer => Self::Viewer,
        }
    }
}

/// Runs a `users` subcommand.
pub async fn run(args: UsersArgs) -> anyhow::Result<()> {
    let store = open_store(args.config.as_deref()).await?;
    let done = match args.command {
        UsersCommand::Add { email, role } => {
            let password = read_password()?;
            let user = accounts::add(store.as_ref(), &email, role.into(), password).await?;
            println!("added {} ({})", user.email, user.role.as_str());
            Ok(())
        }
        UsersCommand::List => {
            for user in store.list_staff().await? {
                let status = if user.disabled_at.is_some() {
                    "disabled"
                } else {
                    "active"
                };
                let two_factor = if user.has_two_factor() { "2fa" } else { "" };
                println!(
                    "{:<40} {:<9} {status:<8} {two_factor}",
                    user.email,
                    user.role.as_str()
                );
            }
            Ok(())
        }
        UsersCommand::Disable { email } => {
            accounts::disable(store.as_ref(), &email).await?;
            println!("disabled {email}; its sessions are ended");
            Ok(())
        }
        UsersCommand::Reset2fa { email } => {
            let reset = accounts::reset_two_factor(store.as_ref(), &email).await?;
            if reset.had_two_factor {
                println!("two-factor sign-in removed for {email}");
            } else {
                println!("{email} had no two-factor sign-in");
            }
            println!(
                "{}; its next login asks for the password only",
                accounts::summary(&reset)
            );
            Ok(())
        }
    };
    store.close().await;
    done
}

/// The password: prompted twice on a terminal, else the first line of standard input.
fn read_password() -> anyhow::Result<SecretString> {
    if std::io::stdin().is_terminal() {
        let first = rpassword::prompt_password("Password: ").context("cannot read the password")?;
        let again =
            rpassword::prompt_password("Password again: ").context("cannot read the password")?;
        anyhow::ensure!(first == again, "password: the two entries differ");
        return Ok(SecretString::from(first));
    }
    let mut line = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut line)
        .context("cannot read the password from standard input")?;
    let password = line.trim_end_matches(['\r', '\n']).to_owned();
    anyhow::ensure!(!password.is_empty(), "password: standard input is empty");
    Ok(SecretString::from(password))
}
