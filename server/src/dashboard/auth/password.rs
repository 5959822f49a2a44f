//! Password hashing with argon2id (the `argon2` crate's defaults: 19 MiB, 2 passes, 1 lane,
//! OWASP's minimum) in PHC strings, on a blocking thread: a hash takes tens of milliseconds of
//! CPU, which must not stall the async workers. A verification, which anyone can ask for, runs
//! only with a [`HashPermit`] (the sign-in's bound on hashes at once). Passwords are never
//! logged or stored.

use std::sync::OnceLock;

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher as _, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use secrecy::{ExposeSecret as _, SecretString};
use subtle::ConstantTimeEq as _;

use super::hash_gate::HashPermit;
use super::work_areas::WorkArea;

/// Fewest characters of a staff password.
pub const MIN_PASSWORD_CHARS: usize = 12;
/// Most characters (argon2 takes any length; this bounds the work one login can ask for).
pub const MAX_PASSWORD_CHARS: usize = 256;

/// Why a password cannot be set.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PasswordError {
    /// Too short or too long.
    #[error("password: must be {MIN_PASSWORD_CHARS} to {MAX_PASSWORD_CHARS} characters")]
    Length,
    /// The hasher failed (it does not, with valid parameters).
    #[error("password: cannot be hashed")]
    Hash,
}

/// Checks the policy and hashes `password` (argon2id, a fresh salt).
pub async fn hash(password: SecretString) -> Result<String, PasswordError> {
    let chars = password.expose_secret().chars().count();
    if !(MIN_PASSWORD_CHARS..=MAX_PASSWORD_CHARS).contains(&chars) {
        return Err(PasswordError::Length);
    }
    tokio::task::spawn_blocking(move || hash_now(&password))
        .await
        .map_err(|_| PasswordError::Hash)?
}

/// Hashes secrets the server generated (recovery codes), skipping the typed-password policy,
/// all on one blocking thread.
pub async fn hash_generated(secrets: Vec<SecretString>) -> Result<Vec<String>, PasswordError> {
    tokio::task::spawn_blocking(move || secrets.iter().map(hash_now).collect())
        .await
        .map_err(|_| PasswordError::Hash)?
}

fn hash_now(password: &SecretString) -> Result<String, PasswordError> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.expose_secret().as_bytes(), &salt)
        .map(|hash| hash.to_string())
        .map_err(|_| PasswordError::Hash)
}

/// Whether `password` matches the PHC string `stored`, checked under `permit` (held until the
/// hash is done, even if the caller is gone by then). With nothing to check against
/// (`stored` `None`: no account, or one that may not be tried) it still spends the time of
/// one verification, so a login's duration does not tell which.
pub async fn verify(permit: HashPermit, password: SecretString, stored: Option<String>) -> bool {
    tokio::task::spawn_blocking(move || permit.run(|area| matches(&password, stored, area)))
        .await
        .unwrap_or(false)
}

/// What an attempt with nothing to check against is checked against: a hash of the same
/// cost, made once.
fn stand_in() -> &'static str {
    static STAND_IN: OnceLock<String> = OnceLock::new();
    STAND_IN.get_or_init(|| {
        hash_now(&SecretString::from("a stand-in that no login matches")).unwrap_or_default()
    })
}

/// Recomputes the PHC string's hash of `password` in `area` (no allocation of its own) and
/// compares in constant time.
fn matches(password: &SecretString, stored: Option<String>, area: &mut WorkArea) -> bool {
    let candidate = password.expose_secret().as_bytes();
    if candidate.len() > MAX_PASSWORD_CHARS * 4 {
        return false;
    }
    let real = stored.is_some();
    let stored = stored.unwrap_or_else(|| stand_in().to_owned());
    let Ok(parsed) = PasswordHash::new(&stored) else {
        return false;
    };
    let (Ok(algorithm), Ok(params), Some(salt), Some(expected)) = (
        Algorithm::try_from(parsed.algorithm),
        Params::try_from(&parsed),
        parsed.salt,
        parsed.hash,
    ) else {
        return false;
    };
    let version = parsed
        .version
        .map_or(Ok(Version::default()), Version::try_from);
    let mut salt_bytes = [0u8; 64];
    let (Ok(version), Ok(salt)) = (version, salt.decode_b64(&mut salt_bytes)) else {
        return false;
    };
    let blocks = params.block_count();
    let mut computed = vec![0u8; expected.len()];
    let hashed = Argon2::new(algorithm, version, params).hash_password_into_with_memory(
        candidate,
        salt,
        &mut computed,
        area.blocks(blocks),
    );
    hashed.is_ok() && bool::from(computed.ct_eq(expected.as_bytes())) && real
}

#[cfg(test)]
pub(crate) mod tests {
    use std::time::Duration;

    use super::*;
    use crate::dashboard::auth::hash_gate::HashGate;

    /// `verify` under a permit of its own.
    pub(crate) async fn check(password: SecretString, stored: Option<String>) -> bool {
        let gate = HashGate::new(1, 0, Duration::ZERO);
        let permit = gate.enter().await.expect("a free permit");
        verify(permit, password, stored).await
    }

    #[tokio::test]
    async fn hashes_are_argon2id_and_verify_only_the_password() {
        let stored = hash(SecretString::from("correct horse battery"))
            .await
            .expect("hashed");
        assert!(stored.starts_with("$argon2id$"), "{stored}");
        assert!(!stored.contains("correct horse"));
        assert!(
            check(
                SecretString::from("correct horse battery"),
                Some(stored.clone())
            )
            .await
        );
        assert!(!check(SecretString::from("correct horse batterY"), Some(stored)).await);
        assert!(!check(SecretString::from("anything at all"), None).await);
        assert!(!check(SecretString::from("x"), Some("not a hash".into())).await);
    }

    #[tokio::test]
    async fn short_passwords_are_refused() {
        assert_eq!(
            hash(SecretString::from("short")).await,
            Err(PasswordError::Length)
        );
    }
}
