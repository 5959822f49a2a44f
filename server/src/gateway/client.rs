//! The typed async gateway client: one method per endpoint of gateway-interface.md and
//! gateway-notes.md.
//!
//! Every method validates its input against the contract before anything is sent, runs in a
//! `gateway` tracing span that names only the endpoint, and returns either the typed answer
//! or a [`GatewayError`] saying what to do next. Money-moving and state-changing calls are
//! `POST`s sent exactly once; reads are retried per the configured [`RetryPolicy`](super::RetryPolicy).

use std::fmt;

use serde::Serialize;

use super::config::GatewayConfig;
use super::error::GatewayError;
use super::outcome;
use super::transport::{Reply, Transport};
use checkout::wire::validate::{self, WireValidationError};
use checkout::wire::{
    CaptureRequest, PaymentRequest, RefundRequest, SubscriptionListResponse,
    SubscriptionPaymentRequest, SubscriptionResponse, ThreeDsInitiationResponse,
    TransactionResponse, VoidRequest,
};

/// Client for the gateway's server-to-server interface. Cloning is cheap and shares the
/// connection pool.
#[derive(Clone)]
pub struct GatewayClient {
    transport: Transport,
}

impl fmt::Debug for GatewayClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GatewayClient")
            .field("base_url", &self.transport.base_url())
            .field("credentials", &"[REDACTED]")
            .finish()
    }
}

impl GatewayClient {
    /// Builds a client. Fails with `Config` on an unusable base URL, zero timeouts, or
    /// credentials that cannot be sent as headers.
    pub fn new(config: GatewayConfig) -> Result<Self, GatewayError> {
        Ok(Self {
            transport: Transport::new(&config)?,
        })
    }

    /// `POST /payment`: purchase (card or token form). Declines are `Err(Declined)`.
    #[tracing::instrument(name = "gateway", skip_all, fields(endpoint = "payment"))]
    pub async fn payment(
        &self,
        request: &PaymentRequest,
    ) -> Result<TransactionResponse, GatewayError> {
        request.validate(false)?;
        outcome::transaction(self.post_json("payment", request).await?)
    }

    /// `POST /authorization`: authorization only (`PRE_AUTH`); capture or void it later.
    #[tracing::instrument(name = "gateway", skip_all, fields(endpoint = "authorization"))]
    pub async fn authorization(
        &self,
        request: &PaymentRequest,
    ) -> Result<TransactionResponse, GatewayError> {
        request.validate(false)?;
        outcome::transaction(self.post_json("authorization", request).await?)
    }

    /// `POST /paymentv2`: 3D Secure purchase; `return_url` is required. The answer carries
    /// the redirect for the cardholder's browser and no transaction id.
    #[tracing::instrument(name = "gateway", skip_all, fields(endpoint = "paymentv2"))]
    pub async fn payment_v2(
        &self,
        request: &PaymentRequest,
    ) -> Result<ThreeDsInitiationResponse, GatewayError> {
        request.validate(true)?;
        outcome::three_ds_start(self.post_json("paymentv2", request).await?)
    }

    /// `POST /authorizationv2`: 3D Secure authorization; `return_url` is required.
    #[tracing::instrument(name = "gateway", skip_all, fields(endpoint = "authorizationv2"))]
    pub async fn authorization_v2(
        &self,
        request: &PaymentRequest,
    ) -> Result<ThreeDsInitiationResponse, GatewayError> {
        request.validate(true)?;
        outcome::three_ds_start(self.post_json("authorizationv2", request).await?)
    }

    /// `POST /capture`: capture up to the authorized amount (a smaller capture releases the rest).
    #[tracing::instrument(name = "gateway", skip_all, fields(endpoint = "capture"))]
    pub async fn capture(
        &self,
        request: &CaptureRequest,
    ) -> Result<TransactionResponse, GatewayError> {
        request.validate()?;
        outcome::transaction(self.post_json("capture", request).await?)
    }

    /// `POST /refund`: refund part or all of a captured amount.
    #[tracing::instrument(name = "gateway", skip_all, fields(endpoint = "refund"))]
    pub async fn refund(
        &self,
        request: &RefundRequest,
    ) -> Result<TransactionResponse, GatewayError> {
        request.validate()?;
        outcome::transaction(self.post_json("refund", request).await?)
    }

    /// `POST /void`: cancel an authorization.
    #[tracing::instrument(name = "gateway", skip_all, fields(endpoint = "void"))]
    pub async fn void(&self, request: &VoidRequest) -> Result<TransactionResponse, GatewayError> {
        request.validate()?;
        outcome::transaction(self.post_json("void", request).await?)
    }

