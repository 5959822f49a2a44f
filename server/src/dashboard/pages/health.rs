//! How an endpoint's health reads on the webhook pages: last success, failures in a row, the
//! oldest delivery still waiting, given-up deliveries, and the success rate of the recent
//! window ([`HEALTH_WINDOW`]).

use maud::{Markup, html};
use time::OffsetDateTime;

use super::format;
use crate::events::endpoints::HEALTH_WINDOW;
use crate::store::delivery_report::EndpointHealth;
use crate::store::model::{EndpointStatus, WebhookEndpoint};

/// `enabled`, or `disabled (why)`.
pub fn status(endpoint: &WebhookEndpoint) -> String {
    match endpoint.status {
        EndpointStatus::Enabled => "enabled".to_owned(),
        EndpointStatus::Disabled => match &endpoint.disabled_reason {
            Some(reason) => format!("disabled ({reason})"),
            None => "disabled".to_owned(),
        },
    }
}

/// `2 of 3 (66 %)`, or `no attempt` in the window.
pub fn success_rate(health: &EndpointHealth) -> String {
    match health.recent_success_percent() {
        Some(percent) => format!(
            "{percent} % ({} of {})",
            health.recent_successes, health.recent_attempts
        ),
        None => "no attempt".to_owned(),
    }
}

/// The last success, or `never`.
pub fn last_success(health: &EndpointHealth) -> String {
    health
        .last_success_at
        .map_or_else(|| "never".to_owned(), format::when)
}

/// The oldest waiting delivery with how many wait, or `none`.
pub fn oldest_pending(health: &EndpointHealth) -> String {
    match health.oldest_pending_at {
        Some(at) => format!("{} ({} waiting)", format::when(at), health.pending),
        None => "none".to_owned(),
    }
}

/// The whole health of one endpoint, as a list of facts.
pub fn facts(endpoint: &WebhookEndpoint, health: &EndpointHealth, now: OffsetDateTime) -> Markup {
    let failing = endpoint
        .failing_since
        .map(|since| format!("failing since {}", format::when(since)));
    html! {
        dl class="facts" {
            dt { "Status" } dd { (status(endpoint)) @if let Some(f) = &failing { "; " (f) } }
            dt { "Last success" } dd { (last_success(health)) }
            dt { "Failures in a row" } dd { (health.consecutive_failures) }
            dt { "Oldest waiting delivery" } dd { (oldest_pending(health)) }
            dt { "Given up" } dd { (health.failed) " deliveries" }
            dt { "Success rate, last " (HEALTH_WINDOW.whole_hours()) " h" } dd { (success_rate(health)) }
            dt { "Previous secret signs until" } dd {
                @match endpoint.previous_until.filter(|until| *until > now && endpoint.previous_secret.is_some()) {
                    Some(until) => (format::when(until)),
                    None => "— (one secret signs)",
                }
            }
        }
    }
}
