//! Several `checkout-server serve` processes on one database deliver the shop's events
//! together, and a SIGKILLed one loses none: its in-flight deliveries are taken over by the
//! others once their leases run out.
//!
//! The events (saved cards, one per customer) are written through the store, as the server's
//! own writes would; the endpoint answers slowly, so the first instance is killed holding
//! deliveries in flight. Two more instances then share the rest. The receiver verifies every
//! signature (standardwebhooks crate) and counts the requests in flight per `webhook-id`:
//! never two at once for one event, and every event answered at least once. The database is
//! PostgreSQL when `TEST_DATABASE_URL_POSTGRES` is set (a schema of its own), SQLite otherwise.
//! No browser.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use checkout_server::store::Store;
use checkout_server::store::prelude::*;
use checkout_server::store::sealed::{KeyRing, SecretsKey};
use checkout_server::webhook_rules::secret::new_secret;
use secrecy::{ExposeSecret as _, SecretString};

use crate::support::server::{Process, SECRETS_KEY, ServeOptions};

/// Events written before the instances start.
const EVENTS: usize = 40;
/// How long the endpoint takes to answer.
const ANSWER_AFTER: Duration = Duration::from_millis(600);
/// `WEBHOOK_TIMEOUT_SECONDS`: the lease is twice that and 10 s.
const TIMEOUT_SECONDS: u64 = 1;

/// What the endpoint saw.
#[derive(Default)]
struct Seen {
    in_flight: HashMap<String, usize>,
    /// Event ids that were being delivered twice at once.
    overlapping: HashSet<String>,
    answered: HashSet<String>,
    requests: usize,
    refused: usize,
}

type Shared = (Arc<Mutex<Seen>>, Arc<String>);

async fn receive(
    State((seen, secret)): State<Shared>,
    headers: HeaderMap,
    body: Bytes,
) -> StatusCode {
    let verified = standardwebhooks::Webhook::new(&secret)
        .map(|webhook| webhook.verify(&body, &headers).is_ok())
        .unwrap_or(false);
    let id = headers
        .get("webhook-id")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    {
        let mut seen = seen.lock().expect("seen");
        seen.requests += 1;
        if !verified {
            seen.refused += 1;
            return StatusCode::UNAUTHORIZED;
        }
        let count = seen.in_flight.entry(id.clone()).or_insert(0);
        *count += 1;
        if *count > 1 {
            seen.overlapping.insert(id.clone());
        }
    }
    let request = InFlight { seen, id };
    tokio::time::sleep(ANSWER_AFTER).await;
    request
        .seen
        .lock()
        .expect("seen")
        .answered
        .insert(request.id.clone());
    StatusCode::NO_CONTENT
}

/// A request being answered; no longer in flight once dropped, also when its connection
/// closes first (the killed instance's requests end that way, unanswered).
struct InFlight {
    seen: Arc<Mutex<Seen>>,
    id: String,
}

impl Drop for InFlight {
    fn drop(&mut self) {
        let mut seen = self
            .seen
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(count) = seen.in_flight.get_mut(&self.id) {
            *count -= 1;
        }
    }
}

/// A database for this test alone: `(DATABASE_URL, what it is)`.
async fn fresh_database(dir: &std::path::Path) -> (String, &'static str) {
    let Ok(url) = std::env::var("TEST_DATABASE_URL_POSTGRES") else {
        let path = dir.join("shared.db");
        return (path.display().to_string(), "SQLite");
    };
    let schema = format!("e2e_{}", uuid::Uuid::new_v4().simple());
    let pool = sqlx::PgPool::connect(&url).await.expect("PostgreSQL");
    sqlx::query(&format!("CREATE SCHEMA {schema}"))
        .execute(&pool)
        .await
        .expect("schema");
    pool.close().await;
    let separator = if url.contains('?') { '&' } else { '?' };
    (
        format!("{url}{separator}options[search_path]={schema}"),
        "PostgreSQL",
    )
}

