//! A payment's timeline, from what the store already keeps, oldest first: its creation, each
//! gateway call (endpoint, outcome, duration), each gateway webhook and its verdict, each
//! state change (the store writes an event to the shop for every one) with that event's
//! delivery to each of the shop's endpoints, each staff action from the audit log (and the
//! surplus rule's, by `system`), and the shopper's redirect to the bank and paying again.

use maud::{Markup, html};
use time::OffsetDateTime;

use super::format;
use crate::dashboard::error::DashboardError;
use crate::dashboard::money;
use crate::dashboard::state::DashboardState;
use crate::store::model::Payment;

/// One line of the timeline.
struct Line {
    at: OffsetDateTime,
    what: String,
}

/// The timeline of `payment`, rendered.
pub async fn timeline(state: &DashboardState, payment: &Payment) -> Result<Markup, DashboardError> {
    let store = state.app.store.as_ref();
    let mut lines = vec![Line {
        at: payment.created_at,
        what: format!("Payment recorded ({})", payment.kind.as_str()),
    }];
    for attempt in store.list_attempts(&payment.id).await? {
        let status = attempt
            .http_status
            .map_or_else(String::new, |s| format!(", HTTP {s}"));
        lines.push(Line {
            at: attempt.started_at,
            what: format!(
                "Gateway {}: {}{status}, {} ms",
                attempt.endpoint,
                attempt.outcome.as_str(),
                attempt.latency_us / 1000
            ),
        });
    }
    for webhook in store.list_webhooks(&payment.id).await? {
        lines.push(Line {
            at: webhook.received_at,
            what: format!("Gateway webhook received: {}", webhook.verdict.as_str()),
        });
    }
    for event in store.object_events(&payment.id).await? {
        let rule = match (event.kind.as_str(), &payment.risk_rule) {
            ("payment.blocked", Some(rule)) => format!(" (blocked before the gateway by {rule})"),
            _ => String::new(),
        };
        lines.push(Line {
            at: event.created_at,
            what: format!("Event to the shop: {}{rule}", event.kind),
        });
        for delivery in store.event_deliveries(&event.id).await? {
            let tries = match delivery.attempts {
                1 => "1 attempt".to_owned(),
                n => format!("{n} attempts"),
            };
            lines.push(Line {
                at: delivery.updated_at,
                what: format!(
                    "{} to endpoint {}: {} ({tries})",
                    event.kind,
                    delivery.endpoint_id,
                    delivery.state.as_str()
                ),
            });
        }
    }
    for line in store.payment_audit(&payment.id).await? {
        let entry = &line.entry;
        let amount = entry.amount.map_or_else(String::new, |a| {
            format!(" {}", money::format(a, &payment.currency))
        });
        let detail = entry
            .detail
            .as_deref()
            .map_or_else(String::new, |d| format!(" ({d})"));
        lines.push(Line {
            at: line.at,
            what: format!(
                "{}{amount} by {}: {}{detail}",
                entry.action, entry.staff_email, entry.outcome
            ),
        });
    }
    lines.extend(retry_lines(payment));
    lines.sort_by_key(|line| line.at);
    Ok(html! {
        ol class="timeline" {
            @for line in &lines {
                li { time datetime=(format::iso(line.at)) { (format::when(line.at)) } " — " (line.what) }
            }
        }
    })
}

/// The shopper's paying again, as the payment records it: sent to the bank, superseded by a
/// later payment. (The surplus rule's reversal is an audit line, above.)
fn retry_lines(payment: &Payment) -> Vec<Line> {
    let retry = &payment.retry;
    let mut lines = Vec::new();
    if let Some(at) = retry.redirected_at {
        lines.push(Line {
            at,
            what: "Shopper sent to the bank (3-D Secure)".to_owned(),
        });
    }
    if let (Some(at), Some(by)) = (retry.superseded_at, &retry.superseded_by) {
        lines.push(Line {
            at,
            what: format!("Superseded by payment {by}: the shopper paid again"),
        });
    }
    lines
}
