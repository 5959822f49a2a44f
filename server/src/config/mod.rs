//! Server configuration: built-in defaults, then an optional TOML file (`--config`), then
//! environment variables. A bad value stops start-up with the exact key named.
//!
//! | key | default | meaning |
//! |---|---|---|
//! | `LISTEN` | `127.0.0.1:8080` | address to serve on (port 0 picks one) |
//! | `PUBLIC_BASE_URL` | `http://<listening address>` | how browsers and the gateway reach this server |
//! | `DATABASE_URL` | `data/checkout.db` (SQLite) | `postgres://…` selects Postgres |
//! | `DEMO_LISTEN` | `127.0.0.1:8081` | sandbox only: the demo shop's address (port 0 picks one); `off`: no demo shop, the emulator alone |
//! | `GATEWAY_BASE_URL` | unset: the in-process emulator | the real gateway, e.g. `https://api.paymentoptions.com` |
//! | `GATEWAY_API_KEY`, `GATEWAY_X_API_KEY` | the emulator's keys | required with `GATEWAY_BASE_URL` |
//! | `GATEWAY_MERCHANT_ID` | `sandbox-merchant` | `merchant_id` on every request; required with `GATEWAY_BASE_URL` |
//! | `GATEWAY_CONNECT_TIMEOUT_MS`, `GATEWAY_TIMEOUT_MS` | 5000, 30000 | gateway time limits |
//! | `MERCHANT_SECRET_KEY` | generated per run (sandbox only) | the shop backend's bearer key, ≥ 16 chars |
//! | `MERCHANT_NAME` | `Demo Shop` | shown on the checkout form |
//! | `ALLOWED_ORIGINS` | none | comma-separated shop origins allowed to embed the form and call the browser API |
//! | `COMPONENT_DIR` | `dist` | the component trunk built (`/frame/`, the card form's frame); relative: under the working directory, else beside the executable (`component.rs`) |
//! | `SUCCESS_URL`, `DECLINE_URL` | `<PUBLIC_BASE_URL>/` | where the customer goes after 3DS |
//! | `TRUSTED_PROXIES` | none | peers whose `X-Forwarded-For` is believed: addresses and CIDR ranges |
//! | `SESSION_TTL_SECONDS` | 3600 | how long a checkout session can be paid |
//! | `PAYMENT_FIRST_CHECK_SECONDS` | 60 | when the reconciler first looks at a pending payment |
//! | `PAYMENT_REVIEW_AFTER_SECONDS` | 1800 | an outcome never learned by then → `needs_review` |
//! | `RECONCILE_INTERVAL_SECONDS` | 30 | reconciler period |
//! | `LOG_FORMAT` | `text` | `text` or `json` |
//! | `MAX_BODY_BYTES`, `PAY_RATE_LIMIT_*`, `CUSTOMER_TOKEN_TTL_SECONDS`, `SUBSCRIPTION_POLL_SECONDS` | see [`OpsSettings`] | protection, tokens, polling |
//! | `SUBSCRIPTION_SEVERAL_PER_PLAN`, `SUBSCRIPTION_LIST_CHECK_SECONDS`, `SUBSCRIPTION_LIST_MAX_BYTES` | see [`SubscriptionSettings`] | several live subscriptions to one plan, the whole-list check |
//! | `OPS_LISTEN`, `OPS_TOKEN` | sandbox: on `LISTEN`; real gateway: not served | where `/metrics` and `/readyz` are served ([`OpsAccess`]); keep `OPS_LISTEN` internal |
//! | `SECRETS_KEY`, `SECRETS_KEY_PREVIOUS`, `SECRETS_KEY_FILE` | sandbox: generated into `secrets.key` beside the SQLite file; real gateway: required | the key sealing webhook signing secrets and staff TOTP keys in the database ([`SecretsKeySource`]) |
//! | `DASHBOARD_LISTEN`, `DASHBOARD_PUBLIC_URL`, `DASHBOARD_REQUIRE_2FA` | `127.0.0.1:8082`, its address, `false` | the merchant dashboard's listener (`off`: none), origin, and whether admins must use two-factor sign-in ([`DashboardSettings`]) |
//! | `CARD_FINGERPRINT_KEY`, `CARD_FINGERPRINT_KEY_FILE` | sandbox: generated once, kept in `<data dir>/card_fingerprint.key` | 32 bytes (64 hex digits or base64), or a file holding them, keying the card fingerprint; one is required with `GATEWAY_BASE_URL` ([`fingerprint_key`]) |
//! | `RISK_MAX_CARDS_PER_SESSION`, `RISK_MAX_*`, `RISK_*_WINDOW_SECONDS` | see [`RiskSettings`] | the card-testing rules' thresholds and windows |
//! | `RISK_ALERT_*` | see [`AlertSettings`] | when the card-testing thresholds tighten by themselves |
//! | `WEBHOOK_ALLOW_PRIVATE`, `MERCHANT_WEBHOOK_URL`, `MERCHANT_WEBHOOK_SECRET`, `WEBHOOK_DELIVERY_INTERVAL_MS`, `WEBHOOK_TIMEOUT_SECONDS` | see [`WebhookSettings`] | events to the shop: private targets (sandbox: allowed), one configured endpoint, the delivery worker's period, the endpoint's time to answer |
//!
//! The file uses the same names in lower case and may hold the plan catalogue
//! ([`plans`]). Without `GATEWAY_BASE_URL`, what the file and environment leave unset comes from
//! [`EmulatorDefaults`], supplied by whoever mounts the in-process emulator.

