//! Shared helpers of the subscription, reconciler, protection and operations tests. They run
//! on the API harness (`api::support`: the whole server with the in-process emulator) with
//! the extra settings each file names in its `CONFIG`, and `ops_suite!` runs every scenario
//! on SQLite and, when `TEST_DATABASE_URL_POSTGRES` is set, on Postgres.

use std::sync::Arc;
use std::time::Duration;

use checkout_sandbox::faults::ArmedFault;
use checkout_sandbox::in_process::PREFIX as SANDBOX_PREFIX;
use checkout_sandbox::{DEFAULT_API_KEY, DEFAULT_X_API_KEY};
use checkout_server::gateway::{GatewayClient, GatewayConfig};
use checkout_server::reconcile::Reconciler;
use checkout_server::store::Store;
use checkout_server::web::AppState;
use secrecy::SecretString;
use serde_json::{Value, json};
use time::OffsetDateTime;

use crate::api::support::{Backend, Harness, Reply, TestSession, pay_body};
use crate::store::POSTGRES_ENV;

/// Runs each named scenario as `sqlite::<name>` and `postgres::<name>` on a harness started
/// with the calling file's `CONFIG` pairs.
macro_rules! ops_suite {
    ($($name:ident),+ $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
                async fn $name() {
                    let harness = crate::ops::support::start(crate::api::support::Backend::Sqlite, super::CONFIG).await;
                    super::$name(&harness).await;
                    harness.finish().await;
                }
            )+
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
                async fn $name() {
                    let Some(backend) = crate::ops::support::postgres() else { return };
                    let harness = crate::ops::support::start(backend, super::CONFIG).await;
                    super::$name(&harness).await;
                    harness.finish().await;
                }
            )+
        }
    };
}
pub(crate) use ops_suite;

/// Settings every suite here starts with: the background reconciler makes its first pass at
/// start and then stays quiet, so the tests drive passes themselves.
const QUIET_RECONCILER: (&str, &str) = ("RECONCILE_INTERVAL_SECONDS", "86400");

/// A harness with `extra` settings (and a quiet background reconciler).
pub async fn start(backend: Backend, extra: &[(&str, &str)]) -> Harness {
    let mut pairs = vec![QUIET_RECONCILER];
    pairs.retain(|(key, _)| !extra.iter().any(|(k, _)| k == key));
    pairs.extend_from_slice(extra);
    Harness::start_with(backend, &pairs).await
}

/// The Postgres backend, or `None` with a loud notice when none is configured.
pub fn postgres() -> Option<Backend> {
    match std::env::var(POSTGRES_ENV) {
        Ok(url) => Some(Backend::Postgres(url)),
        Err(_) => {
            static ONCE: std::sync::Once = std::sync::Once::new();
            ONCE.call_once(|| {
                use std::io::Write as _;
                let _ = writeln!(
                    std::io::stderr(),
                    "\n********************************************************************\n\
                     SKIPPED: Postgres not configured: the subscription, reconciler, protection\n\
                     and operations suites ran on SQLite only. Set {POSTGRES_ENV} to run them\n\
                     on Postgres too (scripts/postgres.sh starts one).\n\
                     ********************************************************************"
                );
            });
            None
        }
    }
}

/// A reference unique to one test.
pub fn unique(prefix: &str) -> String {
    format!(
        "{prefix}-{}",
        &uuid::Uuid::new_v4().simple().to_string()[..12]
    )
}

/// Arms `fault` (the `[ENDPOINT=]FAULT[*COUNT]` form) on the harness's emulator.
pub fn arm(h: &Harness, fault: &str) {
    let armed: ArmedFault = fault.parse().expect("a valid fault");
    h.sandbox.faults.arm(armed);
}

/// A reconciler of the harness's own server.
pub fn reconciler(h: &Harness) -> Reconciler {
    Reconciler::new(h.state.reconciler_services())
}

/// `now` plus `seconds`.
pub fn in_seconds(seconds: i64) -> OffsetDateTime {
    OffsetDateTime::now_utc() + time::Duration::seconds(seconds)
}

/// A second server instance's state on the same database and gateway (what another process
/// started with the same configuration would hold).
pub async fn second_instance(h: &Harness) -> AppState {
    let keys = h
        .state
        .config
        .secrets_key
        .key_ring(&h.database_url)
        .expect("the same key as the first instance");
    let store: Arc<dyn Store> = checkout_server::store::connect(&h.database_url, keys)
        .await
        .expect("second store opens");
    let mut config = GatewayConfig::new(
        format!("{}{SANDBOX_PREFIX}", h.base),
        SecretString::from(DEFAULT_API_KEY),
        SecretString::from(DEFAULT_X_API_KEY),
    );
    config.total_timeout = h.state.config.gateway.timeout;
    let gateway = GatewayClient::new(config).expect("gateway client");
    AppState::new(h.state.config.clone(), h.base.clone(), store, gateway)
}

/// A request on the customer self-service API with `token`.
pub fn customer(
    h: &Harness,
    method: reqwest::Method,
    path: &str,
    token: &str,
) -> reqwest::RequestBuilder {
    h.api
        .request(method, format!("{}{path}", h.base))
        .header("X-Customer-Token", token)
}

/// Sends `request` and reads the whole answer.
pub async fn send(request: reqwest::RequestBuilder) -> Reply {
    Reply::read(request.send().await.expect("request sent")).await
}

