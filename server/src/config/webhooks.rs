//! Settings of the events sent to the shop (outgoing webhooks).
//!
//! | key | default | meaning |
//! |---|---|---|
//! | `WEBHOOK_ALLOW_PRIVATE` | `true` in the sandbox, `false` with `GATEWAY_BASE_URL` | whether events may go to loopback, private, link-local and similar addresses (checked on the address connected to, at delivery) |
//! | `MERCHANT_WEBHOOK_URL` | unset | an endpoint (id `we_config`) receiving every event type, created or updated at start; needs `MERCHANT_WEBHOOK_SECRET` |
//! | `MERCHANT_WEBHOOK_SECRET` | unset | its Standard Webhooks signing secret: `whsec_` then the base64 of 24 to 64 bytes |
//! | `WEBHOOK_DELIVERY_INTERVAL_MS` | 250 | how often the delivery worker looks for due deliveries when idle (it goes again at once after a full claim) |
//! | `WEBHOOK_TIMEOUT_SECONDS` | 10 | how long the shop's endpoint has to answer an event (1 to 30); a delivery's lease is twice that and 10 s |

use std::time::Duration;

use secrecy::SecretString;

use super::error::ConfigError;
use super::source::{Layers, Setting};
use super::values;
use crate::webhook_rules::secret::check_secret;
use crate::webhook_rules::target::check_target_url;

/// The fixed id of the endpoint `MERCHANT_WEBHOOK_URL` configures.
pub const CONFIG_ENDPOINT_ID: &str = "we_config";

/// Where and how events go out.
#[derive(Debug, Clone)]
pub struct WebhookSettings {
    /// `WEBHOOK_ALLOW_PRIVATE`.
    pub allow_private: bool,
    /// `MERCHANT_WEBHOOK_URL` with `MERCHANT_WEBHOOK_SECRET`.
    pub configured_endpoint: Option<ConfiguredEndpoint>,
    /// `WEBHOOK_DELIVERY_INTERVAL_MS`.
    pub delivery_interval: Duration,
    /// `WEBHOOK_TIMEOUT_SECONDS`.
    pub timeout: Duration,
}

/// The one endpoint the configuration names. `Debug` shows no secret.
#[derive(Debug, Clone)]
pub struct ConfiguredEndpoint {
    /// `MERCHANT_WEBHOOK_URL`.
    pub url: String,
    /// `MERCHANT_WEBHOOK_SECRET` (`whsec_…`).
    pub secret: SecretString,
}

impl WebhookSettings {
    /// Reads this file's keys (also listed in `source::KEYS`); `sandbox` picks the default of
    /// `WEBHOOK_ALLOW_PRIVATE`.
    pub(super) fn resolve(layers: &Layers, sandbox: bool) -> Result<Self, ConfigError> {
        let allow_private = layers
            .get("WEBHOOK_ALLOW_PRIVATE")
            .map_or(Ok(sandbox), values::boolean)?;
        let configured_endpoint = match (
            layers.get("MERCHANT_WEBHOOK_URL"),
            layers.get("MERCHANT_WEBHOOK_SECRET"),
        ) {
            (None, None) => None,
            (Some(_), None) => {
                return Err(ConfigError::Missing {
                    key: "MERCHANT_WEBHOOK_SECRET",
                    when: "when MERCHANT_WEBHOOK_URL is set",
                });
            }
            (None, Some(_)) => {
                return Err(ConfigError::Missing {
                    key: "MERCHANT_WEBHOOK_URL",
                    when: "when MERCHANT_WEBHOOK_SECRET is set",
                });
            }
            (Some(url), Some(secret)) => Some(ConfiguredEndpoint {
                url: endpoint_url(url, allow_private)?,
                secret: signing_secret(secret)?,
            }),
        };
        let delivery_interval = layers
            .get("WEBHOOK_DELIVERY_INTERVAL_MS")
            .map_or(Ok(Duration::from_millis(250)), |setting| {
                values::millis(setting, 10, 86_400_000)
            })?;
        let timeout = layers
            .get("WEBHOOK_TIMEOUT_SECONDS")
            .map_or(Ok(Duration::from_secs(10)), |setting| {
                values::seconds(setting, 1, 30)
            })?;
        Ok(Self {
            allow_private,
            configured_endpoint,
            delivery_interval,
            timeout,
        })
    }
}

/// An http(s) URL by the one rule for targets ([`check_target_url`]: an address written as the
/// host must be public unless private targets are allowed; a name is checked on what it
/// resolves to, at each delivery).
fn endpoint_url(setting: &Setting, allow_private: bool) -> Result<String, ConfigError> {
    let url = values::page_url(setting)?;
    check_target_url(&url, allow_private).map_err(|refusal| ConfigError::Invalid {
        key: setting.label(),
        reason: refusal.to_string(),
    })?;
    Ok(url)
}

