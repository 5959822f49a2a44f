//! The invariants the model test ([`super::model`]) holds every settled walk to, read from the
//! sandbox's ledger, the store and the events the shop receives.

use std::time::Duration;

use checkout::contract::PaymentState;
use serde_json::Value;

use super::support::{Sample, completions, live_charges, replay, shop_events};
use crate::api::support::{Harness, TestSession};

/// How long a settled walk may take to come to rest (webhooks are delivered in the
/// background): the invariants are read again until they hold or this has passed.
const SETTLING: Duration = Duration::from_secs(5);

/// `Err` with what is broken, once the walk has had [`SETTLING`] to come to rest.
pub async fn check(h: &Harness, session: &TestSession, amount: u64) -> Result<(), String> {
    let started = std::time::Instant::now();
    loop {
        match check_once(h, session, amount).await {
            Ok(()) => return Ok(()),
            Err(broken) if started.elapsed() > SETTLING => return Err(broken),
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
}

async fn check_once(h: &Harness, session: &TestSession, amount: u64) -> Result<(), String> {
    let payments = h.stored_payments(session).await;
    let keeper = h
        .state
        .payments
        .keeper(&session.id)
        .await
        .map_err(|e| e.to_string())?
        .map(|k| k.payment_id);
    // At the gateway: the keeper's charge at most, and any other in review with its reason.
    for charge in live_charges(h, &session.reference) {
        let Some(payment) = payments
            .iter()
            .find(|p| p.merchant_txn_ref == charge.merchant_txn_ref)
        else {
            return Err(format!("a live charge no payment knows: {charge:?}"));
        };
        let kept = keeper.as_deref() == Some(payment.id.as_str());
        let in_review =
            payment.state == PaymentState::NeedsReview && payment.review_reason.is_some();
        if !kept && !in_review {
            return Err(format!(
                "a second live charge {charge:?} of payment {} in {:?} (keeper {keeper:?})",
                payment.id, payment.state
            ));
        }
    }
    if let Some(id) = &keeper {
        let paid = payments
            .iter()
            .find(|p| &p.id == id)
            .ok_or("keeper unknown")?;
        if paid.retry.paid_at.is_none() {
            return Err(format!("the keeper {id} was never paid: {:?}", paid.state));
        }
    }
    if let Some(surplus) = payments.iter().find(|p| {
        p.retry.surplus_of.is_some()
            && matches!(p.state, PaymentState::Captured | PaymentState::Authorized)
    }) {
        return Err(format!("surplus {} still holds its charge", surplus.id));
    }
    // The shop: `session.completed` once, naming the keeper; the samples' order agrees.
    let events = shop_events(h, &session.id).await;
    let completed: Vec<&Value> = completions(&events);
    let named: Vec<&str> = completed
        .iter()
        .filter_map(|e| e["data"]["object"]["paid_by"].as_str())
        .collect();
    let expected: Vec<&str> = keeper.iter().map(String::as_str).collect();
    if named != expected || completed.len() != expected.len() {
        return Err(format!("session.completed {named:?}, keeper {keeper:?}"));
    }
    let keeper_state = keeper
        .as_ref()
        .and_then(|id| payments.iter().find(|p| &p.id == id))
        .map(|p| p.state);
    let status = match keeper_state {
        None | Some(PaymentState::Authorized) => "awaiting_payment",
        Some(PaymentState::Captured | PaymentState::PartiallyRefunded) => "paid",
        Some(PaymentState::Refunded | PaymentState::Voided) => "refunded",
        Some(other) => return Err(format!("the keeper is {other:?}")),
    };
    for sample in [Sample::Python, Sample::Node] {
        let order = replay(sample, &session.id, amount, &events);
        let paid_by = order["payment_id"].as_str();
        if order["status"] != status || (keeper_state.is_some() && paid_by != keeper.as_deref()) {
            return Err(format!(
                "{sample:?}'s order {order} for keeper {keeper:?} in {keeper_state:?}"
            ));
        }
    }
    Ok(())
}
