//! Billing subscription cycles with the emulator's shared charge path.
//!
//! The sandbox clock is real time plus an offset, so cycles fall due both when a test advances
//! the clock and when real time passes. The emulator bills what is due:
//! - for every subscription when the clock is advanced (`POST /sandbox/clock/advance` calls
//!   [`bill_due`]);
//! - for the subscription concerned (or all, for the list) at the start of every
//!   subscription request, so an answer never shows a cycle as due that the real gateway would
//!   already have billed in the background.
//!
//! Each attempt is a purchase of the cycle's amount with the card stored at creation
//! (`ChargePurpose::SubscriptionCycle`), recorded in the ledger like any payment (so
//! `/transaction/status` finds it) and in the subscription's history.

use crate::charge::{ChargeRequest, ChargeSource, charge};
use crate::charge_card::ChargePurpose;
use crate::error::SandboxError;
use crate::state::SandboxState;
use crate::subscriptions::history::ChargeResult;
use crate::subscriptions::subscription::CycleBilling;
use crate::subscriptions::{CycleContext, SandboxSubscription};
use checkout::wire::TransactionType;

/// Bills every attempt due now on every `ACTIVE` subscription, in creation order. Returns how
/// many attempts were made. A charge error (only possible if a stored card vanished) is logged
/// and stops billing that subscription until the next call; nothing is recorded for it.
pub fn bill_due(state: &SandboxState) -> usize {
    state
        .subscriptions
        .map_all(|subscription| bill_subscription(state, subscription))
        .into_iter()
        .sum()
}

/// Bills what is due now on one subscription (the caller holds the book's lock).
pub fn bill_subscription(state: &SandboxState, subscription: &mut SandboxSubscription) -> usize {
    let now = state.clock.now();
    match subscription.bill_due(now, |billing| charge_cycle(state, &billing)) {
        Ok(attempts) => attempts,
        Err(error) => {
            tracing::error!(
                subscription_id = %subscription.id(),
                code = error.code(),
                "subscription cycle could not be charged: {error}"
            );
            0
        }
    }
}

/// Charges one cycle attempt with the stored card.
fn charge_cycle(
    state: &SandboxState,
    billing: &CycleBilling<'_, CycleContext>,
) -> Result<ChargeResult, SandboxError> {
    let context = billing.context;
    let merchant = &context.merchant;
    let outcome = charge(
        state,
        ChargeRequest {
            amount: billing.amount,
            currency: context.currency,
            source: ChargeSource::Token(context.token.clone()),
            store_payment_method: false,
            merchant_id: merchant.merchant_id.clone(),
            merchant_txn_ref: merchant.merchant_txn_ref.clone(),
            billing_address: merchant.billing_address.clone(),
            shipping_address: merchant.shipping_address.clone(),
            customer_ip: merchant.customer_ip.clone(),
            merchant_ip: merchant.merchant_ip.clone(),
            transaction_type: TransactionType::Capture,
            purpose: ChargePurpose::SubscriptionCycle {
                cycle: billing.due.cycle,
            },
        },
    )?;
    tracing::debug!(
        subscription_id = %billing.subscription_id,
        cycle = billing.due.cycle,
        attempt = billing.due.attempt,
        approved = outcome.approved,
        "subscription cycle charged"
    );
    Ok(ChargeResult {
        transaction_id: outcome.transaction_id,
        reference: outcome.reference,
        approved: outcome.approved,
        charged_at: outcome.charged_at,
    })
}
