//! Shared helpers of the checkout-server end-to-end tests: the whole server (with the
//! in-process emulator mounted under `/_sandbox`, and the demo shop on a second listener) on
//! 127.0.0.1:0 over a fresh SQLite file or Postgres schema, a tiny "shop" that receives the final landing redirects, a merchant
//! client, a browser-like client that follows redirects and submits the ACS form, and
//! request bodies.
//!
//! `api_suite!` runs each scenario twice: `sqlite::<name>` and `postgres::<name>` (the latter
//! only when `TEST_DATABASE_URL_POSTGRES` is set; otherwise it prints a loud SKIPPED notice).

use std::future::Future;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::{RawQuery, State};
use axum::routing::get;
use checkout_sandbox::SandboxState;
use checkout_sandbox::keeper::StateKeeper;
use checkout_sandbox::ledger::RecordKind;
use checkout_server::config::Config;
use checkout_server::serve::Server;
use checkout_server::store::prelude::*;
use checkout_server::web::AppState;
use reqwest::redirect::Policy;
use serde_json::{Value, json};
use sqlx::postgres::PgPool;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use crate::compose;
use crate::sandbox::support::{AcsForm, fast_config};
use crate::store::POSTGRES_ENV;

/// Runs each named scenario as `sqlite::<name>` and `postgres::<name>`.
macro_rules! api_suite {
    ($($name:ident),+ $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    let harness = crate::api::support::Harness::start(crate::api::support::Backend::Sqlite).await;
                    super::$name(&harness).await;
                    harness.finish().await;
                }
            )+
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    let Some(harness) = crate::api::support::Harness::start_postgres().await else { return };
                    super::$name(&harness).await;
                    harness.finish().await;
                }
            )+
        }
    };
}
pub(crate) use api_suite;

/// The merchant key every test server uses.
pub const MERCHANT_KEY: &str = "sk_test_0123456789abcdef";
/// The key sealing the test server's secrets at rest (`SECRETS_KEY`), fixed so a command run
/// beside the server (`users reset-2fa`) opens them too.
pub const SECRETS_KEY: &str = "it:2b7e151628aed2a6abf7158809cf4f3c2b7e151628aed2a6abf7158809cf4f3c";
/// A real gateway nobody answers at (port 9, discard, on loopback: connections are refused at
/// once) with the credentials a real gateway needs; the keys it also needs come with every
/// test server.
pub const UNREACHABLE_GATEWAY: [(&str, &str); 4] = [
    ("GATEWAY_BASE_URL", "http://127.0.0.1:9"),
    ("GATEWAY_API_KEY", "live-key"),
    ("GATEWAY_X_API_KEY", "live-x-key"),
    ("GATEWAY_MERCHANT_ID", "merchant-1"),
];

/// The card fingerprint key every test server uses (`CARD_FINGERPRINT_KEY`).
pub const TEST_FINGERPRINT_KEY: &str =
    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

/// Test cards (docs/sandbox.md).
pub mod cards {
    /// Visa, approved; frictionless on 3DS.
    pub const VISA_OK: &str = "4242424242424242";
    /// 3DS challenge (the vendor's sample).
    pub const CHALLENGE: &str = "4000002500003155";
    /// 3DS frictionless.
    pub const FRICTIONLESS: &str = "4000000000001000";
    /// Declined 5, do not honour.
    pub const DO_NOT_HONOUR: &str = "4000000000000002";
    /// Declined 51, insufficient funds.
    pub const INSUFFICIENT_FUNDS: &str = "4000000000009995";
    /// Declined 54, expired card.
    pub const EXPIRED: &str = "4000000000000069";
    /// Declined 43, lost or stolen.
    pub const LOST_OR_STOLEN: &str = "4000000000009987";
    /// Declined 91, issuer unavailable.
    pub const ISSUER_UNAVAILABLE: &str = "4000000000000119";
}

