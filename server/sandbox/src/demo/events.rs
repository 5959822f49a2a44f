//! The demo shop's webhook receiver, as a shop's backend receives checkout-server's events:
//! it registers `POST /demo/webhooks` with the merchant API (once, before its first order),
//! verifies each delivery's Standard Webhooks signature with the secret it got, and moves
//! its orders: `session.completed` pays one, `payment.refunded` for the whole amount refunds
//! it. Deliveries come at least once and may repeat; marking an order twice changes nothing.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use secrecy::{ExposeSecret as _, SecretString};
use serde::Deserialize;
use standardwebhooks::Webhook;
use tokio::sync::OnceCell;

use super::ShopState;
use super::orders::{self, OrderStatus};

/// Where the shop receives its events, under its own origin.
pub const PATH: &str = "/demo/webhooks";

/// The signing secret, once the endpoint is registered.
#[derive(Debug, Default)]
pub struct Receiver {
    secret: OnceCell<SecretString>,
}

impl Receiver {
    /// Registers the shop's endpoint unless it is; a failure is logged and tried again with
    /// the next order (the order itself goes on: the landing page still shows its result).
    pub async fn register(&self, shop: &ShopState) {
        let url = format!("{}{PATH}", shop.origin);
        let registered = self
            .secret
            .get_or_try_init(|| shop.merchant_api.webhook_secret(&url))
            .await;
        if let Err(error) = registered {
            tracing::warn!(%error, "demo shop: could not register its webhook endpoint");
        }
    }
}

/// The part of an event the shop reads.
#[derive(Debug, Deserialize)]
struct Event {
    #[serde(rename = "type")]
    kind: String,
    data: EventData,
}

#[derive(Debug, Deserialize)]
struct EventData {
    object: EventObject,
}

#[derive(Debug, Deserialize)]
struct EventObject {
    /// The session's id (`session.completed`) or the payment's.
    id: String,
    /// A payment's session.
    #[serde(default)]
    session_id: Option<String>,
    /// A payment's state.
    #[serde(default)]
    state: Option<String>,
}

/// `POST /demo/webhooks`: 204 for a verified event, 401 for anything else.
pub async fn receive(State(shop): State<ShopState>, headers: HeaderMap, body: Bytes) -> StatusCode {
    let Some(secret) = shop.events.secret.get() else {
        return StatusCode::SERVICE_UNAVAILABLE;
    };
    let verified =
        Webhook::new(secret.expose_secret()).and_then(|webhook| webhook.verify(&body, &headers));
    if verified.is_err() {
        tracing::warn!("demo shop: an event with a bad signature was refused");
        return StatusCode::UNAUTHORIZED;
    }
    let Ok(event) = serde_json::from_slice::<Event>(&body) else {
        return StatusCode::BAD_REQUEST;
    };
    let object = event.data.object;
    let change = match (event.kind.as_str(), object.state.as_deref()) {
        ("session.completed", _) => Some((object.id, OrderStatus::Paid)),
        ("payment.refunded", Some("refunded")) => object
            .session_id
            .map(|session| (session, OrderStatus::Refunded)),
        _ => None,
    };
    if let Some((session_id, status)) = change
        && orders::mark(&session_id, status)
    {
        tracing::info!(
            session_id,
            ?status,
            "demo shop: order updated from an event"
        );
    }
    StatusCode::NO_CONTENT
}
