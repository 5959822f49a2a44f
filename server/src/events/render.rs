//! An event as the shop receives it and as `GET /v1/events/{id}` shows it:
//! `{id, type, created_at, data: {object}}`, the object as the merchant API returns it at the
//! moment of the change (read back from the event's snapshot), never with card data beyond
//! brand, first six, last four and expiry.

use serde::Serialize;

use crate::config::PlanCatalogue;
use crate::store::model::{EventObject, SessionKeeper, StoredEvent, Subscription};
use crate::store::{StoreError, decode_snapshot};
use crate::views::{
    CardTestingView, CustomerCard, MerchantCharge, MerchantSubscription, PaymentView, SessionView,
    rfc3339,
};

/// An event's JSON.
#[derive(Debug, Clone, Serialize)]
pub struct EventBody {
    /// `evt_…`.
    pub id: String,
    /// `payment.captured`, ….
    #[serde(rename = "type")]
    pub kind: String,
    /// When the change happened (RFC 3339).
    pub created_at: String,
    /// The object.
    pub data: EventData,
}

/// What an event carries.
#[derive(Debug, Clone, Serialize)]
pub struct EventData {
    /// The object the event is about, as the merchant API shows it.
    pub object: EventObjectView,
}

/// The objects events carry.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "object", rename_all = "snake_case")]
pub enum EventObjectView {
    /// `payment.*`.
    Payment(PaymentView),
    /// `session.completed`: the session with the payment that paid it.
    Session(SessionView),
    /// `subscription.*` (`renewed` and `payment_failed` add the cycle's charge).
    Subscription {
        /// The subscription.
        #[serde(flatten)]
        subscription: Box<MerchantSubscription>,
        /// The charge of the billing cycle the event reports.
        #[serde(skip_serializing_if = "Option::is_none")]
        charge: Option<MerchantCharge>,
    },
    /// `customer.card_saved`, `customer.card_removed`.
    Card {
        /// The card's customer.
        customer_id: String,
        /// The card.
        #[serde(flatten)]
        card: CustomerCard,
    },
    /// `card_testing.suspected`, `card_testing.ended`: the alert.
    CardTesting(CardTestingView),
}

/// `event` as the shop receives it; the plans name the terms of a subscription's plan.
pub fn render(event: &StoredEvent, plans: &PlanCatalogue) -> Result<EventBody, StoreError> {
    let subscription = |subscription: Box<Subscription>, charge| EventObjectView::Subscription {
        subscription: Box::new(MerchantSubscription::new(
            &subscription,
            plans.get(&subscription.plan_id).cloned(),
            None,
        )),
        charge,
    };
    let object = match decode_snapshot(event)? {
        EventObject::Payment(payment) => EventObjectView::Payment(PaymentView::new(&payment)),
        // `session.completed`: the payment is the session's keeper, the one that paid it.
        EventObject::Session { session, payment } => {
            let keeper = SessionKeeper {
                payment_id: payment.id.clone(),
                paid_at: payment.retry.paid_at.unwrap_or(event.created_at),
            };
            EventObjectView::Session(SessionView::new(
                &session,
                Some(&keeper),
                Some(std::slice::from_ref(payment.as_ref())),
                event.created_at,
            ))
        }
        EventObject::Subscription(record) => subscription(record, None),
        EventObject::Cycle {
            subscription: record,
            cycle,
        } => subscription(record, Some(MerchantCharge::from(&cycle))),
        EventObject::Card(card) => EventObjectView::Card {
            customer_id: card.customer_id.clone(),
            card: CustomerCard::from(&card),
        },
        EventObject::CardTesting(alert) => {
            EventObjectView::CardTesting(CardTestingView::new(&alert))
        }
    };
    Ok(EventBody {
        id: event.id.clone(),
        kind: event.kind.clone(),
        created_at: rfc3339(event.created_at),
        data: EventData { object },
    })
}
