//! Staff account management, used by `checkout-server users …` and by the sandbox's start-up
//! (a generated admin login, printed in the banner like the generated merchant key).

use secrecy::{ExposeSecret as _, SecretString};
use time::OffsetDateTime;

use super::password::{self, PasswordError};
use crate::store::prelude::*;

/// The sandbox's generated admin account.
pub const DEMO_ADMIN_EMAIL: &str = "admin@sandbox.invalid";

/// Why an account operation failed.
#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    /// The e-mail is not one.
    #[error("email: must look like name@domain (3 to 254 characters, no spaces)")]
    Email,
    /// The password breaks the policy.
    #[error(transparent)]
    Password(#[from] PasswordError),
    /// An account with that e-mail exists.
    #[error("email: an account with this e-mail exists")]
    Taken,
    /// No account with that e-mail.
    #[error("email: no account with this e-mail")]
    Unknown,
    /// The store failed.
    #[error(transparent)]
    Store(StoreError),
}

impl From<StoreError> for AccountError {
    fn from(error: StoreError) -> Self {
        match error {
            StoreError::Conflict(_) => Self::Taken,
            other => Self::Store(other),
        }
    }
}

/// `email` trimmed and lower-cased, if it looks like an address.
pub fn normalise_email(email: &str) -> Result<String, AccountError> {
    let email = email.trim().to_lowercase();
    let well_formed = (3..=254).contains(&email.len())
        && !email.chars().any(char::is_whitespace)
        && email
            .split_once('@')
            .is_some_and(|(local, domain)| !local.is_empty() && !domain.is_empty());
    if well_formed {
        Ok(email)
    } else {
        Err(AccountError::Email)
    }
}

/// Adds an account; audited.
pub async fn add(
    store: &dyn Store,
    email: &str,
    role: StaffRole,
    password: SecretString,
) -> Result<StaffUser, AccountError> {
    let email = normalise_email(email)?;
    let hash = password::hash(password).await?;
    let user = store.create_staff(&email, role, &hash).await?;
    let detail = format!("checkout-server users add: role {}", role.as_str());
    audit(store, &user.id, &user.email, "staff_added", "ok", detail).await?;
    Ok(user)
}

/// Disables an account and ends its sessions; audited.
pub async fn disable(store: &dyn Store, email: &str) -> Result<(), AccountError> {
    let email = normalise_email(email)?;
    // By id alone, like `reset_two_factor`: an account whose TOTP key cannot be opened can
    // still be disabled.
    let staff_id = store
        .staff_id_by_email(&email)
        .await?
        .ok_or(AccountError::Unknown)?;
    store
        .disable_staff(&email, OffsetDateTime::now_utc())
        .await?;
    let detail = "checkout-server users disable: its sessions ended".to_owned();
    audit(store, &staff_id, &email, "staff_disabled", "ok", detail).await
}

/// Resets an account's sign-in for a staff member who lost their authenticator and recovery
/// codes: removes its two-factor sign-in, ends every session and login challenge it has (a
/// stolen phone's holder, or a browser left signed in, is out) and clears its lock-out,
/// writing what it did to the audit log. Their next login asks for the password only (and,
/// under `DASHBOARD_REQUIRE_2FA`, an admin enrols again).
pub async fn reset_two_factor(
    store: &dyn Store,
    email: &str,
) -> Result<TwoFactorReset, AccountError> {
    let email = normalise_email(email)?;
    // By id alone: an account whose TOTP key no configured key opens (a lost SECRETS_KEY) is
    // exactly one this must reach.
    let staff_id = store
        .staff_id_by_email(&email)
        .await?
        .ok_or(AccountError::Unknown)?;
    let reset = store.reset_two_factor(&staff_id).await?;
    let outcome = if reset.had_two_factor {
        "ok"
    } else {
        "was_off"
    };
    let detail = format!("checkout-server users reset-2fa: {}", summary(&reset));
    audit(store, &staff_id, &email, "2fa_reset", outcome, detail).await?;
    Ok(reset)
}

