//! Where each setting comes from: built-in defaults (applied by the caller), then the optional
//! TOML file, then the environment; a later layer wins. The file uses the same names as the
//! environment in lower case (`listen = "0.0.0.0:8080"`), and holds the plan catalogue under
//! `[plans.<id>]`. An empty environment variable counts as unset.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

use super::error::ConfigError;

/// Every key the server reads, as environment variables spell them.
pub const KEYS: &[&str] = &[
    "LISTEN",
    "PUBLIC_BASE_URL",
    "DEMO_LISTEN",
    "DATABASE_URL",
    "GATEWAY_BASE_URL",
    "GATEWAY_API_KEY",
    "GATEWAY_X_API_KEY",
    "GATEWAY_MERCHANT_ID",
    "GATEWAY_CONNECT_TIMEOUT_MS",
    "GATEWAY_TIMEOUT_MS",
    "MERCHANT_SECRET_KEY",
    "MERCHANT_NAME",
    "ALLOWED_ORIGINS",
    "SUCCESS_URL",
    "DECLINE_URL",
    "TRUSTED_PROXIES",
    "SESSION_TTL_SECONDS",
    "PAYMENT_FIRST_CHECK_SECONDS",
    "PAYMENT_REVIEW_AFTER_SECONDS",
    "RECONCILE_INTERVAL_SECONDS",
    "LOG_FORMAT",
    "COMPONENT_DIR",
    // config/ops.rs
    "MAX_BODY_BYTES",
    "PAY_RATE_LIMIT_PER_IP",
    "PAY_RATE_LIMIT_PER_SESSION",
    "CUSTOMER_TOKEN_TTL_SECONDS",
    "SUBSCRIPTION_POLL_SECONDS",
    "OPS_LISTEN",
    "OPS_TOKEN",
    // config/subscriptions.rs
    "SUBSCRIPTION_SEVERAL_PER_PLAN",
    "SUBSCRIPTION_LIST_CHECK_SECONDS",
    "SUBSCRIPTION_LIST_MAX_BYTES",
    // config/fingerprint_key.rs
    "CARD_FINGERPRINT_KEY",
    "CARD_FINGERPRINT_KEY_FILE",
    // config/risk.rs
    "RISK_MAX_CARDS_PER_SESSION",
    "RISK_MAX_DECLINES_PER_SESSION",
    "RISK_MAX_DECLINES_PER_CARD",
    "RISK_CARD_DECLINES_WINDOW_SECONDS",
    "RISK_MAX_CARDS_PER_ADDRESS",
    "RISK_ADDRESS_WINDOW_SECONDS",
    "RISK_MAX_CARDS_PER_CUSTOMER",
    "RISK_CUSTOMER_WINDOW_SECONDS",
    "RISK_MAX_CARDS_PER_EMAIL",
    "RISK_EMAIL_WINDOW_SECONDS",
    // config/risk_alert.rs
    "RISK_ALERT_WINDOW_SECONDS",
    "RISK_ALERT_MIN_TRIES",
    "RISK_ALERT_BLOCKED_PERCENT",
    "RISK_ALERT_DECLINED_PERCENT",
    "RISK_ALERT_SWITCHED_PERCENT",
    "RISK_ALERT_SURGE_SECONDS",
    "RISK_ALERT_SURGE_TIMES",
    "RISK_ALERT_HOLD_SECONDS",
    "RISK_PROOF_OF_WORK",
    // config/webhooks.rs
    "WEBHOOK_ALLOW_PRIVATE",
    "MERCHANT_WEBHOOK_URL",
    "MERCHANT_WEBHOOK_SECRET",
    "WEBHOOK_DELIVERY_INTERVAL_MS",
    "WEBHOOK_TIMEOUT_SECONDS",
    // config/dashboard.rs
    "DASHBOARD_LISTEN",
    "DASHBOARD_PUBLIC_URL",
    "DASHBOARD_ALLOW_HTTP",
    "REVIEW_PENDING_AFTER_MINUTES",
    "DASHBOARD_TIME_ZONE",
    "DASHBOARD_REQUIRE_2FA",
    // config/secrets.rs
    "SECRETS_KEY",
    "SECRETS_KEY_PREVIOUS",
    "SECRETS_KEY_FILE",
];

/// The file key holding the plan catalogue.
pub const PLANS_KEY: &str = "plans";

/// Where a setting's value came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// The `--config` file.
    File(PathBuf),
    /// An environment variable.
    Env,
}

/// One configured value with its key and origin.
#[derive(Debug, Clone)]
pub struct Setting {
    /// The key as environment variables spell it.
    pub key: &'static str,
    /// The raw text.
    pub value: String,
    /// Where it came from.
    pub origin: Origin,
}

impl Setting {
    /// The key as the operator wrote it, with its origin: `LISTEN (environment)` or
    /// `listen (in /etc/checkout.toml)`.
    pub fn label(&self) -> String {
        KeyLabel {
            key: self.key,
            origin: &self.origin,
        }
        .to_string()
    }
}

struct KeyLabel<'a> {
    key: &'static str,
    origin: &'a Origin,
}