pub mod billing_period;
pub mod component;
mod dashboard;
mod error;
pub mod fingerprint_key;
mod gateway;
mod ops;
pub mod plans;
mod risk;
mod risk_alert;
mod secrets;
mod source;
mod store_settings;
mod subscriptions;
#[cfg(test)]
pub(crate) mod tests;
mod timing;
mod values;
mod warnings;
mod webhooks;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use ipnet::IpNet;
use secrecy::SecretString;

pub use dashboard::{
    DEFAULT_DASHBOARD_LISTEN, DashboardSettings, SESSION_ABSOLUTE, SESSION_IDLE, time_zone,
};
pub use error::ConfigError;
pub use fingerprint_key::CardFingerprintKey;
pub use gateway::{EmulatorDefaults, GatewaySettings};
pub use ops::{OpsAccess, OpsSettings};
pub use plans::{PlanCatalogue, first_charge};
pub use risk::RiskSettings;
pub use risk_alert::{AlertSettings, ProofOfWork};
pub use secrets::{SecretsKeySource, sandbox_key_path};
pub use source::KEYS;
pub use store_settings::StoreSettings;
pub use subscriptions::SubscriptionSettings;
pub use timing::Timing;
pub use webhooks::{CONFIG_ENDPOINT_ID, ConfiguredEndpoint, WebhookSettings};

use crate::store::secret::generate_token;
use source::{Layers, Setting};

/// Default `LISTEN`.
pub const DEFAULT_LISTEN: &str = "127.0.0.1:8080";
/// Default `DEMO_LISTEN`.
pub const DEFAULT_DEMO_LISTEN: &str = "127.0.0.1:8081";
/// Default `DATABASE_URL`: a SQLite file under `./data/`.
pub const DEFAULT_DATABASE_URL: &str = "data/checkout.db";
/// Default `COMPONENT_DIR`: where `trunk build` writes (`component::locate` finds it).
pub const DEFAULT_COMPONENT_DIR: &str = "dist";
/// Default `GATEWAY_MERCHANT_ID` with the emulator.
pub const SANDBOX_MERCHANT_ID: &str = "sandbox-merchant";
/// Fewest characters of `MERCHANT_SECRET_KEY`.
pub const MIN_SECRET_CHARS: usize = 16;

