//! Turning gateway answers into state steps, and logging every gateway call as an attempt.
//!
//! - approved → `captured` (purchase) or `authorized` (authorization), with the gateway id;
//! - declined → `declined` with a [`DeclineCode`];
//! - refused without processing (validation, credentials) or never sent → `failed`;
//! - outcome unknown (timeout, 5xx, unreadable) → stays `pending` for the status endpoint.

use checkout::contract::{DeclineCode, PaymentState};
use time::OffsetDateTime;

use super::{PaymentError, PaymentService, now};
use crate::gateway::GatewayError;
use crate::store::model::{AttemptOutcome, NewAttempt, Payment, PaymentChanges, PaymentKind};
use crate::store::transitions::can_advance;
use checkout::wire::TransactionResponse;

/// `gateway_response.code` of a 3DS authentication the cardholder did not pass. The contract
/// shows no decline codes; this is the emulator's (docs/sandbox.md), and any other code falls
/// back to the response code.
const THREE_DS_REJECTED: &str = "ERR2002";

/// The shopper-facing reason for a decline.
pub fn decline_code(response_code: i64, gateway_code: &str) -> DeclineCode {
    if gateway_code.eq_ignore_ascii_case(THREE_DS_REJECTED) {
        DeclineCode::AuthenticationFailed
    } else {
        DeclineCode::from_response_code(response_code)
    }
}

/// The state an approved charge of `kind` reaches.
pub fn approved_state(kind: PaymentKind) -> PaymentState {
    match kind {
        PaymentKind::AuthorizationV2 | PaymentKind::TokenAuthorization => PaymentState::Authorized,
        PaymentKind::PaymentV2 | PaymentKind::TokenPayment | PaymentKind::Subscription => {
            PaymentState::Captured
        }
    }
}

/// Gateway id, reference and response code of a transaction, as state-step changes.
pub fn changes_from(response: &TransactionResponse) -> PaymentChanges {
    let details = response.transaction_details.as_ref();
    PaymentChanges {
        gateway_transaction_id: details.map(|d| d.id.clone()),
        gateway_ref: details
            .and_then(|d| d.reference.as_u64())
            .and_then(|r| i64::try_from(r).ok()),
        response_code: response.response_code(),
        ..PaymentChanges::default()
    }
}

/// How an attempt ended, and the HTTP status when known.
pub fn attempt_outcome<T>(result: &Result<T, GatewayError>) -> (AttemptOutcome, Option<u16>) {
    match result {
        Ok(_) => (AttemptOutcome::Succeeded, None),
        Err(error) => match error {
            GatewayError::Declined { .. } => (AttemptOutcome::Declined, None),
            GatewayError::Rejected { status, .. } => (AttemptOutcome::Rejected, Some(*status)),
            GatewayError::InvalidResponse { status, .. } => {
                (AttemptOutcome::Rejected, Some(*status))
            }
            GatewayError::NotFound => (AttemptOutcome::Rejected, Some(404)),
            GatewayError::InvalidRequest(_) | GatewayError::Config { .. } => {
                (AttemptOutcome::Transport, None)
            }
            GatewayError::Unauthorized { status } => (AttemptOutcome::Unauthorized, Some(*status)),
            GatewayError::OutcomeUnknown { .. } => (AttemptOutcome::OutcomeUnknown, None),
            GatewayError::Transport { .. } => (AttemptOutcome::Transport, None),
            GatewayError::Unavailable { status } => (AttemptOutcome::Transport, Some(*status)),
        },
    }
}

/// A gateway call that just finished, to be logged with whatever its answer leads to.
#[derive(Debug, Clone, Copy)]
pub struct Attempt {
    /// Endpoint name, e.g. `payment`.
    pub endpoint: &'static str,
    /// When the request was sent.
    pub started_at: OffsetDateTime,
    /// When the answer (or the failure) came.
    pub finished_at: OffsetDateTime,
}

impl Attempt {
    /// A call to `endpoint` started at `started_at` and finished now: make it right after the
    /// call returns.
    pub fn new(endpoint: &'static str, started_at: OffsetDateTime) -> Self {
        Self {
            endpoint,
            started_at,
            finished_at: now(),
        }
    }

    /// The log record of this call for `payment_id`, ended as `result` says.
    fn record<T>(self, payment_id: &str, result: &Result<T, GatewayError>) -> NewAttempt {
        let (outcome, http_status) = attempt_outcome(result);
        NewAttempt {
            payment_id: Some(payment_id.to_owned()),
            subscription_id: None,
            endpoint: self.endpoint.to_owned(),
            started_at: self.started_at,
            finished_at: self.finished_at,
            outcome,
            http_status,
        }
    }
}

impl PaymentService {
    /// Logs a finished gateway call. A failure to log is itself logged and does not change
    /// the payment's outcome.
    pub async fn log_attempt<T>(
        &self,
        payment_id: Option<&str>,
        endpoint: &str,
        started_at: OffsetDateTime,
        result: &Result<T, GatewayError>,
    ) {
        let (outcome, http_status) = attempt_outcome(result);
        let attempt = NewAttempt {
            payment_id: payment_id.map(str::to_owned),
            subscription_id: None,
            endpoint: endpoint.to_owned(),
            started_at,
            finished_at: now(),
            outcome,
            http_status,
        };
        if let Err(error) = self.store().record_attempt(attempt).await {
            tracing::error!(endpoint, %error, "could not log a gateway attempt");
        }
    }

