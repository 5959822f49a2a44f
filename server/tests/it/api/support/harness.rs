//! The test server's start-up and shutdown: the whole server with the in-process emulator
//! and the demo shop, on a fresh SQLite file or Postgres schema, a second instance beside it
//! on the same database, and direct SQL on that database.

use std::time::Duration;

use checkout_sandbox::SandboxState;
use checkout_sandbox::keeper::StateKeeper;
use checkout_server::config::Config;
use checkout_server::serve::Server;
use checkout_server::web::AppState;
use reqwest::redirect::Policy;
use sqlx::postgres::PgPool;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use super::{Backend, MERCHANT_KEY, SECRETS_KEY, Shop, TEST_FINGERPRINT_KEY};
use crate::compose;
use crate::sandbox::support::fast_config;
use crate::store::POSTGRES_ENV;

/// A running server with its emulator, shop and clients.
pub struct Harness {
    /// `http://127.0.0.1:<port>`.
    pub base: String,
    /// The internal operations listener's `http://127.0.0.1:<port>`, when `OPS_LISTEN` is set.
    pub ops: Option<String>,
    /// The dashboard's `http://127.0.0.1:<port>` (`DASHBOARD_LISTEN`), unless it is `off`.
    pub dashboard: Option<String>,
    /// The server's state (store access for assertions).
    pub state: AppState,
    /// The dashboard's state (its sign-in limits), unless it is `off`.
    pub dashboard_state: Option<checkout_server::dashboard::DashboardState>,
    /// The mounted emulator's state (ledger, faults, webhook log).
    pub sandbox: SandboxState,
    /// The landing pages' server.
    pub shop: Shop,
    /// The demo shop's base URL (`http://127.0.0.1:<port>`, its own listener); `None` with a
    /// real gateway.
    pub demo: Option<String>,
    /// A client that never follows redirects.
    pub api: reqwest::Client,
    /// A client that follows redirects, like a browser.
    pub browser: reqwest::Client,
    /// The database URL the server uses.
    pub database_url: String,
    /// The SQLite file, when the backend is SQLite.
    pub sqlite_path: Option<std::path::PathBuf>,
    backend: Backend,
    postgres_schema: Option<String>,
    shutdown: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<anyhow::Result<()>>>,
    demo_task: Option<JoinHandle<std::io::Result<()>>>,
    /// Saves the emulator's state, when the harness was started to keep it.
    keeper: Option<StateKeeper>,
    _dir: Option<tempfile::TempDir>,
}

impl Harness {
    /// A server on `backend` with the default test settings.
    pub async fn start(backend: Backend) -> Self {
        Self::start_with(backend, &[]).await
    }

    /// A server on a new Postgres schema, or `None` (with a loud notice) when none is set.
    pub async fn start_postgres() -> Option<Self> {
        Self::start_postgres_with(&[]).await
    }

    /// [`Harness::start_postgres`] with extra configuration pairs.
    pub async fn start_postgres_with(extra: &[(&str, &str)]) -> Option<Self> {
        match std::env::var(POSTGRES_ENV) {
            Ok(url) => Some(Self::start_with(Backend::Postgres(url), extra).await),
            Err(_) => {
                announce_postgres_skipped();
                None
            }
        }
    }

    /// A server on `backend` with extra configuration pairs (they win over the defaults).
    pub async fn start_with(backend: Backend, extra: &[(&str, &str)]) -> Self {
        Self::start_composed(backend, extra, compose::EmulatorState::Off).await
    }

    /// [`Harness::beside`], with the emulator keeping its state where `serve` keeps it by
    /// default (`gateway-emulator.state` beside the SQLite file): a restarted demo.
    pub async fn beside_keeping_emulator_state(&self, extra: &[(&str, &str)]) -> Self {
        let mut pairs = vec![("DATABASE_URL", self.database_url.as_str())];
        pairs.extend_from_slice(extra);
        Self::start_keeping_emulator_state(self.backend.clone(), &pairs).await
    }