/// Everything the server is configured with. `Debug` shows no secret.
#[derive(Debug, Clone)]
pub struct Config {
    /// `LISTEN`.
    pub listen: SocketAddr,
    /// `PUBLIC_BASE_URL` without a trailing slash; `None`: `http://<listening address>`.
    pub public_base_url: Option<String>,
    /// `DATABASE_URL`.
    pub database_url: SecretString,
    /// `DEMO_LISTEN`: the demo shop's address in the sandbox; `None` (`off`): no demo shop.
    pub demo_listen: Option<SocketAddr>,
    /// The gateway and its credentials.
    pub gateway: GatewaySettings,
    /// The shop: its key, name, origins and landing pages.
    pub merchant: MerchantSettings,
    /// `TRUSTED_PROXIES`: addresses and ranges.
    pub trusted_proxies: Vec<IpNet>,
    /// Session lifetime and payment follow-up times.
    pub timing: Timing,
    /// `LOG_FORMAT`.
    pub log_format: LogFormat,
    /// Subscription plans.
    pub plans: PlanCatalogue,
    /// Protection limits, customer tokens, subscription poll (`config/ops.rs`).
    pub ops: OpsSettings,
    /// One plan per customer or several, and the whole-list check (`config/subscriptions.rs`).
    pub subscriptions: SubscriptionSettings,
    /// `OPS_LISTEN`, `OPS_TOKEN`: where `/metrics` and `/readyz` are served (`config/ops.rs`).
    pub ops_access: OpsAccess,
    /// `COMPONENT_DIR`: the built component served under `/frame/`.
    pub component_dir: PathBuf,
    /// Events to the shop: private targets, the configured endpoint (`config/webhooks.rs`).
    pub webhooks: WebhookSettings,
    /// The merchant dashboard's listener and origin (`config/dashboard.rs`).
    pub dashboard: DashboardSettings,
    /// `SECRETS_KEY`, `SECRETS_KEY_PREVIOUS`, `SECRETS_KEY_FILE`: what seals secrets at rest
    /// (`config/secrets.rs`).
    pub secrets_key: SecretsKeySource,
    /// `CARD_FINGERPRINT_KEY`; `None` in the sandbox when unset, until the server fills it in
    /// from the sandbox key file (`config/fingerprint_key.rs`).
    pub card_fingerprint_key: Option<CardFingerprintKey>,
    /// The card-testing rules (`config/risk.rs`).
    pub risk: RiskSettings,
}

/// The shop's side.
#[derive(Debug, Clone)]
pub struct MerchantSettings {
    /// `MERCHANT_SECRET_KEY`.
    pub secret_key: SecretString,
    /// True when the key was generated for this run (sandbox without a configured key).
    pub secret_key_generated: bool,
    /// `MERCHANT_NAME`.
    pub name: String,
    /// `ALLOWED_ORIGINS`, normalised (`https://shop.example`).
    pub allowed_origins: Vec<String>,
    /// `SUCCESS_URL`; `None`: the public base URL.
    pub success_url: Option<String>,
    /// `DECLINE_URL`; `None`: the public base URL.
    pub decline_url: Option<String>,
}

/// `LOG_FORMAT`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line.
    Json,
}

impl Config {
    /// Reads `file` (if given) and the process environment.
    pub fn load(file: Option<&Path>, emulator: &EmulatorDefaults) -> Result<Self, ConfigError> {
        Self::load_from(file, &|key| std::env::var(key).ok(), emulator)
    }

    /// Reads `file` (if given) and the variables `env` returns.
    pub fn load_from(
        file: Option<&Path>,
        env: &dyn Fn(&str) -> Option<String>,
        emulator: &EmulatorDefaults,
    ) -> Result<Self, ConfigError> {
        Self::resolve(&Layers::read(file, env)?, emulator)
    }