/// Which database a harness runs on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Backend {
    /// A SQLite file in a temporary directory.
    Sqlite,
    /// A fresh schema in the database `TEST_DATABASE_URL_POSTGRES` names.
    Postgres(String),
}

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

    /// The store behind the server.
    pub fn store(&self) -> &std::sync::Arc<dyn Store> {
        &self.state.store
    }

    /// A merchant request with the bearer key.
    pub fn merchant(&self, method: reqwest::Method, path: &str) -> reqwest::RequestBuilder {
        self.api
            .request(method, format!("{}{path}", self.base))
            .bearer_auth(MERCHANT_KEY)
    }

    /// Creates a session (201 expected) for `amount` JPY with a unique reference; `extra`
    /// fields are merged into the body.
    pub async fn session(&self, amount: u64, extra: Value) -> TestSession {
        let reference = format!("order-{}", &uuid::Uuid::new_v4().simple().to_string()[..12]);
        let mut body = json!({"amount": amount, "currency": "JPY", "reference": reference});
        if let (Some(body), Some(extra)) = (body.as_object_mut(), extra.as_object()) {
            body.extend(extra.clone());
        }
        let reply = Reply::read(
            self.merchant(reqwest::Method::POST, "/v1/sessions")
                .json(&body)
                .send()
                .await
                .expect("sent"),
        )
        .await;
        assert_eq!(reply.status, 201, "{}", reply.text);
        TestSession {
            id: reply.json["id"].as_str().expect("id").to_owned(),
            secret: reply.json["client_secret"]
                .as_str()
                .expect("secret")
                .to_owned(),
            reference: reply.json["reference"]
                .as_str()
                .expect("reference")
                .to_owned(),
        }
    }

    /// A browser call on `session`'s API with its client secret.
    pub fn checkout(
        &self,
        method: reqwest::Method,
        session: &TestSession,
        suffix: &str,
    ) -> reqwest::RequestBuilder {
        self.api
            .request(
                method,
                format!("{}/v1/checkout/{}{suffix}", self.base, session.id),
            )
            .header("X-Client-Secret", &session.secret)
    }

    /// `POST .../pay` with `body` and an optional `Idempotency-Key`.
    pub async fn pay(&self, session: &TestSession, body: &Value, key: Option<&str>) -> Reply {
        let mut request = self
            .checkout(reqwest::Method::POST, session, "/pay")
            .json(body);
        if let Some(key) = key {
            request = request.header("Idempotency-Key", key);
        }
        Reply::read(request.send().await.expect("sent")).await
    }

    /// `GET /v1/checkout/{id}`: the session's view as the card form reads it.
    pub async fn view(&self, session: &TestSession) -> Value {
        self.checkout_json(session, "").await
    }

    /// `GET .../result`.
    pub async fn result(&self, session: &TestSession) -> Value {
        self.checkout_json(session, "/result").await
    }

    /// A `GET` of the browser API under the session's path (`suffix` after its id), which
    /// must answer 200.
    async fn checkout_json(&self, session: &TestSession, suffix: &str) -> Value {
        let reply = Reply::read(
            self.checkout(reqwest::Method::GET, session, suffix)
                .send()
                .await
                .expect("sent"),
        )
        .await;
        assert_eq!(reply.status, 200, "{}", reply.text);
        reply.json
    }

    /// Pays with `number` and expects the 3DS redirect; returns its URL.
    pub async fn pay_to_redirect(&self, session: &TestSession, number: &str) -> String {
        let reply = self.pay(session, &pay_body(number, "123"), None).await;
        assert_eq!(reply.status, 200, "{}", reply.text);
        assert_eq!(reply.json["next_action"], "redirect", "{}", reply.text);
        reply.json["redirect_url"]
            .as_str()
            .expect("redirect_url")
            .to_owned()
    }

    /// Walks a browser through 3DS: opens `redirect_url`, submits the ACS form with
    /// `decision` when a challenge is shown, follows every redirect and returns the URL it
    /// lands on (the shop's page).
    pub async fn complete_3ds(&self, redirect_url: &str, decision: &str) -> reqwest::Url {
        let page = self
            .browser
            .get(redirect_url)
            .send()
            .await
            .expect("ACS reachable");
        if page.url().as_str().starts_with(&self.shop.base) {
            return page.url().clone();
        }
        assert_eq!(page.status(), 200, "ACS page");
        let html = page.text().await.expect("ACS html");
        let landed = AcsForm::parse(&html).submit(&self.browser, decision).await;
        let url = landed.url().clone();
        assert!(url.as_str().starts_with(&self.shop.base), "landed on {url}");
        assert_eq!(landed.status(), 200);
        url
    }

    /// Transactions the emulator recorded for `reference` that charge or reserve money.
    pub fn gateway_charges(&self, reference: &str) -> usize {
        self.sandbox
            .ledger
            .all()
            .iter()
            .filter(|r| of_session(&r.merchant.merchant_txn_ref, reference))
            .filter(|r| matches!(r.kind, RecordKind::Purchase | RecordKind::Authorization))
            .count()
    }

    /// Transactions of any kind the emulator recorded for `reference`.
    pub fn gateway_records(&self, reference: &str, kind: RecordKind) -> usize {
        self.sandbox
            .ledger
            .all()
            .iter()
            .filter(|r| of_session(&r.merchant.merchant_txn_ref, reference) && r.kind == kind)
            .count()
    }

    /// The merchant view of payment `id`.
    pub async fn payment(&self, id: &str) -> Value {
        let reply = Reply::read(
            self.merchant(reqwest::Method::GET, &format!("/v1/payments/{id}"))
                .send()
                .await
                .expect("sent"),
        )
        .await;
        assert_eq!(reply.status, 200, "{}", reply.text);
        reply.json
    }

    /// Every payment of `session` as stored, newest first.
    pub async fn stored_payments(&self, session: &TestSession) -> Vec<Payment> {
        self.state
            .payments
            .session_payments(&session.id, 50)
            .await
            .expect("payments")
            .items
    }

    /// The payment (store record) of a session, newest first.
    pub async fn stored_payment(&self, session: &TestSession) -> Payment {
        let page = self
            .store()
            .list_payments(PaymentQuery {
                session_id: Some(session.id.clone()),
                limit: 1,
                ..PaymentQuery::default()
            })
            .await
            .expect("list");
        page.items.into_iter().next().expect("a payment")
    }
}