impl fmt::Display for KeyLabel<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.origin {
            Origin::Env => write!(f, "{} (environment)", self.key),
            Origin::File(path) => write!(
                f,
                "{} (in {})",
                self.key.to_ascii_lowercase(),
                path.display()
            ),
        }
    }
}

/// The plan tables of the config file, with the file's path for error messages.
#[derive(Debug, Clone)]
pub struct PlanSource {
    /// `[plans]`: one table per plan id.
    pub table: toml::Table,
    /// The file they came from.
    pub path: PathBuf,
}

/// The file and environment layers merged.
#[derive(Debug, Default)]
pub struct Layers {
    settings: HashMap<&'static str, Setting>,
    /// The `[plans]` table of the file, if it has one.
    pub plans: Option<PlanSource>,
}

impl Layers {
    /// Reads `file` (if any), then every key of [`KEYS`] from `env`.
    pub fn read(
        file: Option<&Path>,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Self, ConfigError> {
        let mut layers = Self::default();
        if let Some(path) = file {
            layers.read_file(path)?;
        }
        for &key in KEYS {
            if let Some(value) = env(key).filter(|v| !v.trim().is_empty()) {
                layers.settings.insert(
                    key,
                    Setting {
                        key,
                        value,
                        origin: Origin::Env,
                    },
                );
            }
        }
        Ok(layers)
    }

    /// The setting for `key`, if any layer gave one.
    pub fn get(&self, key: &'static str) -> Option<&Setting> {
        self.settings.get(key)
    }

    fn read_file(&mut self, path: &Path) -> Result<(), ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::ReadFile {
            path: path.to_owned(),
            source,
        })?;
        let table: toml::Table = toml::from_str(&text).map_err(|e| ConfigError::Syntax {
            path: path.to_owned(),
            message: e.to_string(),
        })?;
        for (name, value) in table {
            let label = || format!("{name} (in {})", path.display());
            if name == PLANS_KEY {
                let toml::Value::Table(plans) = value else {
                    return Err(ConfigError::Invalid {
                        key: label(),
                        reason: "must be a table of plans: [plans.<id>]".into(),
                    });
                };
                self.plans = Some(PlanSource {
                    table: plans,
                    path: path.to_owned(),
                });
                continue;
            }
            let upper = name.to_ascii_uppercase();
            let Some(&key) = KEYS.iter().find(|k| **k == upper) else {
                return Err(ConfigError::Invalid {
                    key: label(),
                    reason: "is not a known setting".into(),
                });
            };
            let value = scalar_text(value).ok_or_else(|| ConfigError::Invalid {
                key: label(),
                reason: "must be a string, a number, a boolean or a list of strings".into(),
            })?;
            self.settings.insert(
                key,
                Setting {
                    key,
                    value,
                    origin: Origin::File(path.to_owned()),
                },
            );
        }
        Ok(())
    }
}

/// A file value as the same text an environment variable would hold; lists are joined with
/// commas.
fn scalar_text(value: toml::Value) -> Option<String> {
    match value {
        toml::Value::String(text) => Some(text),
        toml::Value::Integer(n) => Some(n.to_string()),
        toml::Value::Boolean(b) => Some(b.to_string()),
        toml::Value::Array(items) => items
            .into_iter()
            .map(|item| match item {
                toml::Value::String(text) => Some(text),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()
            .map(|items| items.join(",")),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(text: &str) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("checkout.toml");
        std::fs::write(&path, text).expect("write config");
        (dir, path)
    }

    #[test]
    fn environment_wins_over_the_file() {
        let (_dir, path) = write(
            "listen = \"127.0.0.1:1\"\nallowed_origins = [\"https://a.example\", \"https://b.example\"]\n",
        );
        let env = |key: &str| (key == "LISTEN").then(|| "127.0.0.1:2".to_owned());
        let layers = Layers::read(Some(&path), &env).expect("reads");
        let listen = layers.get("LISTEN").expect("set");
        assert_eq!(listen.value, "127.0.0.1:2");
        assert_eq!(listen.label(), "LISTEN (environment)");
        let origins = layers.get("ALLOWED_ORIGINS").expect("set");
        assert_eq!(origins.value, "https://a.example,https://b.example");
        assert!(origins.label().starts_with("allowed_origins (in "));
    }

    #[test]
    fn unknown_file_keys_and_bad_syntax_are_named() {
        let (_dir, path) = write("lisen = \"x\"\n");
        let err = Layers::read(Some(&path), &|_| None).expect_err("typo refused");
        assert!(err.to_string().starts_with("lisen (in "), "{err}");
        let (_dir, path) = write("listen = \n");
        assert!(matches!(
            Layers::read(Some(&path), &|_| None),
            Err(ConfigError::Syntax { .. })
        ));
        let missing = PathBuf::from("/nonexistent/checkout.toml");
        assert!(matches!(
            Layers::read(Some(&missing), &|_| None),
            Err(ConfigError::ReadFile { .. })
        ));
    }

    #[test]
    fn empty_environment_values_count_as_unset() {
        let env = |key: &str| (key == "GATEWAY_BASE_URL").then(String::new);
        let layers = Layers::read(None, &env).expect("reads");
        assert!(layers.get("GATEWAY_BASE_URL").is_none());
    }
}
