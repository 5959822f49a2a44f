//! Writing the audit log: who (account and address), what, which payment or other object
//! (a subscription, a webhook endpoint, an event), how much, and the outcome. A line that
//! cannot be written is logged as an error; the action it describes has already happened and
//! is not undone.

use std::net::IpAddr;

use time::OffsetDateTime;

use super::auth::Staff;
use super::state::DashboardState;
use crate::store::model::Payment;
use crate::store::prelude::*;

/// Who acts.
#[derive(Debug, Clone)]
pub struct Actor {
    /// The account, when known.
    pub staff_id: Option<String>,
    /// Its e-mail, as shown in the log.
    pub email: String,
    /// The client's address.
    pub address: IpAddr,
}

impl Actor {
    /// `staff`, acting from `address`.
    pub fn staff(staff: &Staff, address: IpAddr) -> Self {
        Self::account(&staff.user, address)
    }

    /// The account `user`, acting from `address` (logged in or not yet).
    pub fn account(user: &StaffUser, address: IpAddr) -> Self {
        Self {
            staff_id: Some(user.id.clone()),
            email: user.email.clone(),
            address,
        }
    }
}

/// What an action touched: the payment and the amount (minor units) moved or asked for.
pub type Target<'a> = Option<(&'a Payment, Option<u64>)>;

/// Another object an action touched, and the amount it concerns (minor units, currency).
#[derive(Debug, Clone, Copy)]
pub struct Object<'a> {
    /// `subscription`, `webhook_endpoint`, `event` or `risk_block`.
    pub kind: &'static str,
    /// Its id.
    pub id: &'a str,
    /// The amount it concerns, if any.
    pub money: Option<(u64, &'a str)>,
}

/// Appends one line about a payment (or none, for a login or logout).
pub async fn record(
    state: &DashboardState,
    actor: &Actor,
    action: &str,
    target: Target<'_>,
    outcome: &str,
    detail: Option<String>,
) {
    let entry = NewAuditEntry {
        payment_id: target.map(|(payment, _)| payment.id.clone()),
        amount: target.and_then(|(_, amount)| amount),
        currency: target.map(|(payment, _)| payment.currency.clone()),
        ..line(actor, action, outcome, detail)
    };
    append(state, entry).await;
}

/// Appends one line about `object`.
pub async fn record_on(
    state: &DashboardState,
    actor: &Actor,
    action: &str,
    object: Object<'_>,
    outcome: &str,
    detail: Option<String>,
) {
    let entry = NewAuditEntry {
        object_type: Some(object.kind.to_owned()),
        object_id: Some(object.id.to_owned()),
        amount: object.money.map(|(amount, _)| amount),
        currency: object.money.map(|(_, currency)| currency.to_owned()),
        ..line(actor, action, outcome, detail)
    };
    append(state, entry).await;
}

/// Appends one successful line about `object`, made from the payment `payment_id` if one
/// (a block-list entry made from a payment's page).
pub async fn record_about(
    state: &DashboardState,
    actor: &Actor,
    action: &str,
    payment_id: Option<&str>,
    object: Object<'_>,
    detail: Option<String>,
) {
    let entry = NewAuditEntry {
        payment_id: payment_id.map(str::to_owned),
        object_type: Some(object.kind.to_owned()),
        object_id: Some(object.id.to_owned()),
        ..line(actor, action, "ok", detail)
    };
    append(state, entry).await;
}

/// A line naming no object.
fn line(actor: &Actor, action: &str, outcome: &str, detail: Option<String>) -> NewAuditEntry {
    NewAuditEntry {
        staff_id: actor.staff_id.clone(),
        staff_email: actor.email.clone(),
        action: action.to_owned(),
        payment_id: None,
        object_type: None,
        object_id: None,
        amount: None,
        currency: None,
        address: Some(actor.address.to_string()),
        outcome: outcome.to_owned(),
        detail,
    }
}

async fn append(state: &DashboardState, entry: NewAuditEntry) {
    let action = entry.action.clone();
    if let Err(error) = state
        .app
        .store
        .append_audit(entry, OffsetDateTime::now_utc())
        .await
    {
        tracing::error!(%error, action, "could not write the audit log");
    }
}
