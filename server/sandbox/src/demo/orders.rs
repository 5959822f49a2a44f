//! The demo shop backend's order book: which checkout session belongs to which shopper, with
//! the session's client secret, as a real shop keeps them in its order table. It lets the
//! page the customer lands on after 3-D Secure (`/?checkout=…&session_id=…`, the default
//! `SUCCESS_URL`) show the order's result: the server stores only a hash of the secret. Each
//! order's status comes from the events checkout-server sends ([`super::events`]), never from
//! the landing address: a shopper who closes the tab after paying still has a paid order.
//!
//! Kept in memory for the life of the process, the newest [`CAPACITY`] orders only.

use std::collections::{HashMap, VecDeque};
use std::sync::{Mutex, OnceLock};

/// Most orders remembered.
pub const CAPACITY: usize = 10_000;

/// One order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Order {
    /// The session's client secret (for the result view).
    pub client_secret: String,
    /// The demo customer who placed it; `None` for a guest.
    pub customer_id: Option<String>,
    /// Where it stands, as the events said.
    pub status: OrderStatus,
}

/// An order's status, as the shop learns it from checkout-server's events.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OrderStatus {
    /// Not paid (yet).
    Open,
    /// `session.completed`: paid, ship it.
    Paid,
    /// `payment.refunded` for the whole amount.
    Refunded,
}

#[derive(Default)]
struct Book {
    orders: HashMap<String, Order>,
    arrival: VecDeque<String>,
}

fn book() -> &'static Mutex<Book> {
    static BOOK: OnceLock<Mutex<Book>> = OnceLock::new();
    BOOK.get_or_init(Mutex::default)
}

/// Remembers `order` for `session_id`, forgetting the oldest beyond [`CAPACITY`].
pub fn remember(session_id: &str, order: Order) {
    let mut book = book()
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if book.orders.insert(session_id.to_owned(), order).is_none() {
        book.arrival.push_back(session_id.to_owned());
    }
    while book.arrival.len() > CAPACITY {
        if let Some(oldest) = book.arrival.pop_front() {
            book.orders.remove(&oldest);
        }
    }
}

/// Moves the order of `session_id` to `status`; whether the shop has such an order.
pub fn mark(session_id: &str, status: OrderStatus) -> bool {
    let mut book = book()
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    match book.orders.get_mut(session_id) {
        Some(order) => {
            order.status = status;
            true
        }
        None => false,
    }
}

/// The order of `session_id`, if `customer_id` may see it (its own, or a guest order).
pub fn lookup(session_id: &str, customer_id: &str) -> Option<Order> {
    let book = book()
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    book.orders
        .get(session_id)
        .filter(|order| {
            order
                .customer_id
                .as_deref()
                .is_none_or(|owner| owner == customer_id)
        })
        .cloned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_owner_sees_an_order() {
        let session = format!("s-{}", uuid::Uuid::new_v4());
        remember(
            &session,
            Order {
                client_secret: "cs_1".into(),
                customer_id: Some("demo-a".into()),
                status: OrderStatus::Open,
            },
        );
        assert_eq!(
            lookup(&session, "demo-a").map(|o| o.client_secret),
            Some("cs_1".into())
        );
        assert!(lookup(&session, "demo-b").is_none());
        let guest = format!("s-{}", uuid::Uuid::new_v4());
        remember(
            &guest,
            Order {
                client_secret: "cs_2".into(),
                customer_id: None,
                status: OrderStatus::Open,
            },
        );
        assert!(lookup(&guest, "anyone").is_some());
        assert!(lookup("unknown", "demo-a").is_none());
    }
}