/// A `whsec_` secret, never quoted in the error.
fn signing_secret(setting: &Setting) -> Result<SecretString, ConfigError> {
    let secret = values::secret(setting, 1)?;
    use secrecy::ExposeSecret as _;
    check_secret(secret.expose_secret()).map_err(|reason| ConfigError::Invalid {
        key: setting.label(),
        reason: reason.to_owned(),
    })?;
    Ok(secret)
}

#[cfg(test)]
mod tests {
    use secrecy::ExposeSecret as _;

    use crate::config::Config;
    use crate::config::tests::emulator;

    const SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

    const LIVE: [(&str, &str); 7] = [
        ("GATEWAY_BASE_URL", "https://gateway.example"),
        ("GATEWAY_API_KEY", "k"),
        ("GATEWAY_X_API_KEY", "x"),
        ("GATEWAY_MERCHANT_ID", "m"),
        (
            "CARD_FINGERPRINT_KEY",
            "abababababababababababababababababababababababababababababababab",
        ),
        ("MERCHANT_SECRET_KEY", "sk_live_0123456789abcdef"),
        (
            "SECRETS_KEY",
            "live:000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
        ),
    ];

    #[test]
    fn private_targets_are_allowed_only_in_the_sandbox_by_default() {
        let sandbox = Config::from_pairs(&[], &emulator()).expect("valid");
        assert!(sandbox.webhooks.allow_private);
        assert!(sandbox.webhooks.configured_endpoint.is_none());
        assert_eq!(
            sandbox.webhooks.delivery_interval,
            std::time::Duration::from_millis(250)
        );
        let live = Config::from_pairs(&LIVE, &emulator()).expect("valid");
        assert!(!live.webhooks.allow_private);
        let allowed = [&LIVE[..], &[("WEBHOOK_ALLOW_PRIVATE", "true")]].concat();
        assert!(
            Config::from_pairs(&allowed, &emulator())
                .expect("valid")
                .webhooks
                .allow_private
        );
        let closed =
            Config::from_pairs(&[("WEBHOOK_ALLOW_PRIVATE", "false")], &emulator()).expect("valid");
        assert!(!closed.webhooks.allow_private);
    }

    #[test]
    fn the_configured_endpoint() {
        let config = Config::from_pairs(
            &[
                ("MERCHANT_WEBHOOK_URL", "http://127.0.0.1:3000/events"),
                ("MERCHANT_WEBHOOK_SECRET", SECRET),
            ],
            &emulator(),
        )
        .expect("valid");
        let endpoint = config
            .webhooks
            .configured_endpoint
            .clone()
            .expect("configured");
        assert_eq!(endpoint.url, "http://127.0.0.1:3000/events");
        assert_eq!(endpoint.secret.expose_secret(), SECRET);
        assert!(!format!("{config:?}").contains(SECRET));
    }

    #[test]
    fn bad_values_name_their_key() {
        for (pairs, key) in [
            (
                vec![("WEBHOOK_ALLOW_PRIVATE", "perhaps")],
                "WEBHOOK_ALLOW_PRIVATE (environment)",
            ),
            (
                vec![("MERCHANT_WEBHOOK_URL", "https://shop.example/events")],
                "MERCHANT_WEBHOOK_SECRET is required",
            ),
            (
                vec![("MERCHANT_WEBHOOK_SECRET", SECRET)],
                "MERCHANT_WEBHOOK_URL is required",
            ),
            (
                vec![
                    ("MERCHANT_WEBHOOK_URL", "ftp://shop.example/events"),
                    ("MERCHANT_WEBHOOK_SECRET", SECRET),
                ],
                "MERCHANT_WEBHOOK_URL (environment)",
            ),
            (
                vec![
                    ("MERCHANT_WEBHOOK_URL", "https://shop.example/events"),
                    ("MERCHANT_WEBHOOK_SECRET", "sk_not_a_whsec_secret"),
                ],
                "MERCHANT_WEBHOOK_SECRET (environment)",
            ),
            (
                vec![("WEBHOOK_DELIVERY_INTERVAL_MS", "0")],
                "WEBHOOK_DELIVERY_INTERVAL_MS (environment)",
            ),
            (
                vec![("WEBHOOK_TIMEOUT_SECONDS", "31")],
                "WEBHOOK_TIMEOUT_SECONDS (environment)",
            ),
        ] {
            let err = Config::from_pairs(&pairs, &emulator())
                .expect_err(key)
                .to_string();
            assert!(err.starts_with(key), "{key}: {err}");
            assert!(!err.contains("sk_not_a_whsec_secret"), "{err}");
        }
        let private = [
            &LIVE[..],
            &[
                ("MERCHANT_WEBHOOK_URL", "http://10.0.0.5/events"),
                ("MERCHANT_WEBHOOK_SECRET", SECRET),
            ],
        ]
        .concat();
        let err = Config::from_pairs(&private, &emulator())
            .expect_err("private")
            .to_string();
        assert!(
            err.starts_with("MERCHANT_WEBHOOK_URL (environment)"),
            "{err}"
        );
    }
}
