//! RFC 6238 codes for staff sign-in, through `totp-rs`: HMAC-SHA-1, 6 digits, 30-second steps
//! (what every authenticator app reads from an `otpauth://` URL), a code accepted one step
//! either side of now. Secrets are 160 random bits, kept and shown as base32; [`matching_step`]
//! returns the step a code belongs to, so the caller can refuse a step already used.

use rand::RngCore as _;
use secrecy::{ExposeSecret as _, SecretString};
use totp_rs::{Builder, Secret, Totp};

use crate::dashboard::error::DashboardError;

/// The issuer an authenticator app shows beside the account.
pub const ISSUER: &str = "Checkout dashboard";
/// Digits of a code.
pub const DIGITS: usize = 6;
/// Random bytes of a secret (RFC 4226 recommends 160 bits).
const SECRET_BYTES: usize = 20;

/// A fresh secret, base32 without padding.
pub fn new_secret() -> SecretString {
    let mut bytes = [0u8; SECRET_BYTES];
    rand::rng().fill_bytes(&mut bytes);
    SecretString::from(Secret::from(bytes).to_base32())
}

/// The generator of `secret` for the account `email`.
fn totp(secret: &SecretString, email: &str) -> Result<Totp, DashboardError> {
    let bytes = Secret::try_from_base32(secret.expose_secret())
        .map_err(|_| DashboardError::Internal("a stored TOTP secret is not base32".into()))?;
    Builder::new()
        .with_secret(bytes)
        .with_skew(1)
        // The otpauth label may not hold a colon; an e-mail seldom does.
        .with_account_name(email.replace(':', "_"))
        .with_issuer(Some(ISSUER))
        .build()
        .map_err(|e| DashboardError::Internal(format!("TOTP parameters: {e}")))
}

/// The typed code without spaces, if it is [`DIGITS`] digits.
pub fn as_code(typed: &str) -> Option<String> {
    let code: String = typed.chars().filter(|c| !c.is_whitespace()).collect();
    (code.len() == DIGITS && code.bytes().all(|b| b.is_ascii_digit())).then_some(code)
}

/// The time step whose code `typed` is, within one step of now, for `secret`.
pub fn matching_step(
    secret: &SecretString,
    email: &str,
    typed: &str,
) -> Result<Option<u64>, DashboardError> {
    let Some(code) = as_code(typed) else {
        return Ok(None);
    };
    Ok(totp(secret, email)?.check_current(&code))
}

/// The `otpauth://totp/…` URL an authenticator app scans.
pub fn otpauth_url(secret: &SecretString, email: &str) -> Result<String, DashboardError> {
    totp(secret, email)?
        .to_url()
        .map_err(|e| DashboardError::Internal(format!("otpauth URL: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_match_their_step_and_nothing_else() {
        let secret = new_secret();
        assert_eq!(secret.expose_secret().len(), 32);
        let generator = totp(&secret, "ops@shop.example").expect("valid");
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .expect("after 1970")
            .as_secs();
        let code = generator.generate(now).to_string();
        let step = matching_step(&secret, "ops@shop.example", &code).expect("checked");
        assert!(step.is_some_and(|s| s.abs_diff(now / 30) <= 1), "{step:?}");
        let spaced = format!("{} {}", &code[..3], &code[3..]);
        assert!(
            matching_step(&secret, "x@y", &spaced)
                .expect("checked")
                .is_some()
        );
        let stale = generator.generate(now - 120).to_string();
        if stale != code {
            assert_eq!(
                matching_step(&secret, "x@y", &stale).expect("checked"),
                None
            );
        }
        for bad in ["", "12345", "1234567", "abcdef"] {
            assert_eq!(matching_step(&secret, "x@y", bad).expect("checked"), None);
        }
        let url = otpauth_url(&secret, "ops@shop.example").expect("url");
        assert!(url.starts_with("otpauth://totp/"), "{url}");
        assert!(
            url.contains(&format!("secret={}", secret.expose_secret())),
            "{url}"
        );
    }
}
