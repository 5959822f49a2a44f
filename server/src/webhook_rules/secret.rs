//! What a webhook signing secret must be: `whsec_`, then the base64 of a key of 24 to 64 bytes
//! (the Standard Webhooks specification). Checked when the configuration names one
//! (`MERCHANT_WEBHOOK_SECRET`); the events service makes its endpoints' with [`new_secret`],
//! and `events::sign` signs with either.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use rand::RngCore as _;
use secrecy::SecretString;

/// The prefix of every signing secret.
pub const SECRET_PREFIX: &str = "whsec_";

/// Fewest and most bytes a secret's key may have (the specification asks for 24 to 64).
pub const KEY_BYTES: std::ops::RangeInclusive<usize> = 24..=64;

/// Random bytes in a secret this server makes.
const NEW_KEY_BYTES: usize = 24;

/// A new signing secret: `whsec_` and the base64 of 24 random bytes.
pub fn new_secret() -> SecretString {
    let mut bytes = [0u8; NEW_KEY_BYTES];
    rand::rng().fill_bytes(&mut bytes);
    SecretString::from(format!("{SECRET_PREFIX}{}", STANDARD.encode(bytes)))
}

/// Whether `secret` is a secret this server signs with: `whsec_`, then the base64 (standard
/// alphabet, padded) of a key of [`KEY_BYTES`] bytes. The reason, when not, never quotes it.
pub fn check_secret(secret: &str) -> Result<(), &'static str> {
    let Some(encoded) = secret.strip_prefix(SECRET_PREFIX) else {
        return Err("must be a Standard Webhooks secret: whsec_ then base64");
    };
    let key = STANDARD
        .decode(encoded)
        .map_err(|_| "must be whsec_ then base64 (standard alphabet, padded)")?;
    if !KEY_BYTES.contains(&key.len()) {
        return Err("must hold a key of 24 to 64 bytes after whsec_");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_checked_without_being_quoted() {
        assert_eq!(
            check_secret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"),
            Ok(())
        );
        let fresh = format!("{SECRET_PREFIX}{}", STANDARD.encode([7u8; 32]));
        assert_eq!(check_secret(&fresh), Ok(()));
        for bad in [
            "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
            "whsec_not base64!",
            "whsec_c2hvcnQ=",
            "sk_live_0123456789abcdef",
        ] {
            let reason = check_secret(bad).expect_err(bad);
            assert!(!reason.contains(bad), "{reason}");
        }
    }

    #[test]
    fn new_secrets_are_random_and_pass_the_check() {
        use secrecy::ExposeSecret as _;
        let secret = new_secret();
        let text = secret.expose_secret();
        let encoded = text.strip_prefix(SECRET_PREFIX).expect("whsec_ prefix");
        assert_eq!(
            STANDARD.decode(encoded).expect("base64").len(),
            NEW_KEY_BYTES
        );
        assert_eq!(check_secret(text), Ok(()));
        assert_ne!(text, new_secret().expose_secret());
        assert!(!format!("{secret:?}").contains(encoded));
    }
}
