//! A card-testing alert as the merchant API and the `card_testing.*` events show it.

use serde::Serialize;

use super::rfc3339;
use crate::store::card_testing::{AlertCause, CardTestingAlert};

/// A card-testing alert (`object: "card_testing"`).
#[derive(Debug, Clone, Serialize)]
pub struct CardTestingView {
    /// `ct_…`.
    pub id: String,
    /// `open` while the tightened limits apply, then `ended`.
    pub status: &'static str,
    /// When it was raised (RFC 3339).
    pub started_at: String,
    /// The last time its trigger held.
    pub last_seen_at: String,
    /// When it ended; absent while open.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ended_at: Option<String>,
    /// The window the figures below cover, in seconds.
    pub window_seconds: u64,
    /// Tries recorded in that window when it was raised.
    pub tries: u64,
    /// Of those, declined.
    pub declined: u64,
    /// Of those, blocked by the card-testing rules.
    pub blocked: u64,
    /// Of those, made with another card than an earlier try of their session.
    pub switched: u64,
    /// The trigger that raised it: `blocked`, `declined`, `switched` (a share of the window's
    /// tries) or `surge` (the pace of tries); absent for alerts from before it was kept.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cause: Option<&'static str>,
}

impl CardTestingView {
    /// The view of `alert`.
    pub fn new(alert: &CardTestingAlert) -> Self {
        Self {
            id: alert.id.clone(),
            status: if alert.ended_at.is_some() {
                "ended"
            } else {
                "open"
            },
            started_at: rfc3339(alert.started_at),
            last_seen_at: rfc3339(alert.last_seen_at),
            ended_at: alert.ended_at.map(rfc3339),
            window_seconds: alert.window.as_secs(),
            tries: alert.tally.tries,
            declined: alert.tally.declined,
            blocked: alert.tally.blocked,
            switched: alert.tally.switched,
            cause: alert.cause.map(AlertCause::as_str),
        }
    }
}
