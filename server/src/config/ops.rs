//! Settings of the protection layers, customer tokens, the subscription poll and where the
//! operations endpoints are served.
//!
//! | key | default | meaning |
//! |---|---|---|
//! | `MAX_BODY_BYTES` | 65536 | largest request body; larger ones get 413 |
//! | `PAY_RATE_LIMIT_PER_IP` | 30 | *failed* pay calls (declined, refused before the gateway, malformed) per minute from one client, an IPv4 address or an IPv6 /64; once spent, every pay call from it is refused until the minute ends. Calls that go on to the gateway or pay spend nothing, so one address carries many shoppers. Also the payment-link session starts per minute per client, every one counted (each makes a row) |
//! | `PAY_RATE_LIMIT_PER_SESSION` | 10 | pay calls per minute on one checkout session |
//! | `CUSTOMER_TOKEN_TTL_SECONDS` | 900 | lifetime of a customer self-service token |
//! | `SUBSCRIPTION_POLL_SECONDS` | 3600 | longest wait between two gateway polls of a live subscription |
//! | `OPS_LISTEN` | unset | a second listener, kept internal, serving `/metrics`, `/readyz` and `/healthz` with no token; `/metrics` and `/readyz` are then not on `LISTEN` (404) |
//! | `OPS_TOKEN` | unset | without `OPS_LISTEN`: `/metrics` and `/readyz` on `LISTEN` require `Authorization: Bearer <OPS_TOKEN>` (16 characters or more; 401 otherwise) |
//!
//! With neither set ([`OpsAccess`]), `/metrics` and `/readyz` stay open on `LISTEN` in the
//! sandbox (no `GATEWAY_BASE_URL`), and with a real gateway they are not served at all (404):
//! each call costs database queries and a gateway lookup, so they are never open to anyone
//! who can reach the shop-facing listener. `/healthz` is on every listener (load balancers
//! probe it on the public port). Setting both keys is refused: the internal listener takes no
//! token, so the token would guard nothing.

use std::net::SocketAddr;
use std::time::Duration;

use secrecy::SecretString;

use super::error::ConfigError;
use super::source::{Layers, Setting};
use super::{MIN_SECRET_CHARS, values};

/// Protection limits, customer tokens and the subscription poll.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpsSettings {
    /// `MAX_BODY_BYTES`.
    pub max_body_bytes: usize,
    /// `PAY_RATE_LIMIT_PER_IP`: failed pay calls per minute per client (IPv4 address or IPv6
    /// /64).
    pub pay_rate_per_ip: u32,
    /// `PAY_RATE_LIMIT_PER_SESSION`: pay calls per minute per checkout session.
    pub pay_rate_per_session: u32,
    /// `CUSTOMER_TOKEN_TTL_SECONDS`.
    pub customer_token_ttl: Duration,
    /// `SUBSCRIPTION_POLL_SECONDS`.
    pub subscription_poll: Duration,
}

impl Default for OpsSettings {
    fn default() -> Self {
        Self {
            max_body_bytes: 64 * 1024,
            pay_rate_per_ip: 30,
            pay_rate_per_session: 10,
            customer_token_ttl: Duration::from_secs(900),
            subscription_poll: Duration::from_secs(3600),
        }
    }
}

impl OpsSettings {
    /// Reads this file's keys (also listed in `source::KEYS`) from `layers`, defaults for the missing ones.
    pub(super) fn resolve(layers: &Layers) -> Result<Self, ConfigError> {
        let defaults = Self::default();
        let count = |key: &'static str, min: u64, max: u64, default: u64| {
            layers
                .get(key)
                .map_or(Ok(default), |setting| whole_number(setting, min, max))
        };
        let secs = |key: &'static str, min: u64, max: u64, default: Duration| {
            layers
                .get(key)
                .map_or(Ok(default), |setting| values::seconds(setting, min, max))
        };
        let max_body = count("MAX_BODY_BYTES", 1024, 16 * 1024 * 1024, 64 * 1024)?;
        Ok(Self {
            max_body_bytes: usize::try_from(max_body).unwrap_or(defaults.max_body_bytes),
            pay_rate_per_ip: narrow(count("PAY_RATE_LIMIT_PER_IP", 1, 100_000, 30)?),
            pay_rate_per_session: narrow(count("PAY_RATE_LIMIT_PER_SESSION", 1, 10_000, 10)?),
            customer_token_ttl: secs(
                "CUSTOMER_TOKEN_TTL_SECONDS",
                60,
                86_400,
                defaults.customer_token_ttl,
            )?,
            subscription_poll: secs(
                "SUBSCRIPTION_POLL_SECONDS",
                1,
                7 * 86_400,
                defaults.subscription_poll,
            )?,
        })
    }
}

/// Where `/metrics` and `/readyz` are served (`OPS_LISTEN`, `OPS_TOKEN`).
#[derive(Debug, Clone)]
pub enum OpsAccess {
    /// On `LISTEN`, to anyone: the sandbox default.
    Open,
    /// On `LISTEN`, to requests bearing `OPS_TOKEN`.
    Token(SecretString),
    /// Only on the internal listener `OPS_LISTEN`.
    Listener(SocketAddr),
    /// Nowhere: a real gateway with neither key set.
    Closed,
}

