//! The merchant API's shapes of webhook endpoints, of an event's deliveries and of the
//! attempts to deliver: what the shop sees of where its events go and how that went. An
//! endpoint's signing secret appears only in the answers that hand it out (creation and
//! rotation).

use serde::Serialize;
use time::OffsetDateTime;

use super::merchant::rfc3339;
use crate::store::model::{
    Delivery, DeliveryAttempt, DeliveryState, EndpointStatus, WebhookEndpoint,
};

/// A webhook endpoint as the merchant sees it.
#[derive(Debug, Clone, Serialize)]
pub struct EndpointView {
    /// `we_…`.
    pub id: String,
    /// Where events are posted.
    pub url: String,
    /// The merchant's note.
    pub description: Option<String>,
    /// The types it receives: `["*"]` for all.
    pub event_types: Vec<String>,
    /// `enabled` or `disabled`.
    pub status: &'static str,
    /// Why it is disabled (by the merchant, or after failing for days).
    pub disabled_reason: Option<String>,
    /// Since when every delivery to it has failed; `null` while it succeeds.
    pub failing_since: Option<String>,
    /// Until when the secret replaced by the last rotation also signs; `null` when it no
    /// longer does.
    pub previous_secret_expires_at: Option<String>,
    /// Created (RFC 3339).
    pub created_at: String,
    /// Last changed (RFC 3339).
    pub updated_at: String,
    /// The signing secret (`whsec_…`): only in the answers of creation and rotation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
}

impl EndpointView {
    /// The view of `endpoint` at `now`, without its secret.
    pub fn new(endpoint: &WebhookEndpoint, now: OffsetDateTime) -> Self {
        Self {
            id: endpoint.id.clone(),
            url: endpoint.url.clone(),
            description: endpoint.description.clone(),
            event_types: endpoint.event_types.names(),
            status: match endpoint.status {
                EndpointStatus::Enabled => "enabled",
                EndpointStatus::Disabled => "disabled",
            },
            disabled_reason: endpoint.disabled_reason.clone(),
            failing_since: endpoint.failing_since.map(rfc3339),
            previous_secret_expires_at: endpoint
                .previous_until
                .filter(|until| *until > now && endpoint.previous_secret.is_some())
                .map(rfc3339),
            created_at: rfc3339(endpoint.created_at),
            updated_at: rfc3339(endpoint.updated_at),
            secret: None,
        }
    }
}

/// Every endpoint (one page: endpoints are few).
#[derive(Debug, Clone, Serialize)]
pub struct EndpointList {
    /// The endpoints, oldest first.
    pub data: Vec<EndpointView>,
    /// Always false.
    pub has_more: bool,
    /// Always `null`.
    pub next_cursor: Option<String>,
}

/// An event's delivery to one endpoint.
#[derive(Debug, Clone, Serialize)]
pub struct DeliveryView {
    /// The endpoint.
    pub endpoint_id: String,
    /// `pending`, `delivered` or `failed`.
    pub state: &'static str,
    /// Attempts so far.
    pub attempts: u32,
    /// When it is tried next (pending only).
    pub next_attempt_at: Option<String>,
    /// Created (RFC 3339).
    pub created_at: String,
    /// Last changed (RFC 3339).
    pub updated_at: String,
}

impl From<&Delivery> for DeliveryView {
    fn from(delivery: &Delivery) -> Self {
        let next =
            (delivery.state == DeliveryState::Pending).then(|| rfc3339(delivery.next_attempt_at));
        Self {
            endpoint_id: delivery.endpoint_id.clone(),
            state: delivery.state.as_str(),
            attempts: delivery.attempts,
            next_attempt_at: next,
            created_at: rfc3339(delivery.created_at),
            updated_at: rfc3339(delivery.updated_at),
        }
    }
}

/// One attempt to deliver an event.
#[derive(Debug, Clone, Serialize)]
pub struct AttemptView {
    /// The attempt's number (pass as `starting_after` for the next page).
    pub id: i64,
    /// The event.
    pub event_id: String,
    /// The endpoint.
    pub endpoint_id: String,
    /// When it was sent (RFC 3339).
    pub attempted_at: String,
    /// The endpoint's HTTP status, `null` when none came (refused, timed out, …).
    pub status_code: Option<u16>,
    /// Milliseconds until the answer or the error.
    pub duration_ms: f64,
    /// What went wrong, `null` on success (never the response body).
    pub error: Option<String>,
}

impl From<&DeliveryAttempt> for AttemptView {
    fn from(attempt: &DeliveryAttempt) -> Self {
        Self {
            id: attempt.id,
            event_id: attempt.event_id.clone(),
            endpoint_id: attempt.endpoint_id.clone(),
            attempted_at: rfc3339(attempt.attempted_at),
            status_code: attempt.status_code,
            // Exact to the microsecond for any duration below a century.
            duration_ms: attempt.duration_us as f64 / 1000.0,
            error: attempt.error.clone(),
        }
    }
}

/// A page of an endpoint's attempts, newest first.
#[derive(Debug, Clone, Serialize)]
pub struct AttemptList {
    /// The attempts.
    pub data: Vec<AttemptView>,
    /// Whether older attempts follow.
    pub has_more: bool,
    /// Pass as `starting_after` for the next page; `null` on the last.
    pub next_cursor: Option<String>,
}

/// The answer of a redelivery.
#[derive(Debug, Clone, Serialize)]
pub struct Redelivered {
    /// How many deliveries of the event are now pending.
    pub deliveries: u64,
}