/// A customer token for `customer_id` from the merchant API.
pub async fn customer_token(h: &Harness, customer_id: &str) -> String {
    let reply = send(h.merchant(
        reqwest::Method::POST,
        &format!("/v1/customers/{customer_id}/tokens"),
    ))
    .await;
    assert_eq!(reply.status, 201, "{}", reply.text);
    assert_eq!(reply.json["customer_id"], customer_id);
    reply.json["token"].as_str().expect("token").to_owned()
}

/// A subscription as the merchant API shows it.
pub async fn merchant_subscription(h: &Harness, id: &str) -> Value {
    let reply = send(h.merchant(reqwest::Method::GET, &format!("/v1/subscriptions/{id}"))).await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    reply.json
}

/// `POST /v1/sessions` for a subscription of `customer_id` to `plan_id`: the answer as it is.
pub async fn create_subscription_session(h: &Harness, customer_id: &str, plan_id: &str) -> Reply {
    let body = json!({"reference": unique("sub"), "plan_id": plan_id, "customer_id": customer_id});
    send(
        h.merchant(reqwest::Method::POST, "/v1/sessions")
            .json(&body),
    )
    .await
}

/// A subscription session of `customer_id` to `plan_id`, which must be created.
pub async fn subscription_session(h: &Harness, customer_id: &str, plan_id: &str) -> TestSession {
    let reply = create_subscription_session(h, customer_id, plan_id).await;
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

/// Subscribes `customer_id` to `plan_id` through the merchant and browser APIs (a session of
/// kind subscription, paid with `card`); returns the session and the server's subscription id.
pub async fn subscribe(
    h: &Harness,
    customer_id: &str,
    plan_id: &str,
    card: &str,
) -> (TestSession, String) {
    let session = subscription_session(h, customer_id, plan_id).await;
    let paid = h.pay(&session, &pay_body(card, "123"), None).await;
    assert_eq!(paid.status, 200, "{}", paid.text);
    assert_eq!(paid.json["next_action"], "none", "{}", paid.text);
    assert_eq!(paid.json["result"]["state"], "captured", "{}", paid.text);
    let subscription_id = paid.json["result"]["subscription_id"]
        .as_str()
        .unwrap_or_else(|| panic!("no subscription id in {}", paid.text))
        .to_owned();
    (session, subscription_id)
}

/// Moves the emulator's clock by `days` and bills what fell due, as the gateway would in the
/// background (the control API's `POST /sandbox/clock/advance`).
pub fn advance_gateway_clock(h: &Harness, days: i64) {
    h.sandbox.clock.advance(time::Duration::days(days));
    checkout_sandbox::billing::bill_due(&h.sandbox);
}

/// A `GET` of the emulator's subscription endpoint `path` (under the gateway's API prefix),
/// which must answer 200: its `subscription_details`.
async fn gateway_subscription_read(h: &Harness, path: &str) -> Value {
    let url = format!(
        "{}{SANDBOX_PREFIX}/api/v1/server-to-server-interface/{path}",
        h.base
    );
    let reply = send(
        h.api
            .get(url)
            .header("Authorization", crate::sandbox::support::basic_default())
            .header("x-api-key", DEFAULT_X_API_KEY),
    )
    .await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    reply.json["subscription_details"].clone()
}

/// The status the emulator holds for a gateway subscription id.
pub async fn gateway_subscription_status(h: &Harness, gateway_id: &str) -> String {
    let details = gateway_subscription_read(h, &format!("subscription/{gateway_id}")).await;
    details["status"].as_str().expect("status").to_owned()
}

/// The emulator's whole subscription list (the gateway's `GET /subscription/list`).
pub async fn gateway_subscriptions(h: &Harness) -> Vec<Value> {
    let list = gateway_subscription_read(h, "subscription/list").await;
    list.as_array().cloned().expect("a list")
}

/// The events of `object_id` as the shop receives them (`GET /v1/events`), oldest first.
pub async fn object_events(h: &Harness, object_id: &str) -> Vec<Value> {
    let reply = send(h.merchant(
        reqwest::Method::GET,
        &format!("/v1/events?object_id={object_id}&limit=100"),
    ))
    .await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    let mut data = reply.json["data"].as_array().cloned().expect("data");
    data.reverse();
    data
}

/// The types of [`object_events`].
pub async fn event_kinds(h: &Harness, object_id: &str) -> Vec<String> {
    object_events(h, object_id)
        .await
        .iter()
        .filter_map(|event| event["type"].as_str().map(str::to_owned))
        .collect()
}

/// Waits for the reconciler's pass at start to have compared the gateway's list (its last
/// step but the card-testing review), so a test's own passes are the ones that find what it
/// sets up.
pub async fn after_the_startup_pass(h: &Harness) {
    wait_until(
        "the reconciler's pass at start",
        Duration::from_secs(20),
        || async {
            let (last, _) = h.store().list_check_status().await.expect("status");
            last.ran_at.is_some()
        },
    )
    .await;
}

/// Waits up to `timeout` for `check` to hold, polling every 20 ms.
pub async fn wait_until<F, Fut>(what: &str, timeout: Duration, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = tokio::time::Instant::now() + timeout;
    while !check().await {
        assert!(
            tokio::time::Instant::now() < deadline,
            "timed out waiting for {what}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
