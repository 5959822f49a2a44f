//! Moving money after a payment, for the merchant: capture an authorization (all or part),
//! refund a capture (in parts, never above what was captured), void an authorization.
//!
//! Each operation leases the payment first, so two requests (or two server instances) cannot
//! both spend the same amount, checks the amount against the record, calls the gateway, and
//! records the step only on the gateway's approval.

use std::time::Duration;

use checkout::contract::PaymentState;

use super::outcome::changes_from;
use super::{PaymentError, PaymentService, now};
use crate::gateway::GatewayError;
use crate::store::model::{Payment, PaymentChanges};
use checkout::wire::{
    CaptureRequest, RefundRequest, RequestAmount, TransactionResponse, VoidRequest,
};

/// How long an operation may hold a payment.
const LEASE: Duration = Duration::from_secs(120);

/// A merchant operation on a payment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Adjustment {
    /// Capture `amount` (default: all) of an authorization.
    Capture(Option<u64>),
    /// Refund `amount` (default: all that is left) of a capture.
    Refund(Option<u64>),
    /// Release an authorization.
    Void,
}

impl PaymentService {
    /// Applies `adjustment` to payment `payment_id` and returns the payment afterwards.
    pub async fn adjust(
        &self,
        payment_id: &str,
        adjustment: Adjustment,
    ) -> Result<Payment, PaymentError> {
        let payment = self.load(payment_id).await?;
        let (to, amount) = plan(&payment, adjustment)?;
        let Some(transaction_id) = payment.gateway_transaction_id.clone() else {
            return Err(invalid_state(&payment, "it has no gateway transaction"));
        };
        let lease = time::Duration::try_from(LEASE).unwrap_or(time::Duration::MINUTE);
        let leased = self
            .store()
            .lease_payment(payment_id, self.instance_id(), now(), lease)
            .await?;
        if !leased {
            return Err(PaymentError::conflict(
                "payment_busy",
                "another operation on this payment is in progress; retry shortly",
            ));
        }
        let result = self
            .adjust_leased(payment_id, adjustment, to, amount, transaction_id)
            .await;
        if let Err(error) = self
            .store()
            .release_payment(payment_id, self.instance_id(), None)
            .await
        {
            tracing::error!(payment_id, %error, "could not release the payment's lease");
        }
        result
    }

    async fn adjust_leased(
        &self,
        payment_id: &str,
        adjustment: Adjustment,
        to: PaymentState,
        amount: u64,
        transaction_id: String,
    ) -> Result<Payment, PaymentError> {
        // Re-read under the lease: another operation may have finished just before.
        let payment = self.load(payment_id).await?;
        let (to_now, amount_now) = plan(&payment, adjustment)?;
        if (to_now, amount_now) != (to, amount) {
            return Err(invalid_state(
                &payment,
                "it changed while the request was waiting",
            ));
        }
        let merchant_id = self.settings().merchant_id.clone();
        let started = now();
        let (endpoint, result): (&str, Result<TransactionResponse, GatewayError>) = match adjustment
        {
            Adjustment::Capture(_) => {
                let request = CaptureRequest {
                    transaction_id,
                    amount: RequestAmount::new(amount),
                    merchant_id,
                    notes: None,
                };
                ("capture", self.gateway().capture(&request).await)
            }
            Adjustment::Refund(_) => {
                let request = RefundRequest {
                    transaction_id,
                    amount: RequestAmount::new(amount),
                    merchant_id,
                    notes: None,
                };
                ("refund", self.gateway().refund(&request).await)
            }
            Adjustment::Void => {
                let request = VoidRequest {
                    transaction_id,
                    merchant_id,
                };
                ("void", self.gateway().void(&request).await)
            }
        };
        self.log_attempt(Some(payment_id), endpoint, started, &result)
            .await;
        let response = result?;
        let gateway = changes_from(&response);
        let changes = match adjustment {
            Adjustment::Capture(_) => PaymentChanges {
                captured_amount: Some(amount),
                ..PaymentChanges::default()
            },
            Adjustment::Refund(_) => PaymentChanges {
                refund: Some(amount),
                ..PaymentChanges::default()
            },
            Adjustment::Void => PaymentChanges::default(),
        };
        tracing::info!(payment_id, endpoint, amount, follow_up = ?gateway.gateway_ref, "gateway accepted the adjustment");
        let advanced = self
            .store()
            .advance_payment(payment_id, &[payment.state], to, changes)
            .await?;
        if !advanced.moved() {
            tracing::error!(
                payment_id,
                endpoint,
                "the gateway accepted an adjustment the store could not record"
            );
            return Err(invalid_state(
                advanced.payment(),
                "it changed during the operation",
            ));
        }
        Ok(advanced.into_payment())
    }

    async fn load(&self, payment_id: &str) -> Result<Payment, PaymentError> {
        self.store()
            .get_payment(payment_id)
            .await?
            .ok_or(PaymentError::NotFound("payment"))
    }
}

/// The state `adjustment` leads to and the amount it moves, or why it cannot be done.
pub fn plan(
    payment: &Payment,
    adjustment: Adjustment,
) -> Result<(PaymentState, u64), PaymentError> {
    match adjustment {
        Adjustment::Capture(amount) => {
            if payment.state != PaymentState::Authorized {
                return Err(invalid_state(
                    payment,
                    "only an authorized payment can be captured",
                ));
            }
            let amount = amount.unwrap_or(payment.amount);
            if amount == 0 || amount > payment.amount {
                return Err(PaymentError::invalid(
                    "invalid_amount",
                    "amount",
                    format!("must be 1 to {} (the authorized amount)", payment.amount),
                ));
            }
            Ok((PaymentState::Captured, amount))
        }
        Adjustment::Refund(amount) => {
            if !matches!(
                payment.state,
                PaymentState::Captured | PaymentState::PartiallyRefunded
            ) {
                return Err(invalid_state(
                    payment,
                    "only a captured payment can be refunded",
                ));
            }
            let refundable = payment.refundable();
            let amount = amount.unwrap_or(refundable);
            if amount == 0 {
                return Err(PaymentError::invalid(
                    "invalid_amount",
                    "amount",
                    "must be at least 1",
                ));
            }
            let Some(to) = payment.state_after_refund(amount) else {
                return Err(PaymentError::Conflict {
                    code: "amount_exceeds_refundable",
                    message: format!("at most {refundable} can still be refunded"),
                    field: Some("amount".into()),
                });
            };
            Ok((to, amount))
        }
        Adjustment::Void => {
            if payment.state != PaymentState::Authorized {
                return Err(invalid_state(
                    payment,
                    "only an authorized, uncaptured payment can be voided",
                ));
            }
            Ok((PaymentState::Voided, payment.amount))
        }
    }
}

fn invalid_state(payment: &Payment, why: &str) -> PaymentError {
    PaymentError::conflict(
        "invalid_state",
        format!(
            "the payment is {}: {why}",
            crate::store::transitions::state_name(payment.state)
        ),
    )
}