    /// Applies the answer of a synchronous charge (`/payment`, `/authorization`,
    /// `/subscription/payment`) to a `pending` payment, logging `attempt` (the call that gave
    /// `result`) in the same transaction as the step. `extra` is merged into the approval's
    /// changes (e.g. the subscription it started). An unknown outcome leaves it pending (the
    /// call is then logged on its own).
    pub async fn finish_charge(
        &self,
        payment: Payment,
        attempt: Attempt,
        result: &Result<TransactionResponse, GatewayError>,
        extra: PaymentChanges,
    ) -> Result<Payment, PaymentError> {
        let (to, changes) = match result {
            Ok(response) => (
                approved_state(payment.kind),
                PaymentChanges {
                    subscription_id: extra.subscription_id,
                    ..changes_from(response)
                },
            ),
            Err(GatewayError::Declined {
                response_code,
                code,
                transaction,
                ..
            }) => (
                PaymentState::Declined,
                PaymentChanges {
                    decline_code: Some(decline_code(*response_code, code)),
                    response_code: Some(*response_code),
                    ..changes_from(transaction)
                },
            ),
            Err(error) if is_unknown(error) => {
                tracing::warn!(payment_id = %payment.id, %error, "payment outcome unknown; left pending for the status endpoint");
                let logged = attempt.record(&payment.id, result);
                if let Err(error) = self.store().record_attempt(logged).await {
                    tracing::error!(endpoint = attempt.endpoint, %error, "could not log a gateway attempt");
                }
                return Ok(payment);
            }
            Err(error) => {
                tracing::warn!(payment_id = %payment.id, %error, "payment failed at the gateway");
                (PaymentState::Failed, PaymentChanges::default())
            }
        };
        let logged = attempt.record(&payment.id, result);
        self.step_with(payment, to, changes, Some(logged)).await
    }

    /// Moves a `pending` payment to `to`; declined and failed payments give their session
    /// back so the shopper can try again (unless superseded: the claim is a later payment's).
    /// A step to a paid state in a session with other payments applies the surplus rule.
    pub(crate) async fn step(
        &self,
        payment: Payment,
        to: PaymentState,
        changes: PaymentChanges,
    ) -> Result<Payment, PaymentError> {
        self.step_with(payment, to, changes, None).await
    }

    /// [`step`](Self::step), logging `attempt` in the same transaction when given.
    async fn step_with(
        &self,
        payment: Payment,
        to: PaymentState,
        changes: PaymentChanges,
        attempt: Option<NewAttempt>,
    ) -> Result<Payment, PaymentError> {
        let mut from: Vec<PaymentState> = UNSETTLED
            .into_iter()
            .filter(|state| can_advance(*state, to))
            .collect();
        if payment.is_abandoned_at_the_bank() && to.is_paid() {
            // Proven charged after all: recorded, then reversed by the surplus rule.
            from.push(PaymentState::Failed);
        }
        crate::failpoint::before_recording(to).await;
        let store = self.store();
        let advanced = match attempt {
            Some(attempt) => {
                store
                    .advance_payment_logged(&payment.id, &from, to, changes, attempt)
                    .await?
            }
            None => {
                store
                    .advance_payment(&payment.id, &from, to, changes)
                    .await?
            }
        };
        let moved = advanced.moved();
        let payment = advanced.into_payment();
        if moved {
            tracing::info!(payment_id = %payment.id, state = ?payment.state, "payment settled");
            self.risk().after_try(Some(payment.state));
            let holds_claim = payment.retry.superseded_by.is_none();
            if holds_claim && matches!(payment.state, PaymentState::Declined | PaymentState::Failed)
            {
                self.release_session(&payment.session_id).await;
            }
            if payment.retry.surplus_due_at.is_some() {
                // Another payment of the session exists: the surplus rule decides which
                // charge stays. Its work is durable (due in the step's statement), so a
                // failure here is left to the reconciler.
                self.apply_surplus_rule(&payment.session_id).await;
            }
        }
        Ok(payment)
    }
}

/// States a payment can be settled from by a gateway answer or a status lookup.
const UNSETTLED: [PaymentState; 3] = [
    PaymentState::Created,
    PaymentState::Pending,
    PaymentState::NeedsReview,
];

/// The gateway may have acted: never repeat, settle through the status endpoint.
pub fn is_unknown(error: &GatewayError) -> bool {
    matches!(
        error,
        GatewayError::OutcomeUnknown { .. }
            | GatewayError::Unavailable { .. }
            | GatewayError::InvalidResponse { .. }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decline_reasons() {
        assert_eq!(decline_code(51, "ERR2001"), DeclineCode::InsufficientFunds);
        assert_eq!(
            decline_code(5, "ERR2002"),
            DeclineCode::AuthenticationFailed
        );
        assert_eq!(decline_code(-8009, "ERR3010"), DeclineCode::RiskRejected);
        assert_eq!(decline_code(-1, "X"), DeclineCode::Other);
    }

    #[test]
    fn approvals_follow_the_endpoint() {
        assert_eq!(
            approved_state(PaymentKind::AuthorizationV2),
            PaymentState::Authorized
        );
        assert_eq!(
            approved_state(PaymentKind::TokenPayment),
            PaymentState::Captured
        );
    }

    #[test]
    fn attempt_outcomes() {
        let unknown: Result<(), _> = Err(GatewayError::OutcomeUnknown {
            reason: "timeout".into(),
        });
        assert_eq!(attempt_outcome(&unknown).0, AttemptOutcome::OutcomeUnknown);
        let refused: Result<(), _> = Err(GatewayError::Rejected {
            status: 412,
            code: None,
            message: None,
        });
        assert_eq!(
            attempt_outcome(&refused),
            (AttemptOutcome::Rejected, Some(412))
        );
    }
}
