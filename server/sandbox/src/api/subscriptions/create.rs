//! `POST /subscription/payment`: validates the request (the contract's limits, the card, the
//! plan terms, each failure naming its field), charges the card through the emulator's
//! `charge()` with the card stored, and starts the subscription.
//!
//! - Without a trial the creation charge is cycle 1 (at its discounted amount, if any).
//! - With a trial the creation charge is a zero-amount card verification that stores the
//!   card; cycle 1 is billed with the stored card when the trial ends.
//! - `payment_method.store_payment_method` is honoured as `true` whatever is sent: later
//!   cycles cannot be billed without the stored card.
//! - A declined creation charge answers like a declined payment (412, full transaction body,
//!   `success: false`) and creates no subscription.
//!
//! The answer is the payment transaction response (201, `CAPTURE`, shipping address under
//! `billing_details`) plus `subscription_details` in the Creation view.

use std::convert::Infallible;

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use uuid::Uuid;

use super::manage::into_sandbox_error;
use super::render::{View, subscription_details};
use crate::api::PeerIp;
use crate::card_check::ValidatedCard;
use crate::charge::{ChargeOutcome, ChargeRequest, ChargeSource, charge};
use crate::charge_card::ChargePurpose;
use crate::error::SandboxError;
use crate::ledger::MerchantContext;
use crate::state::SandboxState;
use crate::subscriptions::history::ChargeResult;
use crate::subscriptions::plan_request::PlanRequest;
use crate::subscriptions::terms::PlanTerms;
use crate::subscriptions::{CycleContext, SandboxSubscription};
use crate::test_cards::CardBehaviour;
use crate::validate;
use crate::web::WireJson;
use checkout::currency::Currency;
use checkout::wire::{
    PaymentMethodType, SubscriptionPaymentRequest, SubscriptionPlanRequest, TransactionType,
};

/// `POST /subscription/payment`.
pub async fn create(
    State(state): State<SandboxState>,
    PeerIp(peer): PeerIp,
    WireJson(body): WireJson<SubscriptionPaymentRequest>,
) -> Result<Response, SandboxError> {
    let checked = check(&state, body, peer)?;
    let first_amount = match checked.terms.trial_days {
        Some(_) => 0,
        None => checked.terms.amount_for_cycle(1),
    };
    let outcome = charge(&state, checked.charge_request(first_amount))?;
    let response = start(&state, checked, &outcome)?;
    if outcome.behaviour == CardBehaviour::Hang {
        // Everything is recorded; only the answer is late, as with a slow acquirer.
        tokio::time::sleep(state.config.hang).await;
    }
    Ok(response)
}

/// A request that passed every check.
struct CheckedCreation {
    terms: PlanTerms,
    currency: Currency,
    card: ValidatedCard,
    merchant: MerchantContext,
}

impl CheckedCreation {
    /// The creation charge: `amount` with the card, stored, as a purchase.
    fn charge_request(&self, amount: u64) -> ChargeRequest {
        let merchant = &self.merchant;
        ChargeRequest {
            amount,
            currency: self.currency,
            source: ChargeSource::Card(self.card.clone()),
            store_payment_method: true,
            merchant_id: merchant.merchant_id.clone(),
            merchant_txn_ref: merchant.merchant_txn_ref.clone(),
            billing_address: merchant.billing_address.clone(),
            shipping_address: merchant.shipping_address.clone(),
            customer_ip: merchant.customer_ip.clone(),
            merchant_ip: merchant.merchant_ip.clone(),
            transaction_type: TransactionType::Capture,
            purpose: ChargePurpose::Payment,
        }
    }
}

/// Contract limits and card shape (wire validation), currency, amount, return addresses,
/// payment method type, plan terms, then the card against the sandbox clock.
fn check(
    state: &SandboxState,
    body: SubscriptionPaymentRequest,
    merchant_ip: Option<String>,
) -> Result<CheckedCreation, SandboxError> {
    body.validate().map_err(validate::from_wire)?;
    let currency = validate::currency(&body.currency)?;
    let amount = validate::amount(body.amount.minor_units())?;
    if let Some(urls) = &body.return_url {
        validate::return_url(urls)?;
    }
    if body.payment_method.kind != PaymentMethodType::Scheme {
        return Err(SandboxError::invalid(
            "payment_method.type",
            "must be `scheme`",
        ));
    }
    let terms = plan_request(&body.subscription)
        .validate(amount, currency.code)
        .map_err(into_sandbox_error)?;
    let card = ValidatedCard::from_wire(&body.card, state.clock.now())?;
    Ok(CheckedCreation {
        terms,
        currency,
        card,
        merchant: MerchantContext {
            merchant_id: body.merchant_id,
            merchant_txn_ref: body.merchant_txn_ref,
            customer_ip: body.customer_ip,
            merchant_ip,
            billing_address: body.billing_address,
            shipping_address: body.shipping_address,
        },
    })
}

/// The wire plan as the model's raw input.
fn plan_request(plan: &SubscriptionPlanRequest) -> PlanRequest<'_> {
    PlanRequest {
        plan_name: Some(&plan.plan_name),
        plan_desc: Some(&plan.plan_desc),
        cycle_type: Some(plan.cycle_type.as_str()),
        subscription_end_type: Some(plan.subscription_end_type.as_str()),
        cycle_interval: Some(i64::from(plan.cycle_interval)),
        max_cycle_count: Some(i64::from(plan.max_cycle_count)),
        has_trial_period: Some(plan.has_trial_period),
        trial_period_duration_type: Some(plan.trial_period_duration_type.as_str()),
        trial_period_duration: Some(i64::from(plan.trial_period_duration)),
        has_discount: Some(plan.has_discount),
        discount_percentage: Some(i64::from(plan.discount_percentage)),
        discount_duration: Some(i64::from(plan.discount_duration)),
    }
}

/// Stores the subscription after an approved creation charge and renders the answer; a
/// declined charge is answered as a declined payment and starts nothing.
fn start(
    state: &SandboxState,
    checked: CheckedCreation,
    outcome: &ChargeOutcome,
) -> Result<Response, SandboxError> {
    let mut response = outcome.to_response(state, true);
    if !outcome.approved {
        return Ok((outcome.http_status(), Json(response)).into_response());
    }
    let Some(token) = outcome.stored_payment_method_id.clone() else {
        tracing::error!("approved subscription charge stored no card");
        return Err(SandboxError::Internal);
    };
    let charged_cycle_1 = checked.terms.trial_days.is_none();
    let context = CycleContext {
        token,
        currency: checked.currency,
        merchant: checked.merchant,
    };
    let mut subscription =
        SandboxSubscription::new(Uuid::new_v4(), checked.terms, outcome.charged_at, context);
    if charged_cycle_1 {
        let first = ChargeResult {
            transaction_id: outcome.transaction_id,
            reference: outcome.reference,
            approved: true,
            charged_at: outcome.charged_at,
        };
        let recorded = subscription.bill_next(outcome.charged_at, |_| Ok::<_, Infallible>(first));
        if !matches!(recorded, Ok(Some(_))) {
            tracing::error!("cycle 1 was not due at creation");
            return Err(SandboxError::Internal);
        }
    }
    response.subscription_details = Some(subscription_details(&subscription, View::Creation));
    let id = subscription.id();
    if !state.subscriptions.insert(subscription) {
        tracing::error!(subscription_id = %id, "subscription id collision");
        return Err(SandboxError::Internal);
    }
    tracing::info!(subscription_id = %id, "subscription created");
    Ok((StatusCode::CREATED, Json(response)).into_response())
}
