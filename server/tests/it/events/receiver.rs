//! A shop's webhook receiver for the delivery tests: axum on 127.0.0.1:0 that verifies every
//! request with the Standard Webhooks crate as a shop would (`Webhook::verify`: signature and
//! timestamp), records what came, and answers as told: fail the next requests, fail the events
//! of chosen objects, answer slowly. It counts the requests in flight per `webhook-id`, so a
//! test can tell that no event was ever being delivered twice at once.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use serde_json::Value;
use standardwebhooks::Webhook;
use tokio::task::JoinHandle;

/// One request as the receiver saw it.
#[derive(Debug, Clone)]
pub struct Received {
    /// `webhook-id`.
    pub id: String,
    /// The body's `type`.
    pub kind: String,
    /// The body's `data.object.id`.
    pub object_id: String,
    /// The whole body.
    pub body: Value,
    /// Whether the signature verified with the receiver's secret.
    pub verified: bool,
    /// What the receiver answered.
    pub status: u16,
    /// `user-agent`.
    pub user_agent: String,
    /// `content-type`.
    pub content_type: String,
    /// `webhook-signature`.
    pub signature: String,
}

#[derive(Default)]
struct Behaviour {
    /// Answer this many next requests with these statuses (first first).
    fail_next: Vec<u16>,
    /// Answer 500 to the events of these objects.
    fail_objects: HashSet<String>,
    /// Answer 500 to everything.
    fail_all: bool,
    /// Wait this long before answering.
    delay: Duration,
}