fn instance(database_url: &str) -> Process {
    Process::serve(ServeOptions {
        // A real gateway address (nothing calls it: no payment is made), so no demo shop
        // registers an endpoint of its own; events then need WEBHOOK_ALLOW_PRIVATE for the
        // loopback receiver.
        gateway: Some("http://127.0.0.1:9".to_owned()),
        env: vec![
            ("DATABASE_URL".into(), database_url.to_owned()),
            ("WEBHOOK_ALLOW_PRIVATE".into(), "true".into()),
            (
                "WEBHOOK_TIMEOUT_SECONDS".into(),
                TIMEOUT_SECONDS.to_string(),
            ),
            ("WEBHOOK_DELIVERY_INTERVAL_MS".into(), "50".into()),
        ],
    })
}

async fn wait_for(what: &str, timeout: Duration, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + timeout;
    while !done() {
        assert!(Instant::now() < deadline, "{what}: not within {timeout:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "end-to-end: run by scripts/test.sh"]
async fn a_killed_instances_deliveries_are_taken_over_and_none_is_sent_twice_at_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (database_url, backend) = fresh_database(dir.path()).await;
    println!("killed instance: on {backend}");

    let secret = new_secret();
    let seen = Arc::new(Mutex::new(Seen::default()));
    let app = Router::new()
        .route("/events", post(receive))
        .with_state((seen.clone(), Arc::new(secret.expose_secret().to_owned())));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind the receiver");
    let port = listener.local_addr().expect("address").port();
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });

    let key = SecretsKey::parse(SECRETS_KEY).expect("the e2e key");
    let keys = Arc::new(KeyRing::new(key, Vec::new()).expect("a ring"));
    let store: Arc<dyn Store> = checkout_server::store::connect(&database_url, keys)
        .await
        .expect("store opens");
    store
        .create_endpoint(NewEndpoint {
            id: "we_instances".to_owned(),
            url: format!("http://127.0.0.1:{port}/events"),
            description: None,
            event_types: EventTypes::All,
            secret,
        })
        .await
        .expect("endpoint");
    for n in 0..EVENTS {
        store
            .save_card(NewSavedCard {
                customer_id: format!("instances-customer-{n}"),
                gateway_token: SecretString::from(format!("tok_{n}")),
                brand: checkout::card::Brand::Visa,
                last4: Last4::new("4242").expect("last4"),
                expiry_month: 12,
                expiry_year: 2039,
                card_fingerprint: None,
                saved_from: None,
            })
            .await
            .expect("card saved");
    }

    // The first instance starts sending, and is killed with requests in flight.
    let mut first = instance(&database_url);
    let in_flight = || seen.lock().expect("seen").in_flight.values().sum::<usize>();
    wait_for(
        "the first instance sending",
        Duration::from_secs(30),
        || in_flight() >= 4,
    )
    .await;
    first.kill();
    let killed_at = Instant::now();
    let held: usize = seen.lock().expect("seen").in_flight.values().sum();

    // Two more share what is left, and the killed one's deliveries once their leases end.
    let second = instance(&database_url);
    let third = instance(&database_url);
    let lease = Duration::from_secs(2 * TIMEOUT_SECONDS + 10);
    // The killed instance's deliveries stay pending (its requests were answered, but it
    // never recorded them) until their leases run out and another instance sends them again.
    let deadline = Instant::now() + lease + Duration::from_secs(30);
    while store
        .oldest_pending_delivery()
        .await
        .expect("read")
        .is_some()
    {
        assert!(Instant::now() < deadline, "deliveries still pending");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let taken_over = killed_at.elapsed();
    wait_for("every event answered", Duration::from_secs(5), || {
        seen.lock().expect("seen").answered.len() == EVENTS
    })
    .await;

    store.close().await;
    let seen = seen.lock().expect("seen");
    assert_eq!(seen.refused, 0, "every signature verifies");
    assert!(
        seen.overlapping.is_empty(),
        "events delivered twice at once: {:?}",
        seen.overlapping
    );
    assert!(
        taken_over >= lease - Duration::from_secs(1),
        "the killed instance's {held} deliveries were taken over after {taken_over:?}, before \
         their lease ({lease:?}) ran out"
    );
    println!(
        "killed instance: {EVENTS} events, {} requests; {held} in flight at the kill, all \
         delivered {:.1} s after it (lease {} s)",
        seen.requests,
        taken_over.as_secs_f64(),
        lease.as_secs()
    );
    for instance in [&second, &third] {
        let log = instance.log_text();
        assert!(
            log.contains("event delivery started"),
            "an instance's worker never started:\n{log}"
        );
    }
}
