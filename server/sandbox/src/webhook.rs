//! Webhook delivery: a background task per notification that posts the 3DS outcome to the
//! merchant's `webhook_url` and retries on connection errors, timeouts and non-2xx answers on
//! the configured exponential schedule ([`WebhookRetry`](super::config::WebhookRetry)).
//! Every delivery is logged (state dump) so tests can see attempts and outcomes.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use axum::body::Bytes;
use reqwest::header::CONTENT_TYPE;
use serde::Serialize;

use super::config::WebhookRetry;
use super::faults::Fault;
use checkout::wire::TransactionResponse;

/// How one delivery stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DeliveryState {
    /// Attempts are still being made.
    Pending,
    /// A 2xx answer was received.
    Delivered,
    /// Every attempt failed.
    Failed,
    /// Not sent: a `drop-webhook` fault.
    Dropped,
}

/// One notification to one URL (a duplicated webhook is two deliveries).
#[derive(Debug, Clone, Serialize)]
pub struct WebhookDelivery {
    /// Sequence number of the delivery.
    pub id: usize,
    /// The transaction it reports.
    pub transaction_id: String,
    /// Where it goes.
    pub url: String,
    /// Attempts made so far.
    pub attempts: u32,
    /// Pending, delivered, failed or dropped.
    pub state: DeliveryState,
    /// Why the last attempt failed (`HTTP 503`, `connection refused`).
    pub last_error: Option<String>,
}

/// Sends webhooks and remembers what happened to them. Clones share the log.
#[derive(Debug, Clone)]
pub struct WebhookSender {
    client: reqwest::Client,
    log: Arc<Mutex<Vec<WebhookDelivery>>>,
}

impl Default for WebhookSender {
    fn default() -> Self {
        let client = reqwest::Client::builder()
            .user_agent("checkout-sandbox-webhook/1")
            .build()
            // Building only fails when the TLS backend cannot start; the plain client then
            // reports the same problem on every attempt, which the log shows.
            .unwrap_or_default();
        Self {
            client,
            log: Arc::new(Mutex::new(Vec::new())),
        }
    }
}

impl WebhookSender {
    /// Schedules `body` for `url` on the `retry` schedule, applying `faults` (the call's
    /// webhook faults and the armed ones): `drop-webhook` logs a dropped delivery and sends
    /// nothing, `duplicate-webhook` delivers twice. Returns at once; delivery runs on a
    /// background task.
    pub fn send(
        &self,
        retry: WebhookRetry,
        url: &str,
        body: &TransactionResponse,
        faults: Vec<Fault>,
    ) {
        let transaction_id = body.transaction_id().unwrap_or_default().to_owned();
        if faults.contains(&Fault::DropWebhook) {
            let id = self.open(&transaction_id, url, DeliveryState::Dropped);
            tracing::info!(
                delivery = id,
                transaction_id,
                "sandbox webhook dropped by fault injection"
            );
            return;
        }
        let payload = match serde_json::to_vec(body) {
            Ok(payload) => Bytes::from(payload),
            Err(error) => {
                tracing::error!(%error, "could not serialise a webhook body");
                return;
            }
        };
        let copies = if faults.contains(&Fault::DuplicateWebhook) {
            2
        } else {
            1
        };
        for _ in 0..copies {
            let id = self.open(&transaction_id, url, DeliveryState::Pending);
            let sender = self.clone();
            let url = url.to_owned();
            let payload = payload.clone();
            tokio::spawn(async move { deliver(sender, retry, id, url, payload).await });
        }
    }

    /// Every delivery so far, oldest first.
    pub fn deliveries(&self) -> Vec<WebhookDelivery> {
        self.lock().clone()
    }

    fn open(&self, transaction_id: &str, url: &str, state: DeliveryState) -> usize {
        let mut log = self.lock();
        let id = log.len();
        log.push(WebhookDelivery {
            id,
            transaction_id: transaction_id.to_owned(),
            url: url.to_owned(),
            attempts: 0,
            state,
            last_error: None,
        });
        id
    }

    fn note(&self, id: usize, attempts: u32, state: DeliveryState, last_error: Option<String>) {
        if let Some(entry) = self.lock().get_mut(id) {
            entry.attempts = attempts;
            entry.state = state;
            entry.last_error = last_error;
        }
    }

    fn lock(&self) -> MutexGuard<'_, Vec<WebhookDelivery>> {
        // Appends and single-entry edits only: a poisoned log is still consistent.
        self.log.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Attempts delivery on the retry schedule until a 2xx or the attempts run out.
async fn deliver(
    sender: WebhookSender,
    retry: WebhookRetry,
    id: usize,
    url: String,
    payload: Bytes,
) {
    let mut last_error = None;
    for attempt in 1..=retry.max_attempts.max(1) {
        tokio::time::sleep(retry.delay_before(attempt)).await;
        let result = sender
            .client
            .post(&url)
            .header(CONTENT_TYPE, "application/json")
            .timeout(retry.attempt_timeout)
            .body(payload.clone())
            .send()
            .await;
        match result {
            Ok(response) if response.status().is_success() => {
                sender.note(id, attempt, DeliveryState::Delivered, None);
                tracing::debug!(delivery = id, attempt, "sandbox webhook delivered");
                return;
            }
            Ok(response) => last_error = Some(format!("HTTP {}", response.status().as_u16())),
            Err(error) => last_error = Some(describe(&error)),
        }
        sender.note(id, attempt, DeliveryState::Pending, last_error.clone());
        tracing::debug!(delivery = id, attempt, error = ?last_error, "sandbox webhook attempt failed");
    }
    sender.note(
        id,
        retry.max_attempts.max(1),
        DeliveryState::Failed,
        last_error,
    );
    tracing::warn!(delivery = id, "sandbox webhook gave up after every attempt");
}

fn describe(error: &reqwest::Error) -> String {
    if error.is_timeout() {
        "timed out".to_owned()
    } else if error.is_connect() {
        "connection failed".to_owned()
    } else {
        "request failed".to_owned()
    }
}
