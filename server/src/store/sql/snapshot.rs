//! Reading an event's snapshot (the JSON the store's triggers wrote, column names as keys)
//! back into the store's records, with the same checks as a row read from the table.

use serde::Deserialize;

use super::card_testing::AlertRow;
use super::codec::{named, time, unsigned};
use super::rows::{PaymentRow, SessionRow};
use super::subscriptions::{CycleRow, SubscriptionRow};
use crate::store::error::{StoreError, StoreResult};
use crate::store::model::{CardOnFile, EventObject, Last4, StoredEvent};

#[derive(Deserialize)]
struct SessionSnapshot {
    session: SessionRow,
    payment: PaymentRow,
}

#[derive(Deserialize)]
struct CycleSnapshot {
    subscription: SubscriptionRow,
    cycle: CycleRow,
}

#[derive(Deserialize)]
struct CardSnapshot {
    id: String,
    customer_id: String,
    brand: String,
    last4: String,
    expiry_month: i64,
    expiry_year: i64,
    created_at: i64,
}

/// The records `event`'s snapshot holds.
pub fn decode(event: &StoredEvent) -> StoreResult<EventObject> {
    let json = event.snapshot.as_str();
    let corrupt = |_| StoreError::Corrupt("event snapshot");
    Ok(match (event.object_type.as_str(), event.kind.as_str()) {
        ("payment", _) => {
            let row: PaymentRow = serde_json::from_str(json).map_err(corrupt)?;
            EventObject::Payment(Box::new(row.try_into()?))
        }
        ("session", _) => {
            let read: SessionSnapshot = serde_json::from_str(json).map_err(corrupt)?;
            EventObject::Session {
                session: Box::new(read.session.try_into()?),
                payment: Box::new(read.payment.try_into()?),
            }
        }
        ("subscription", "subscription.renewed" | "subscription.payment_failed") => {
            let read: CycleSnapshot = serde_json::from_str(json).map_err(corrupt)?;
            EventObject::Cycle {
                subscription: Box::new(read.subscription.try_into()?),
                cycle: read.cycle.try_into()?,
            }
        }
        ("subscription", _) => {
            let row: SubscriptionRow = serde_json::from_str(json).map_err(corrupt)?;
            EventObject::Subscription(Box::new(row.try_into()?))
        }
        ("customer", _) => {
            let card: CardSnapshot = serde_json::from_str(json).map_err(corrupt)?;
            EventObject::Card(CardOnFile {
                brand: named(&card.brand, "brand", checkout::card::Brand::from_id)?,
                last4: Last4::new(&card.last4).map_err(|_| StoreError::Corrupt("last4"))?,
                expiry_month: unsigned(card.expiry_month, "expiry_month")?,
                expiry_year: unsigned(card.expiry_year, "expiry_year")?,
                created_at: time(card.created_at, "created_at")?,
                id: card.id,
                customer_id: card.customer_id,
            })
        }
        ("card_testing", _) => {
            let row: AlertRow = serde_json::from_str(json).map_err(corrupt)?;
            EventObject::CardTesting(Box::new(row.try_into()?))
        }
        _ => return Err(StoreError::Corrupt("event object type")),
    })
}