    /// [`Harness::start_with`], with the emulator keeping its state as `serve` does by default.
    pub async fn start_keeping_emulator_state(backend: Backend, extra: &[(&str, &str)]) -> Self {
        Self::start_composed(backend, extra, compose::EmulatorState::DataDirectory).await
    }

    async fn start_composed(
        backend: Backend,
        extra: &[(&str, &str)],
        emulator_state: compose::EmulatorState,
    ) -> Self {
        let shop = Shop::start().await;
        let (database_url, sqlite_path, dir, schema) = match &backend {
            Backend::Sqlite => {
                let dir = tempfile::tempdir().expect("temp dir");
                let path = dir.path().join("data").join("checkout.db");
                (
                    format!("sqlite://{}", path.display()),
                    Some(path),
                    Some(dir),
                    None,
                )
            }
            Backend::Postgres(url) => {
                let schema = format!("api_test_{}", uuid::Uuid::new_v4().simple());
                let admin = PgPool::connect(url).await.expect("postgres reachable");
                sqlx::query(&format!("CREATE SCHEMA {schema}"))
                    .execute(&admin)
                    .await
                    .expect("schema created");
                admin.close().await;
                let separator = if url.contains('?') { '&' } else { '?' };
                (
                    format!("{url}{separator}options[search_path]={schema}"),
                    None,
                    None,
                    Some(schema),
                )
            }
        };
        let success = shop.url("/success");
        let decline = shop.url("/declined");
        let mut pairs: Vec<(&str, &str)> = vec![
            ("LISTEN", "127.0.0.1:0"),
            ("DATABASE_URL", &database_url),
            ("MERCHANT_SECRET_KEY", MERCHANT_KEY),
            ("SECRETS_KEY", SECRETS_KEY),
            ("SUCCESS_URL", &success),
            ("DECLINE_URL", &decline),
            ("GATEWAY_TIMEOUT_MS", "5000"),
            // These suites test payments, not the card-testing defence: lift its limits.
            ("PAY_RATE_LIMIT_PER_SESSION", "10000"),
            ("PAY_RATE_LIMIT_PER_IP", "10000"),
            ("RISK_MAX_CARDS_PER_SESSION", "100000"),
            ("RISK_MAX_DECLINES_PER_SESSION", "100000"),
            ("RISK_MAX_DECLINES_PER_CARD", "100000"),
            ("RISK_MAX_CARDS_PER_ADDRESS", "100000"),
            ("RISK_MAX_CARDS_PER_CUSTOMER", "100000"),
            ("RISK_MAX_CARDS_PER_EMAIL", "100000"),
            ("RISK_ALERT_MIN_TRIES", "100000"),
            // One key for every instance a test starts on its database (and no key file in
            // the working directory for Postgres).
            ("CARD_FINGERPRINT_KEY", TEST_FINGERPRINT_KEY),
            // Tests run side by side: the dashboard and the demo shop on free ports.
            ("DASHBOARD_LISTEN", "127.0.0.1:0"),
            ("DEMO_LISTEN", "127.0.0.1:0"),
        ];
        pairs.retain(|(key, _)| !extra.iter().any(|(k, _)| k == key));
        pairs.extend_from_slice(extra);
        let mut config = Config::from_pairs(&pairs, &compose::emulator_defaults())
            .expect("test configuration is valid");
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let demo_listener = compose::bind_demo(&mut config)
            .await
            .expect("bind the demo shop");
        let demo = demo_listener.as_ref().map(|demo| demo.base.clone());
        let mut emulator = None;
        let mut demo_site = None;
        let mut keeper = None;
        let composed = config.clone();
        let persistence = compose::emulator_persistence(&config, &emulator_state)
            .expect("the emulator's state file opens");
        let server = Server::build(config, listener, |addresses| {
            let template = checkout_sandbox::SandboxConfig {
                persistence,
                ..fast_config()
            };
            let mut sandbox = compose::in_process(&composed, template, addresses, demo.as_deref());
            emulator = sandbox.as_ref().map(|sandbox| sandbox.state.clone());
            keeper = sandbox.as_mut().and_then(|sandbox| sandbox.keeper.take());
            let (mounts, site) = compose::mount(sandbox);
            demo_site = site;
            mounts
        })
        .await
        .expect("server builds");
        let demo_task = compose::serve_demo(demo_listener, demo_site);
        let base = server.base_url().to_owned();
        let ops = server
            .ops_address()
            .map(|address| format!("http://{address}"));
        let dashboard = server
            .dashboard_address()
            .map(|address| format!("http://{address}"));
        let state = server.state().clone();
        let dashboard_state = server.dashboard_state().cloned();
        let sandbox = emulator.unwrap_or_else(|| {
            checkout_sandbox::SandboxState::new(checkout_sandbox::SandboxConfig::default())
        });
        let (shutdown, stop) = oneshot::channel::<()>();
        let task = tokio::spawn(server.run(async move {
            let _ = stop.await;
        }));
        Self {
            base,
            ops,
            dashboard,
            state,
            dashboard_state,
            sandbox,
            shop,
            demo,
            demo_task,
            api: reqwest::Client::builder()
                .redirect(Policy::none())
                .build()
                .expect("client"),
            browser: reqwest::Client::builder().build().expect("client"),
            database_url,
            sqlite_path,
            backend,
            postgres_schema: schema,
            shutdown: Some(shutdown),
            task: Some(task),
            keeper,
            _dir: dir,
        }
    }