    /// A configuration from `(key, value)` pairs alone, as if they were the environment
    /// (tests and embedding).
    pub fn from_pairs(
        pairs: &[(&str, &str)],
        emulator: &EmulatorDefaults,
    ) -> Result<Self, ConfigError> {
        let env = |key: &str| {
            pairs
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, v)| (*v).to_owned())
        };
        Self::load_from(None, &env, emulator)
    }

    /// The public base URL once the listening address is known.
    pub fn public_base_url_for(&self, bound: SocketAddr) -> String {
        self.public_base_url
            .clone()
            .unwrap_or_else(|| format!("http://{bound}"))
    }

    fn resolve(layers: &Layers, emulator: &EmulatorDefaults) -> Result<Self, ConfigError> {
        let get = |key| layers.get(key);
        let gateway = gateway::resolve(layers, emulator)?;
        let sandbox = gateway.is_sandbox();
        let (secret_key, secret_key_generated) = match get("MERCHANT_SECRET_KEY") {
            Some(s) => (values::secret(s, MIN_SECRET_CHARS)?, false),
            None if sandbox => (generate_token("sk_sandbox_"), true),
            None => return Err(missing("MERCHANT_SECRET_KEY")),
        };
        let plans = match &layers.plans {
            Some(source) => PlanCatalogue::from_source(source)?,
            None if sandbox => emulator.plans.iter().cloned().collect(),
            None => PlanCatalogue::default(),
        };
        Ok(Self {
            listen: or_default(get("LISTEN"), values::socket_addr, || {
                DEFAULT_LISTEN.parse().map_err(|_| missing("LISTEN"))
            })?,
            public_base_url: get("PUBLIC_BASE_URL").map(values::base_url).transpose()?,
            database_url: or_default(get("DATABASE_URL"), values::database_url, || {
                Ok(SecretString::from(DEFAULT_DATABASE_URL))
            })?,
            demo_listen: match get("DEMO_LISTEN") {
                Some(setting) => values::listen_or_off(setting)?,
                None => DEFAULT_DEMO_LISTEN.parse().ok(),
            },
            gateway,
            merchant: MerchantSettings {
                secret_key,
                secret_key_generated,
                name: or_default(
                    get("MERCHANT_NAME"),
                    |s| values::text(s, 100),
                    || Ok("Demo Shop".to_owned()),
                )?,
                allowed_origins: get("ALLOWED_ORIGINS")
                    .map(values::origins)
                    .transpose()?
                    .unwrap_or_default(),
                success_url: get("SUCCESS_URL").map(values::page_url).transpose()?,
                decline_url: get("DECLINE_URL").map(values::page_url).transpose()?,
            },
            trusted_proxies: get("TRUSTED_PROXIES")
                .map(values::ip_ranges)
                .transpose()?
                .unwrap_or_default(),
            timing: timing::resolve(layers)?,
            log_format: match get("LOG_FORMAT") {
                Some(s) => match values::choice(s, &["text", "json"])? {
                    "json" => LogFormat::Json,
                    _ => LogFormat::Text,
                },
                None => LogFormat::Text,
            },
            plans,
            ops: OpsSettings::resolve(layers)?,
            subscriptions: SubscriptionSettings::resolve(layers)?,
            ops_access: OpsAccess::resolve(layers, sandbox)?,
            webhooks: WebhookSettings::resolve(layers, sandbox)?,
            dashboard: DashboardSettings::resolve(layers)?,
            secrets_key: SecretsKeySource::resolve(layers, sandbox)?,
            card_fingerprint_key: fingerprint_key::resolve(
                get(fingerprint_key::KEY_NAME),
                get(fingerprint_key::FILE_KEY_NAME),
                sandbox,
            )?,
            risk: RiskSettings::resolve(layers)?,
            component_dir: get("COMPONENT_DIR")
                .map(values::path)
                .transpose()?
                .unwrap_or_else(|| PathBuf::from(DEFAULT_COMPONENT_DIR)),
        })
    }
}

pub(super) fn or_default<T>(
    setting: Option<&Setting>,
    parse: impl FnOnce(&Setting) -> Result<T, ConfigError>,
    default: impl FnOnce() -> Result<T, ConfigError>,
) -> Result<T, ConfigError> {
    setting.map_or_else(default, parse)
}

pub(super) fn missing(key: &'static str) -> ConfigError {
    ConfigError::Missing {
        key,
        when: "when GATEWAY_BASE_URL is set (a real gateway)",
    }
}
