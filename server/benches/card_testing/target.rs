//! The system under attack: the gateway emulator on its own loopback port (a remote gateway,
//! with its own ledger), and checkout-server with it as `GATEWAY_BASE_URL`, on one database,
//! trusting the bench's `X-Forwarded-For` (`TRUSTED_PROXIES` = loopback) so each request
//! comes from the client address the bench names.
//!
//! The card-testing defence runs with the server's own configuration: every key the server
//! knows (`config::KEYS`) that is set in the bench's environment is passed on (`RISK_*`,
//! `PAY_RATE_LIMIT_*`, and whatever later defences add), except those the bench must own
//! (database, gateway, keys, listeners, proxies).

use checkout_sandbox::{DEFAULT_API_KEY, DEFAULT_X_API_KEY, Sandbox, SandboxConfig};
use checkout_server::config::{Config, EmulatorDefaults, KEYS, RiskSettings};
use checkout_server::serve::{Mounts, Server};

/// The server's merchant key.
pub const MERCHANT_KEY: &str = "sk_bench_cardtesting_0123456789";

/// Keys the bench sets itself; the environment's values for them are ignored.
const OWNED: &[&str] = &[
    "LISTEN",
    "PUBLIC_BASE_URL",
    "DATABASE_URL",
    "GATEWAY_BASE_URL",
    "GATEWAY_API_KEY",
    "GATEWAY_X_API_KEY",
    "GATEWAY_MERCHANT_ID",
    "MERCHANT_SECRET_KEY",
    "TRUSTED_PROXIES",
    "CARD_FINGERPRINT_KEY",
    "SECRETS_KEY",
    "SECRETS_KEY_PREVIOUS",
    "SECRETS_KEY_FILE",
    "DASHBOARD_LISTEN",
    "OPS_LISTEN",
    "RECONCILE_INTERVAL_SECONDS",
];

/// The server's settings taken from the environment, `(key, value)`, in `KEYS`' order.
pub fn passed_settings() -> Vec<(&'static str, String)> {
    KEYS.iter()
        .filter(|key| !OWNED.contains(key))
        .filter_map(|&key| std::env::var(key).ok().map(|value| (key, value)))
        .collect()
}

/// A running emulator and server.
pub struct Target {
    pub sandbox: Sandbox,
    pub base: String,
    pub risk: RiskSettings,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<anyhow::Result<()>>>,
}

impl Target {
    /// Starts a fresh emulator and a server on `database_url`.
    pub async fn start(database_url: &str) -> anyhow::Result<Self> {
        let sandbox = Sandbox::start(SandboxConfig::default()).await?;
        let passed = passed_settings();
        let mut pairs: Vec<(&str, &str)> = vec![
            ("DATABASE_URL", database_url),
            ("GATEWAY_BASE_URL", sandbox.base_url()),
            ("GATEWAY_API_KEY", DEFAULT_API_KEY),
            ("GATEWAY_X_API_KEY", DEFAULT_X_API_KEY),
            ("GATEWAY_MERCHANT_ID", "bench-merchant"),
            ("MERCHANT_SECRET_KEY", MERCHANT_KEY),
            ("TRUSTED_PROXIES", "127.0.0.1/32,::1/128"),
            (
                "CARD_FINGERPRINT_KEY",
                "5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c",
            ),
            (
                "SECRETS_KEY",
                "bench:000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
            ),
            ("RECONCILE_INTERVAL_SECONDS", "86400"),
            ("DASHBOARD_LISTEN", "off"),
        ];
        pairs.extend(passed.iter().map(|(key, value)| (*key, value.as_str())));
        let config = Config::from_pairs(&pairs, &EmulatorDefaults::default())?;
        let risk = config.risk;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let server = Server::build(config, listener, |_| Mounts::default()).await?;
        let base = server.base_url().to_owned();
        let (shutdown, stop) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(server.run(async move {
            let _ = stop.await;
        }));
        Ok(Self {
            sandbox,
            base,
            risk,
            shutdown: Some(shutdown),
            task: Some(task),
        })
    }

    /// Stops the server and waits for it.
    pub async fn stop(mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
    }
}
