//! Signing events the Standard Webhooks way (<https://www.standardwebhooks.com>), with that
//! project's own crate, so a shop verifies them with its libraries in any language:
//!
//! - `webhook-id`: the event's id, the same on every retry (receivers de-duplicate on it);
//! - `webhook-timestamp`: the attempt's time, in seconds since the Unix epoch;
//! - `webhook-signature`: `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` with the
//!   endpoint's `whsec_` secret (the base64 of its key after the prefix). During a secret
//!   rotation's overlap the previous secret signs too, the two signatures space-separated,
//!   as the specification allows, so a shop holding either secret accepts the request.

use secrecy::{ExposeSecret as _, SecretString};
use standardwebhooks::Webhook;

use crate::webhook_rules::secret::SECRET_PREFIX;

/// Why a request cannot be signed. Never holds a secret.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SignError {
    /// No secret to sign with.
    #[error("the endpoint has no signing secret")]
    NoSecret,
    /// A stored secret is not `whsec_` and base64.
    #[error("the endpoint's signing secret is not a whsec_ secret")]
    BadSecret,
    /// The body is not UTF-8 (a rendered event always is).
    #[error("the body is not UTF-8")]
    BadBody,
}

/// The `webhook-signature` value for message `id` sent at `timestamp` (Unix seconds) with
/// `body`: one `v1,…` signature per secret, space-separated, in the order given.
pub fn signature(
    secrets: &[SecretString],
    id: &str,
    timestamp: i64,
    body: &[u8],
) -> Result<String, SignError> {
    if secrets.is_empty() {
        return Err(SignError::NoSecret);
    }
    let mut signatures = Vec::with_capacity(secrets.len());
    for secret in secrets {
        let secret = secret.expose_secret();
        if !secret.starts_with(SECRET_PREFIX) {
            return Err(SignError::BadSecret);
        }
        let webhook = Webhook::new(secret).map_err(|_| SignError::BadSecret)?;
        let signed = webhook
            .sign(id, timestamp, body)
            .map_err(|_| SignError::BadBody)?;
        signatures.push(signed);
    }
    Ok(signatures.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The test vector the Standard Webhooks specification publishes.
    const SPEC_SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const SPEC_ID: &str = "msg_p5jXN8AQM9LWM0D4loKWxJek";
    const SPEC_TIMESTAMP: i64 = 1_614_265_330;
    const SPEC_BODY: &[u8] = br#"{"test": 2432232314}"#;
    const SPEC_SIGNATURE: &str = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";

    #[test]
    fn the_specifications_test_vector() {
        let secrets = [SecretString::from(SPEC_SECRET)];
        assert_eq!(
            signature(&secrets, SPEC_ID, SPEC_TIMESTAMP, SPEC_BODY),
            Ok(SPEC_SIGNATURE.to_owned())
        );
    }

    #[test]
    fn an_overlap_signs_with_both_secrets() {
        let other = crate::webhook_rules::secret::new_secret();
        let secrets = [other.clone(), SecretString::from(SPEC_SECRET)];
        let header = signature(&secrets, SPEC_ID, SPEC_TIMESTAMP, SPEC_BODY).expect("signs");
        let parts: Vec<&str> = header.split(' ').collect();
        assert_eq!(parts.len(), 2);
        assert_eq!(parts[1], SPEC_SIGNATURE);
        assert!(parts[0].starts_with("v1,") && parts[0] != SPEC_SIGNATURE);
        // Either secret verifies the request, as a shop's library would.
        let mut headers = reqwest::header::HeaderMap::new();
        let now = time::OffsetDateTime::now_utc().unix_timestamp();
        let header = signature(&secrets, SPEC_ID, now, SPEC_BODY).expect("signs");
        headers.insert("webhook-id", SPEC_ID.parse().expect("header"));
        headers.insert(
            "webhook-timestamp",
            now.to_string().parse().expect("header"),
        );
        headers.insert("webhook-signature", header.parse().expect("header"));
        for secret in [other.expose_secret(), SPEC_SECRET] {
            let webhook = Webhook::new(secret).expect("secret");
            webhook.verify(SPEC_BODY, &headers).expect("verifies");
        }
        let stranger = Webhook::new(crate::webhook_rules::secret::new_secret().expose_secret())
            .expect("secret");
        assert!(stranger.verify(SPEC_BODY, &headers).is_err());
    }

    #[test]
    fn only_whsec_secrets_sign() {
        assert_eq!(
            signature(&[SecretString::from("plain")], "id", 1, b"{}"),
            Err(SignError::BadSecret)
        );
        assert_eq!(signature(&[], "id", 1, b"{}"), Err(SignError::NoSecret));
    }
}