/// Whether the gateway's `merchant_txn_ref` is an attempt of the session whose reference is
/// `reference`: the reference with `-<attempt number>` appended (issue 45).
pub fn of_session(merchant_txn_ref: &str, reference: &str) -> bool {
    merchant_txn_ref
        .strip_prefix(reference)
        .and_then(|rest| rest.strip_prefix('-'))
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// A session as the shop backend holds it.
#[derive(Debug, Clone)]
pub struct TestSession {
    pub id: String,
    pub secret: String,
    pub reference: String,
}

/// An HTTP answer: status, headers, text and (when it parses) JSON.
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub headers: reqwest::header::HeaderMap,
    pub text: String,
    pub json: Value,
}

impl Reply {
    /// Reads `response` whole.
    pub async fn read(response: reqwest::Response) -> Self {
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let text = response.text().await.expect("body");
        let json = serde_json::from_str(&text).unwrap_or(Value::Null);
        Self {
            status,
            headers,
            text,
            json,
        }
    }

    /// Asserts a contract error with `status`, `code` and `field`.
    pub fn assert_error(&self, status: u16, code: &str, field: Option<&str>) {
        assert_eq!(self.status, status, "{}", self.text);
        assert_eq!(self.json["error"]["code"], code, "{}", self.text);
        assert_eq!(self.json["error"]["field"].as_str(), field, "{}", self.text);
        assert!(
            self.json["error"]["message"]
                .as_str()
                .is_some_and(|m| !m.is_empty()),
            "{}",
            self.text
        );
    }
}

/// A pay body with a new card, browser data and the billing fields the form asks for.
pub fn pay_body(number: &str, cvc: &str) -> Value {
    json!({
        "card": {"number": number, "expiry_month": "12", "expiry_year": "2030", "cvc": cvc, "name": "Jane Doe"},
        "billing_address": {"country": "JP", "postal_code": "100-0001"},
        "browser_info": browser_info(),
        "save_card": false
    })
}

/// The component's browser data.
pub fn browser_info() -> Value {
    json!({
        "screen_width": 1440, "screen_height": 900, "color_depth": 24, "java_enabled": false,
        "language": "ja-JP", "user_agent": "Mozilla/5.0 (test)", "time_zone": "Asia/Tokyo",
        "time_zone_offset_minutes": -540, "challenge_window": "05"
    })
}

/// Polls `check` every 20 ms until it yields `Some`, or panics after `timeout`.
pub async fn eventually<T, F, Fut>(what: &str, timeout: Duration, mut check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Option<T>>,
{
    let deadline = tokio::time::Instant::now() + timeout;
    loop {
        if let Some(value) = check().await {
            return value;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "timed out waiting for {what}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The shop's landing pages: answer 200 and remember the query they were given.
pub struct Shop {
    pub base: String,
    pub visits: Arc<Mutex<Vec<String>>>,
    task: JoinHandle<()>,
}

impl Shop {
    async fn start() -> Self {
        let visits = Arc::new(Mutex::new(Vec::new()));
        let app = Router::new()
            .route("/{page}", get(visit))
            .with_state(visits.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind shop");
        let address: SocketAddr = listener.local_addr().expect("shop address");
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Self {
            base: format!("http://{address}"),
            visits,
            task,
        }
    }

    /// `base + path`.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }
}

impl Drop for Shop {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn visit(
    State(visits): State<Arc<Mutex<Vec<String>>>>,
    RawQuery(query): RawQuery,
) -> &'static str {
    visits
        .lock()
        .expect("visits")
        .push(query.unwrap_or_default());
    "thank you"
}

/// Query parameter `name` of `url`.
pub fn param(url: &reqwest::Url, name: &str) -> Option<String> {
    url.query_pairs()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.into_owned())
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
