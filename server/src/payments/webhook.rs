//! Gateway webhooks. A notification is only a hint: it is recorded (by body digest, so a
//! repeated delivery is recognised and changes nothing), then judged by settling the payment
//! through the status endpoint and comparing what the notification claimed with what the
//! gateway says. A claim the gateway contradicts ("paid" for an unpaid payment) is logged as
//! a warning and changes nothing. A confirmed approval of a payment whose shopper asked to save
//! the card saves its token for the customer: the status lookup's token where the gateway puts
//! one there, else the notification's (the 3DS flow returns the token only there), taken only
//! after the lookup confirmed the very transaction the notification names.

use checkout::contract::PaymentState;
use secrecy::SecretString;

use super::settle::{Hint, HintFrom, StatusVerdict, is_transaction_id};
use super::{PaymentError, PaymentService, now};
use crate::store::model::{
    NewSavedCard, NewWebhookEvent, Payment, PaymentKind, WebhookEvent, WebhookReceipt,
    WebhookVerdict,
};
use crate::store::prelude::*;
use checkout::wire::{GatewayResponseType, TransactionResponse};

/// What a notification claims, read leniently (an unreadable body claims nothing).
#[derive(Debug, Clone, Default)]
pub struct WebhookClaim {
    /// `transaction_details.id`, when it looks like one.
    pub transaction_id: Option<String>,
    /// The outcome claimed.
    pub state: Option<PaymentState>,
    /// `payment_details.amount`.
    pub amount: Option<u64>,
    /// `payment_details.currency`.
    pub currency: Option<String>,
    /// `transaction_details.stored_payment_method_id`: a card token (kept wrapped).
    pub token: Option<SecretString>,
}

impl WebhookClaim {
    /// Reads `body` as a transaction response for a payment of `kind`.
    pub fn read(body: &[u8], kind: PaymentKind) -> Self {
        let Ok(response) = serde_json::from_slice::<TransactionResponse>(body) else {
            return Self::default();
        };
        let details = response.transaction_details.as_ref();
        Self {
            transaction_id: details
                .map(|d| d.id.clone())
                .filter(|id| is_transaction_id(id)),
            state: claimed_state(&response, kind),
            amount: response
                .payment_details
                .as_ref()
                .map(|p| p.amount.minor_units()),
            currency: response
                .payment_details
                .as_ref()
                .map(|p| p.currency.clone()),
            token: details
                .and_then(|d| d.token())
                .filter(|t| !t.is_empty() && t.len() <= 128)
                .map(|t| SecretString::from(t.to_owned())),
        }
    }
}

fn claimed_state(response: &TransactionResponse, kind: PaymentKind) -> Option<PaymentState> {
    response.payment_details.as_ref()?;
    Some(if response.is_approved() {
        super::outcome::approved_state(kind)
    } else if response.gateway_response.kind == GatewayResponseType::Info {
        PaymentState::Pending
    } else {
        PaymentState::Declined
    })
}

impl PaymentService {
    /// Records a delivery for `payment`. A repeat of an earlier body comes back as
    /// [`WebhookReceipt::Duplicate`] (already recorded as such) and needs nothing more.
    pub async fn record_webhook(
        &self,
        payment: &Payment,
        body: &[u8],
        claim: &WebhookClaim,
    ) -> Result<WebhookReceipt, PaymentError> {
        Ok(self
            .store()
            .record_webhook(NewWebhookEvent {
                payment_id: payment.id.clone(),
                received_at: now(),
                body_digest: BodyDigest::of(body),
                gateway_transaction_id: claim.transaction_id.clone(),
                claimed_state: claim.state,
                claimed_amount: claim.amount,
                claimed_currency: claim.currency.clone(),
            })
            .await?)
    }

