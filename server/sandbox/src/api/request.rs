//! From a wire payment request to a [`ChargeRequest`]: the contract's limits (wire
//! validation), a known currency, a bounded amount, absolute return addresses on 3DS calls,
//! and the card checked with the shared card rules.

use crate::card_check::ValidatedCard;
use crate::charge::{ChargeRequest, ChargeSource};
use crate::charge_card::ChargePurpose;
use crate::error::SandboxError;
use crate::state::SandboxState;
use crate::validate;
use checkout::wire::{PaymentMethodType, PaymentRequest, ReturnUrl, TransactionType};

/// A checked payment request and, on 3DS calls, its return addresses.
pub struct CheckedPayment {
    /// What to charge.
    pub charge: ChargeRequest,
    /// `return_url` (always present when `three_ds` was asked for).
    pub return_url: Option<ReturnUrl>,
}

/// Validates `body` and builds the charge. `three_ds` makes `return_url` mandatory.
pub fn check_payment(
    state: &SandboxState,
    body: PaymentRequest,
    three_ds: bool,
    transaction_type: TransactionType,
    merchant_ip: Option<String>,
) -> Result<CheckedPayment, SandboxError> {
    body.validate(three_ds).map_err(validate::from_wire)?;
    let currency = validate::currency(&body.currency)?;
    let amount = validate::amount(body.amount.minor_units())?;
    if three_ds && let Some(urls) = &body.return_url {
        validate::return_url(urls)?;
    }
    let method = body.payment_method.as_ref();
    if let Some(kind) = method.map(|m| &m.kind)
        && *kind != PaymentMethodType::Scheme
    {
        return Err(SandboxError::invalid(
            "payment_method.type",
            "must be `scheme`",
        ));
    }
    let store = method.and_then(|m| m.store_payment_method).unwrap_or(false);
    let token = method.and_then(|m| m.stored_payment_method_id.clone());
    let source = match (&body.card, token) {
        (Some(card), _) => ChargeSource::Card(ValidatedCard::from_wire(card, state.clock.now())?),
        (None, Some(token)) => ChargeSource::Token(token),
        (None, None) => {
            return Err(SandboxError::invalid(
                "card",
                "either `card` or `payment_method.stored_payment_method_id` is required",
            ));
        }
    };
    Ok(CheckedPayment {
        charge: ChargeRequest {
            amount,
            currency,
            source,
            store_payment_method: store,
            merchant_id: body.merchant_id,
            merchant_txn_ref: body.merchant_txn_ref,
            billing_address: body.billing_address,
            shipping_address: body.shipping_address,
            customer_ip: body.customer_ip,
            merchant_ip,
            transaction_type,
            purpose: ChargePurpose::Payment,
        },
        return_url: body.return_url,
    })
}