    /// `GET /transaction/status/{transactionId}` (retried). A declined transaction is still a
    /// successful lookup: it comes back as `Ok`, check [`TransactionResponse::is_approved`].
    #[tracing::instrument(name = "gateway", skip_all, fields(endpoint = "transaction_status"))]
    pub async fn transaction_status(
        &self,
        transaction_id: &str,
    ) -> Result<TransactionResponse, GatewayError> {
        validate::transaction_id(transaction_id)?;
        let reply = self
            .transport
            .get(&format!("transaction/status/{transaction_id}"))
            .await?;
        outcome::read(reply, |r: &TransactionResponse| {
            r.success || r.transaction_details.is_some()
        })
    }

    /// `POST /subscription/payment`: create a subscription and charge its first cycle.
    #[tracing::instrument(name = "gateway", skip_all, fields(endpoint = "subscription_payment"))]
    pub async fn subscription_payment(
        &self,
        request: &SubscriptionPaymentRequest,
    ) -> Result<TransactionResponse, GatewayError> {
        request.validate()?;
        outcome::transaction(self.post_json("subscription/payment", request).await?)
    }

    /// `POST /subscription/{id}/pause` (no body, never retried).
    #[tracing::instrument(name = "gateway", skip_all, fields(endpoint = "subscription_pause"))]
    pub async fn subscription_pause(
        &self,
        subscription_id: &str,
    ) -> Result<SubscriptionResponse, GatewayError> {
        self.change_subscription(subscription_id, "pause").await
    }

    /// `POST /subscription/{id}/resume` (no body, never retried).
    #[tracing::instrument(name = "gateway", skip_all, fields(endpoint = "subscription_resume"))]
    pub async fn subscription_resume(
        &self,
        subscription_id: &str,
    ) -> Result<SubscriptionResponse, GatewayError> {
        self.change_subscription(subscription_id, "resume").await
    }

    /// `POST /subscription/{id}/cancel` (no body, never retried).
    #[tracing::instrument(name = "gateway", skip_all, fields(endpoint = "subscription_cancel"))]
    pub async fn subscription_cancel(
        &self,
        subscription_id: &str,
    ) -> Result<SubscriptionResponse, GatewayError> {
        self.change_subscription(subscription_id, "cancel").await
    }

    /// `GET /subscription/{id}` with its transaction history (retried).
    #[tracing::instrument(name = "gateway", skip_all, fields(endpoint = "subscription_get"))]
    pub async fn subscription_get(
        &self,
        subscription_id: &str,
    ) -> Result<SubscriptionResponse, GatewayError> {
        validate::subscription_id(subscription_id)?;
        let reply = self
            .transport
            .get(&format!("subscription/{subscription_id}"))
            .await?;
        outcome::read(reply, |r: &SubscriptionResponse| r.success)
    }

    /// `GET /subscription/list` (retried).
    #[tracing::instrument(name = "gateway", skip_all, fields(endpoint = "subscription_list"))]
    pub async fn subscription_list(&self) -> Result<SubscriptionListResponse, GatewayError> {
        let reply = self.transport.get("subscription/list").await?;
        outcome::read(reply, |r: &SubscriptionListResponse| r.success)
    }

    /// A read of `path` whose answer is read up to `max_body` bytes (retried).
    pub(super) async fn get_at_most(
        &self,
        path: &str,
        max_body: usize,
    ) -> Result<Reply, GatewayError> {
        self.transport.get_at_most(path, max_body).await
    }

    async fn change_subscription(
        &self,
        subscription_id: &str,
        action: &str,
    ) -> Result<SubscriptionResponse, GatewayError> {
        validate::subscription_id(subscription_id)?;
        let reply = self
            .transport
            .post(&format!("subscription/{subscription_id}/{action}"), None)
            .await?;
        outcome::subscription_change(reply)
    }

    /// Sends `body` as JSON in one `POST /{path}` (never retried). Only the body's own
    /// serializer exposes card data.
    async fn post_json<T: Serialize>(&self, path: &str, body: &T) -> Result<Reply, GatewayError> {
        let json = serde_json::to_vec(body).map_err(|e| {
            GatewayError::InvalidRequest(WireValidationError::new(
                "body",
                format!("cannot be serialised: {e}"),
            ))
        })?;
        self.transport.post(path, Some(json)).await
    }
}
