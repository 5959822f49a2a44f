//! One delivery, sent: the event rendered as the merchant API's object, signed (Standard
//! Webhooks, the system's time), posted, its attempt recorded with the next step
//! ([`backoff`]), and an endpoint that has failed every attempt for days disabled.

use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use time::OffsetDateTime;

use super::Deliverer;
use crate::events::client::Answer;
use crate::events::report::PassReport;
use crate::events::{backoff, render, sign};
use crate::metrics::events::{self as metric, Outcome};
use crate::store::model::{
    DeliveryOutcome, DueDelivery, EndpointStatus, EndpointUpdate, FinishedAttempt,
    NewDeliveryAttempt,
};

impl Deliverer {
    /// Sends one delivery and records the attempt; the report counts what became of it.
    pub(super) async fn deliver(&self, due: DueDelivery) -> PassReport {
        let services = self.services();
        let mut report = PassReport::default();
        let body = render(&due.event, &services.plans)
            .map_err(|error| format!("the event cannot be rendered: {error}"))
            .and_then(|body| {
                serde_json::to_vec(&body)
                    .map_err(|error| format!("the event cannot be serialised: {error}"))
            });
        let attempted_at = services.clock.now();
        let (answer, unsendable) = match body {
            Ok(body) => (self.send(&due, body).await, false),
            // A snapshot that cannot be read now never will be: give up at once.
            Err(reason) => (Answer::failed(reason), true),
        };
        let delivered = answer.delivered();
        let outcome = if delivered {
            DeliveryOutcome::Delivered
        } else if unsendable {
            DeliveryOutcome::GiveUp
        } else {
            backoff::after_failure(
                due.attempts.saturating_add(1),
                due.created_at,
                attempted_at,
                backoff::jitter(),
            )
        };
        let attempt = NewDeliveryAttempt {
            attempted_at,
            duration_us: i64::try_from(answer.duration.as_micros()).unwrap_or(i64::MAX),
            status_code: answer.status,
            error: answer.error.clone(),
        };
        let recorded = self
            .record(FinishedAttempt {
                endpoint_id: due.endpoint_id.clone(),
                event_seq: due.event.seq,
                attempt,
                outcome,
            })
            .await;
        let counted = match outcome {
            DeliveryOutcome::Delivered => Outcome::Delivered,
            DeliveryOutcome::RetryAt(_) => Outcome::Retried,
            DeliveryOutcome::GiveUp => Outcome::Failed,
        };
        match recorded {
            Ok(true) => {
                metric::attempt(counted, answer.duration);
                match counted {
                    Outcome::Delivered => report.delivered += 1,
                    Outcome::Retried => report.retried += 1,
                    Outcome::Failed => report.failed += 1,
                }
                if !delivered {
                    tracing::info!(
                        endpoint = %due.endpoint_id,
                        event = %due.event.id,
                        attempt = due.attempts + 1,
                        status = answer.status,
                        error = answer.error.as_deref(),
                        outcome = ?outcome,
                        "event delivery failed"
                    );
                }
            }
            Ok(false) => {
                tracing::warn!(
                    endpoint = %due.endpoint_id,
                    event = %due.event.id,
                    "event delivery: the lease ran out before the attempt was recorded"
                );
                report.unrecorded += 1;
            }
            Err(error) => {
                tracing::error!(
                    %error,
                    endpoint = %due.endpoint_id,
                    event = %due.event.id,
                    "event delivery: cannot record an attempt (sent again when the lease runs out)"
                );
                report.unrecorded += 1;
            }
        }
        if !delivered && backoff::disable(due.failing_since, attempted_at) {
            report.disabled += usize::from(self.disable(&due).await);
        }
        report
    }

    /// Signs and posts `body`.
    async fn send(&self, due: &DueDelivery, body: Vec<u8>) -> Answer {
        // The shop compares the signed time with its own clock: always the system's.
        let timestamp = OffsetDateTime::now_utc().unix_timestamp();
        let signature = match sign::signature(&due.secrets, &due.event.id, timestamp, &body) {
            Ok(signature) => signature,
            Err(error) => return Answer::failed(error.to_string()),
        };
        let mut headers = HeaderMap::new();
        for (name, value) in [
            ("webhook-id", due.event.id.clone()),
            ("webhook-timestamp", timestamp.to_string()),
            ("webhook-signature", signature),
        ] {
            match HeaderValue::from_str(&value) {
                Ok(value) => {
                    headers.insert(HeaderName::from_static(name), value);
                }
                Err(_) => return Answer::failed(format!("{name} is not a valid header value")),
            }
        }
        self.services().client.post(&due.url, headers, body).await
    }

    /// Disables an endpoint that has failed every attempt for days; whether it did.
    async fn disable(&self, due: &DueDelivery) -> bool {
        let since = due
            .failing_since
            .and_then(|since| {
                since
                    .format(&time::format_description::well_known::Rfc3339)
                    .ok()
            })
            .unwrap_or_default();
        let reason = format!(
            "every delivery has failed since {since} ({} days): disabled automatically",
            backoff::DISABLE_AFTER.whole_days()
        );
        let update = EndpointUpdate {
            status: Some((EndpointStatus::Disabled, Some(reason))),
            ..EndpointUpdate::default()
        };
        match self
            .services()
            .store
            .update_endpoint(&due.endpoint_id, update)
            .await
        {
            Ok(Some(_)) => {
                tracing::warn!(endpoint = %due.endpoint_id, "webhook endpoint disabled after failing for days");
                true
            }
            Ok(None) => false,
            Err(error) => {
                tracing::error!(%error, endpoint = %due.endpoint_id, "cannot disable a failing webhook endpoint");
                false
            }
        }
    }
}