    /// Another server on this harness's database (as a restart, or a second instance, would
    /// open it), with `extra` configuration pairs.
    pub async fn beside(&self, extra: &[(&str, &str)]) -> Self {
        let mut pairs = vec![("DATABASE_URL", self.database_url.as_str())];
        pairs.extend_from_slice(extra);
        Self::start_with(self.backend.clone(), &pairs).await
    }

    /// Stops the server gracefully and waits until it has stopped (once; later calls do
    /// nothing).
    pub async fn stop(&mut self) {
        if let Some(demo) = self.demo_task.take() {
            demo.abort();
        }
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
        if let Some(task) = self.task.take() {
            let stopped = tokio::time::timeout(Duration::from_secs(10), task).await;
            assert!(
                matches!(stopped, Ok(Ok(Ok(())))),
                "server did not stop cleanly: {stopped:?}"
            );
        }
        if let Some(keeper) = self.keeper.take() {
            keeper
                .finish()
                .expect("the emulator's last changes are saved");
        }
    }

    /// Runs `sql` on the test's database directly, for a state no request can make (an
    /// issuer's later decline, a busy day in the past).
    pub async fn execute(&self, sql: &str) {
        if self.sqlite_path.is_some() {
            let pool = sqlx::SqlitePool::connect(&self.database_url)
                .await
                .expect("db");
            sqlx::query(sql).execute(&pool).await.expect("executed");
            pool.close().await;
        } else {
            let pool = sqlx::PgPool::connect(&self.database_url).await.expect("db");
            sqlx::query(sql).execute(&pool).await.expect("executed");
            pool.close().await;
        }
    }

    /// Stops the server (gracefully) and drops a Postgres schema.
    pub async fn finish(mut self) {
        self.stop().await;
        if let (Backend::Postgres(url), Some(schema)) = (&self.backend, &self.postgres_schema) {
            let admin = PgPool::connect(url).await.expect("postgres reachable");
            sqlx::query(&format!("DROP SCHEMA {schema} CASCADE"))
                .execute(&admin)
                .await
                .expect("schema dropped");
            admin.close().await;
        }
    }
}

fn announce_postgres_skipped() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "\n********************************************************************\n\
             SKIPPED: Postgres not configured: the API end-to-end suite ran on SQLite only.\n\
             Set {POSTGRES_ENV} to run it on Postgres too.\n\
             ********************************************************************"
        );
    });
}