    /// Judges a first delivery: settles the payment from the status endpoint, compares the
    /// claim, stores the verdict and, for a confirmed approval with a token, saves the card.
    pub async fn judge_webhook(
        &self,
        event: &WebhookEvent,
        claim: WebhookClaim,
    ) -> Result<WebhookVerdict, PaymentError> {
        let hint = claim.transaction_id.as_deref().map(|id| Hint {
            id,
            from: HintFrom::Webhook,
        });
        let settlement = self.settle(&event.payment_id, hint).await?;
        let payment = &settlement.payment;
        let verdict = match &settlement.verdict {
            StatusVerdict::Mismatch(_) => WebhookVerdict::Mismatch,
            StatusVerdict::LookupFailed(_) | StatusVerdict::NoTransactionId => {
                WebhookVerdict::Received
            }
            StatusVerdict::UnknownTransaction | StatusVerdict::HintRejected => {
                WebhookVerdict::Forged
            }
            StatusVerdict::AlreadySettled | StatusVerdict::Confirmed { .. } => {
                let same_transaction =
                    match (&claim.transaction_id, &payment.gateway_transaction_id) {
                        (Some(claimed), Some(known)) => claimed == known,
                        _ => true,
                    };
                match claim.state {
                    None => WebhookVerdict::Received,
                    Some(claimed)
                        if same_transaction && category(claimed) == category(payment.state) =>
                    {
                        WebhookVerdict::Confirmed
                    }
                    Some(_) => WebhookVerdict::Forged,
                }
            }
        };
        if verdict == WebhookVerdict::Forged {
            if claim.state.is_some_and(PaymentState::is_paid) && !payment.state.is_paid() {
                tracing::warn!(payment_id = %payment.id, state = ?payment.state, "forged webhook: it claims a payment the gateway does not confirm; nothing changed");
            } else {
                tracing::warn!(payment_id = %payment.id, state = ?payment.state, "webhook contradicts the gateway's status; nothing changed");
            }
        }
        self.store().set_webhook_verdict(event.id, verdict).await?;
        let confirmed_transaction = claim.transaction_id.is_some()
            && claim.transaction_id == payment.gateway_transaction_id;
        if verdict == WebhookVerdict::Confirmed
            && confirmed_transaction
            && payment.state.is_paid()
            && payment.save_card
        {
            let token = settlement.card_token.clone().or(claim.token);
            self.save_card(payment, token).await?;
        }
        Ok(verdict)
    }

    /// Saves the token of a paid payment's card for its customer (idempotent in the store).
    async fn save_card(
        &self,
        payment: &Payment,
        token: Option<SecretString>,
    ) -> Result<(), PaymentError> {
        let (Some(token), Some(customer_id), Some(card)) =
            (token, &payment.customer_id, &payment.card)
        else {
            return Ok(());
        };
        let saved = self
            .store()
            .save_card(NewSavedCard {
                customer_id: customer_id.clone(),
                gateway_token: token,
                brand: card.brand,
                last4: card.last4.clone(),
                expiry_month: card.expiry_month,
                expiry_year: card.expiry_year,
                card_fingerprint: payment.card_fingerprint.clone(),
                saved_from: Some(payment.id.clone()),
            })
            .await?;
        tracing::info!(payment_id = %payment.id, card_id = %saved.id, "card saved for the customer");
        Ok(())
    }
}

/// Paid, refused, or still open: what a claim and the record are compared by.
#[derive(Debug, PartialEq, Eq)]
enum Category {
    Paid,
    Refused,
    Open,
}

fn category(state: PaymentState) -> Category {
    match state {
        PaymentState::Authorized
        | PaymentState::Captured
        | PaymentState::PartiallyRefunded
        | PaymentState::Refunded
        | PaymentState::Voided => Category::Paid,
        PaymentState::Declined | PaymentState::Failed | PaymentState::Blocked => Category::Refused,
        PaymentState::Created | PaymentState::Pending | PaymentState::NeedsReview => Category::Open,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn notification(success: bool, code: i64, kind: &str) -> Vec<u8> {
        json!({
            "success": success, "status_code": 200, "is_live": false, "transaction_type": "CAPTURE",
            "gateway_response": {"version": "1", "type": kind, "code": "INFO0000", "message": "m"},
            "merchant_details": {"legal_name": "x", "mid": "m", "merchant_txn_ref": "o1"},
            "payment_details": {"amount": 1000, "response_code": code, "auth_code": null,
                "currency": "JPY", "payment_method": null, "scheme": "VISA"},
            "transaction_details": {"id": "0b6f3a52-3c6e-4f0e-9a53-1d2c3b4a5f60", "ref": 1,
                "timestamp": "2024-06-01T09:30:15Z", "merchant_txn_ref": "o1", "stored_payment_method_id": "tok_1"},
            "risk-details": {}
        })
        .to_string()
        .into_bytes()
    }

    #[test]
    fn reads_claims() {
        let paid = WebhookClaim::read(&notification(true, 0, "INFO"), PaymentKind::PaymentV2);
        assert_eq!(paid.state, Some(PaymentState::Captured));
        assert_eq!(paid.amount, Some(1000));
        assert!(paid.token.is_some());
        let auth = WebhookClaim::read(&notification(true, 0, "INFO"), PaymentKind::AuthorizationV2);
        assert_eq!(auth.state, Some(PaymentState::Authorized));
        let declined =
            WebhookClaim::read(&notification(false, 51, "ERROR"), PaymentKind::PaymentV2);
        assert_eq!(declined.state, Some(PaymentState::Declined));
        let garbage = WebhookClaim::read(b"<html>", PaymentKind::PaymentV2);
        assert_eq!(garbage.state, None);
        assert!(garbage.transaction_id.is_none());
    }

    #[test]
    fn categories() {
        assert_eq!(category(PaymentState::Refunded), Category::Paid);
        assert_eq!(category(PaymentState::Failed), Category::Refused);
        assert_eq!(category(PaymentState::NeedsReview), Category::Open);
    }
}