impl OpsAccess {
    /// Reads `OPS_LISTEN` and `OPS_TOKEN` from `layers`; `sandbox` picks the default.
    pub(super) fn resolve(layers: &Layers, sandbox: bool) -> Result<Self, ConfigError> {
        match (layers.get("OPS_LISTEN"), layers.get("OPS_TOKEN")) {
            (Some(_), Some(token)) => Err(ConfigError::Invalid {
                key: token.label(),
                reason: "cannot be combined with OPS_LISTEN (the internal listener takes no \
                         token); set one of them"
                    .into(),
            }),
            (Some(listen), None) => values::socket_addr(listen).map(Self::Listener),
            (None, Some(token)) => values::secret(token, MIN_SECRET_CHARS).map(Self::Token),
            (None, None) if sandbox => Ok(Self::Open),
            (None, None) => Ok(Self::Closed),
        }
    }

    /// The internal listener's address, when `OPS_LISTEN` is set.
    pub fn listener(&self) -> Option<SocketAddr> {
        match self {
            Self::Listener(address) => Some(*address),
            _ => None,
        }
    }
}

/// A whole number within `min..=max`, naming the key otherwise.
fn whole_number(setting: &Setting, min: u64, max: u64) -> Result<u64, ConfigError> {
    setting
        .value
        .trim()
        .parse::<u64>()
        .ok()
        .filter(|value| (min..=max).contains(value))
        .ok_or_else(|| ConfigError::Invalid {
            key: setting.label(),
            reason: format!("must be a whole number from {min} to {max}"),
        })
}

/// Bounds above keep every count within `u32`.
fn narrow(value: u64) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use secrecy::ExposeSecret as _;

    use super::*;
    use crate::config::Config;
    use crate::config::tests::emulator;

    #[test]
    fn defaults_and_overrides() {
        let config = Config::from_pairs(&[], &emulator()).expect("defaults");
        assert_eq!(config.ops, OpsSettings::default());
        let config = Config::from_pairs(
            &[
                ("MAX_BODY_BYTES", "2048"),
                ("PAY_RATE_LIMIT_PER_IP", "3"),
                ("PAY_RATE_LIMIT_PER_SESSION", "2"),
                ("CUSTOMER_TOKEN_TTL_SECONDS", "120"),
                ("SUBSCRIPTION_POLL_SECONDS", "5"),
            ],
            &emulator(),
        )
        .expect("valid");
        assert_eq!(config.ops.max_body_bytes, 2048);
        assert_eq!(
            (config.ops.pay_rate_per_ip, config.ops.pay_rate_per_session),
            (3, 2)
        );
        assert_eq!(config.ops.customer_token_ttl, Duration::from_secs(120));
        assert_eq!(config.ops.subscription_poll, Duration::from_secs(5));
    }

    #[test]
    fn operations_endpoints_default_to_open_only_in_the_sandbox() {
        let live = [
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
        let access = |pairs: &[(&str, &str)]| {
            Config::from_pairs(pairs, &emulator())
                .expect("valid")
                .ops_access
        };
        assert!(matches!(access(&[]), OpsAccess::Open));
        assert!(matches!(access(&live), OpsAccess::Closed));
        let with_token = [&live[..], &[("OPS_TOKEN", "ops_0123456789abcdef")]].concat();
        let OpsAccess::Token(token) = access(&with_token) else {
            panic!("OPS_TOKEN guards the public listener");
        };
        assert_eq!(token.expose_secret(), "ops_0123456789abcdef");
        let config = Config::from_pairs(&with_token, &emulator()).expect("valid");
        assert!(!format!("{config:?}").contains("ops_0123456789abcdef"));
        let internal = access(&[("OPS_LISTEN", "127.0.0.1:9100")]);
        assert_eq!(internal.listener(), Some(([127, 0, 0, 1], 9100).into()));
    }

    #[test]
    fn bad_values_name_their_key() {
        for (key, value) in [
            ("OPS_LISTEN", "localhost"),
            ("OPS_TOKEN", "short"),
            ("MAX_BODY_BYTES", "10"),
            ("PAY_RATE_LIMIT_PER_IP", "0"),
            ("PAY_RATE_LIMIT_PER_SESSION", "many"),
            ("CUSTOMER_TOKEN_TTL_SECONDS", "5"),
            ("SUBSCRIPTION_POLL_SECONDS", "-1"),
        ] {
            let err = Config::from_pairs(&[(key, value)], &emulator())
                .expect_err(key)
                .to_string();
            assert!(
                err.starts_with(&format!("{key} (environment)")),
                "{key}: {err}"
            );
        }
        let both = [
            ("OPS_LISTEN", "127.0.0.1:9100"),
            ("OPS_TOKEN", "ops_0123456789abcdef"),
        ];
        let err = Config::from_pairs(&both, &emulator())
            .expect_err("both refused")
            .to_string();
        assert!(err.starts_with("OPS_TOKEN (environment)"), "{err}");
        assert!(!err.contains("ops_0123456789abcdef"), "{err}");
    }
}