/// What a reset ended, in words: `2 sessions and 1 login challenge ended, lock-out cleared`.
pub fn summary(reset: &TwoFactorReset) -> String {
    let plural = |n: u64, one: &str| format!("{n} {one}{}", if n == 1 { "" } else { "s" });
    let mut text = format!(
        "{} and {} ended",
        plural(reset.sessions_ended, "session"),
        plural(reset.challenges_ended, "login challenge")
    );
    if reset.lock_cleared {
        text.push_str(", lock-out cleared");
    }
    text
}

/// The sandbox's admin login at start-up.
pub enum DemoAdmin {
    /// Created, or its password replaced (its lock cleared, its sessions ended): the password.
    Ready(SecretString),
    /// Disabled (by `users disable`, or when the database served a real gateway): the sandbox
    /// leaves it so.
    Disabled,
}

/// The sandbox's admin login for this run: [`DEMO_ADMIN_EMAIL`] with a fresh password,
/// created, or reset if it is enabled. A reset ends the account's sessions, so a password
/// from an earlier run's banner opens nothing any more.
pub async fn demo_admin(store: &dyn Store) -> Result<DemoAdmin, AccountError> {
    let password = generate_token("pw_");
    let hash = password::hash(SecretString::from(password.expose_secret().to_owned())).await?;
    if store.reset_staff_password(DEMO_ADMIN_EMAIL, &hash).await? {
        return Ok(DemoAdmin::Ready(password));
    }
    if store.staff_by_email(DEMO_ADMIN_EMAIL).await?.is_some() {
        return Ok(DemoAdmin::Disabled);
    }
    store
        .create_staff(DEMO_ADMIN_EMAIL, StaffRole::Admin, &hash)
        .await?;
    Ok(DemoAdmin::Ready(password))
}

/// With a real gateway: disables the sandbox's admin login if this database still has it
/// enabled (sandbox and live may share a database, and its password is in old logs), ending
/// its sessions; audited. Whether it was enabled.
pub async fn retire_demo_admin(store: &dyn Store) -> Result<bool, AccountError> {
    let Some(user) = store.staff_by_email(DEMO_ADMIN_EMAIL).await? else {
        return Ok(false);
    };
    if user.disabled_at.is_some() {
        return Ok(false);
    }
    store
        .disable_staff(DEMO_ADMIN_EMAIL, OffsetDateTime::now_utc())
        .await?;
    let detail = "a real gateway is configured: the sandbox's generated admin login is off".into();
    audit(
        store,
        &user.id,
        &user.email,
        "sandbox_admin_disabled",
        "ok",
        detail,
    )
    .await?;
    Ok(true)
}

/// Writes what a command did to the account `staff_id` (`email`) to the audit log (no address:
/// not a web request).
async fn audit(
    store: &dyn Store,
    staff_id: &str,
    email: &str,
    action: &str,
    outcome: &str,
    detail: String,
) -> Result<(), AccountError> {
    let entry = NewAuditEntry::of_command(Some((staff_id, email)), action, outcome, detail);
    store.append_audit(entry, OffsetDateTime::now_utc()).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails_are_normalised_or_refused() {
        assert_eq!(
            normalise_email("  Ops@Shop.Example ").expect("valid"),
            "ops@shop.example"
        );
        for bad in ["", "no-at", "@shop", "a@", "a b@c.d"] {
            assert!(normalise_email(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_reset_is_summarised() {
        let reset = TwoFactorReset {
            had_two_factor: true,
            sessions_ended: 2,
            challenges_ended: 1,
            lock_cleared: true,
        };
        assert_eq!(
            summary(&reset),
            "2 sessions and 1 login challenge ended, lock-out cleared"
        );
        assert_eq!(
            summary(&TwoFactorReset::default()),
            "0 sessions and 0 login challenges ended"
        );
    }
}