#[derive(Default)]
struct Shared {
    secrets: Mutex<Vec<String>>,
    behaviour: Mutex<Behaviour>,
    received: Mutex<Vec<Received>>,
    in_flight: Mutex<HashMap<String, usize>>,
    most_at_once: Mutex<usize>,
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A running receiver.
pub struct Receiver {
    /// `http://127.0.0.1:<port>`.
    pub base: String,
    /// The port.
    pub port: u16,
    shared: Arc<Shared>,
    task: JoinHandle<()>,
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Receiver {
    /// A receiver verifying with `secret` (`whsec_…`).
    pub async fn start(secret: &str) -> Self {
        let shared = Arc::new(Shared::default());
        lock(&shared.secrets).push(secret.to_owned());
        let app = Router::new()
            .route("/events", post(receive))
            .with_state(shared.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind the receiver");
        let port = listener.local_addr().expect("address").port();
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Self {
            base: format!("http://127.0.0.1:{port}"),
            port,
            shared,
            task,
        }
    }

    /// The URL events go to.
    pub fn url(&self) -> String {
        format!("{}/events", self.base)
    }

    /// Answers the next requests with `statuses`, one each.
    pub fn fail_next(&self, statuses: &[u16]) {
        lock(&self.shared.behaviour).fail_next = statuses.to_vec();
    }

    /// Answers 500 to the events of `object_id` (until [`Self::heal`]).
    pub fn fail_object(&self, object_id: &str) {
        lock(&self.shared.behaviour)
            .fail_objects
            .insert(object_id.to_owned());
    }

    /// Answers 500 to everything (until [`Self::heal`]).
    pub fn fail_all(&self) {
        lock(&self.shared.behaviour).fail_all = true;
    }

    /// Answers 200 again.
    pub fn heal(&self) {
        let mut behaviour = lock(&self.shared.behaviour);
        behaviour.fail_next.clear();
        behaviour.fail_objects.clear();
        behaviour.fail_all = false;
    }

    /// Waits `delay` before each answer.
    pub fn answer_after(&self, delay: Duration) {
        lock(&self.shared.behaviour).delay = delay;
    }

    /// Everything received so far, in order of arrival.
    pub fn received(&self) -> Vec<Received> {
        lock(&self.shared.received).clone()
    }

    /// The requests answered 2xx.
    pub fn accepted(&self) -> Vec<Received> {
        self.received()
            .into_iter()
            .filter(|r| (200..300).contains(&r.status))
            .collect()
    }

    /// The most requests with one `webhook-id` that were ever in flight at once.
    pub fn most_at_once(&self) -> usize {
        *lock(&self.shared.most_at_once)
    }
}

/// Decrements the in-flight count of an id when the handler ends (or is dropped).
struct InFlight {
    shared: Arc<Shared>,
    id: String,
}

impl Drop for InFlight {
    fn drop(&mut self) {
        let mut in_flight = lock(&self.shared.in_flight);
        if let Some(count) = in_flight.get_mut(&self.id) {
            *count = count.saturating_sub(1);
        }
    }
}

async fn receive(State(shared): State<Arc<Shared>>, headers: HeaderMap, body: Bytes) -> StatusCode {
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned()
    };
    let id = header("webhook-id");
    let _guard = {
        let mut in_flight = lock(&shared.in_flight);
        let count = in_flight.entry(id.clone()).or_insert(0);
        *count += 1;
        let mut most = lock(&shared.most_at_once);
        *most = (*most).max(*count);
        InFlight {
            shared: shared.clone(),
            id: id.clone(),
        }
    };
    let verified = lock(&shared.secrets).iter().any(|secret| {
        Webhook::new(secret)
            .map(|webhook| webhook.verify(&body, &headers).is_ok())
            .unwrap_or(false)
    });
    let json: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let object_id = json["data"]["object"]["id"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let (status, delay) = {
        let mut behaviour = lock(&shared.behaviour);
        let status = if !behaviour.fail_next.is_empty() {
            behaviour.fail_next.remove(0)
        } else if behaviour.fail_all || behaviour.fail_objects.contains(&object_id) {
            500
        } else if verified {
            200
        } else {
            401
        };
        (status, behaviour.delay)
    };
    if !delay.is_zero() {
        tokio::time::sleep(delay).await;
    }
    lock(&shared.received).push(Received {
        kind: json["type"].as_str().unwrap_or_default().to_owned(),
        id,
        object_id,
        body: json,
        verified,
        status,
        user_agent: header("user-agent"),
        content_type: header("content-type"),
        signature: header("webhook-signature"),
    });
    StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
}

/// Helpers the delivery scenarios share: endpoints made in the store, workers of their own
/// (with a clock to move), paid payments, passes until nothing is left to send.
pub mod support {
    use std::sync::Arc;
    use std::time::Duration;

    use checkout::contract::PaymentState;
    use checkout_server::events::client::ClientLimits;
    use checkout_server::events::deliver::Deliverer;
    use checkout_server::events::report::PassReport;
    use checkout_server::events::services::{DeliveryServices, DeliverySettings, lease_for};
    use checkout_server::store::Store;
    use checkout_server::store::prelude::*;
    use secrecy::SecretString;
    use serde_json::json;

    use crate::api::support::{Harness, TestSession, cards};

    /// An endpoint to `url` for `types` (all when empty), signing with `secret`; its id.
    pub async fn endpoint(h: &Harness, url: &str, types: &[&str], secret: &str) -> String {
        let event_types = if types.is_empty() {
            EventTypes::All
        } else {
            EventTypes::Only(types.iter().map(|t| (*t).to_owned()).collect())
        };
        let endpoint = h
            .store()
            .create_endpoint(NewEndpoint {
                id: format!("we_{}", uuid::Uuid::new_v4().simple()),
                url: url.to_owned(),
                description: None,
                event_types,
                secret: SecretString::from(secret.to_owned()),
            })
            .await
            .expect("endpoint created");
        endpoint.id
    }

    /// The settings of a test worker: passes every `interval`, leases of `lease`.
    pub fn settings(interval: Duration, lease: Option<time::Duration>) -> DeliverySettings {
        let limits = ClientLimits::default();
        DeliverySettings {
            interval,
            concurrency: 32,
            per_endpoint: 16,
            limits,
            lease: lease.unwrap_or_else(|| lease_for(&limits)),
        }
    }

    /// A worker over `store` leasing as `owner`.
    pub fn worker_on(
        h: &Harness,
        store: Arc<dyn Store>,
        owner: &str,
        allow_private: bool,
        settings: DeliverySettings,
    ) -> Deliverer {
        let services =
            DeliveryServices::with_settings(store, &h.state.config, settings, allow_private)
                .expect("client builds");
        Deliverer::new(services, owner)
    }

    /// A worker of the harness's server leasing as `owner`, driven by the test.
    pub fn worker(h: &Harness, owner: &str, allow_private: bool) -> Deliverer {
        worker_on(
            h,
            h.store().clone(),
            owner,
            allow_private,
            settings(Duration::from_secs(3_600), None),
        )
    }

    /// Passes until one claims nothing and fans out nothing; what they did together.
    pub async fn drain(worker: &Deliverer) -> PassReport {
        let mut total = PassReport::default();
        for _ in 0..50 {
            let pass = worker.run_once().await;
            let quiet = pass.claimed == 0 && pass.fanned_out == 0;
            total.fanned_out += pass.fanned_out;
            total.claimed += pass.claimed;
            total.delivered += pass.delivered;
            total.retried += pass.retried;
            total.failed += pass.failed;
            total.disabled += pass.disabled;
            total.unrecorded += pass.unrecorded;
            if quiet {
                return total;
            }
        }
        panic!("deliveries kept coming after 50 passes: {total:?}");
    }

    /// A session of `amount` JPY paid (captured) through the browser API and 3-D Secure.
    pub async fn paid(h: &Harness, amount: u64) -> (TestSession, Payment) {
        let session = h.session(amount, json!({})).await;
        let redirect = h.pay_to_redirect(&session, cards::VISA_OK).await;
        h.complete_3ds(&redirect, "approve").await;
        let payment = h.stored_payment(&session).await;
        assert_eq!(payment.state, PaymentState::Captured);
        (session, payment)
    }

    /// The ids of the events about `object_id`, oldest first.
    pub async fn event_ids(h: &Harness, object_id: &str) -> Vec<String> {
        h.store()
            .object_events(object_id)
            .await
            .expect("events")
            .into_iter()
            .map(|event| event.id)
            .collect()
    }

    /// `event_id`'s delivery to `endpoint_id`.
    pub async fn delivery(h: &Harness, event_id: &str, endpoint_id: &str) -> Delivery {
        h.store()
            .event_deliveries(event_id)
            .await
            .expect("deliveries")
            .into_iter()
            .find(|d| d.endpoint_id == endpoint_id)
            .unwrap_or_else(|| panic!("no delivery of {event_id} to {endpoint_id}"))
    }

    /// An endpoint's attempts, oldest first.
    pub async fn attempts(h: &Harness, endpoint_id: &str) -> Vec<DeliveryAttempt> {
        let mut attempts = h
            .store()
            .list_delivery_attempts(endpoint_id, 100, None)
            .await
            .expect("attempts");
        attempts.reverse();
        attempts
    }

    /// Time to wait for a background worker.
    pub const PATIENCE: Duration = Duration::from_secs(20);
}
