//! Pause, resume and cancel. The gateway decides: its answer is stored as it is. A refusal is
//! a 409 naming the transition; a subscription already final (cancelled, expired) is refused
//! without a call, since nothing can change it. When the gateway's answer is lost (timeout,
//! 5xx) the subscription is polled: if it reached the asked-for status the operation
//! succeeded, otherwise the caller learns the outcome is unknown and may retry safely (a
//! repeated pause of a paused subscription is refused, never doubled).
//!
//! The answer is written against the version of the subscription read before the call, like a
//! poll's: if another write came first (a poll that learned a new cycle meanwhile), the
//! subscription is polled again and what the gateway says after the action is written.

use checkout::contract::{SubscriptionAction, SubscriptionStatus};
use time::OffsetDateTime;

use super::{SubscriptionError, Subscriptions};
use crate::gateway::GatewayError;
use crate::store::model::Subscription;
use crate::store::model::subscription::{is_final, status_name};

impl Subscriptions<'_> {
    /// Applies `action` to `subscription` at the gateway, then records the result.
    pub async fn act(
        &self,
        subscription: &Subscription,
        action: SubscriptionAction,
    ) -> Result<Subscription, SubscriptionError> {
        if is_final(subscription.status) {
            return Err(SubscriptionError::Refused {
                code: "subscription_final",
                message: format!(
                    "cannot {} a subscription that is {}",
                    action.as_str(),
                    status_name(subscription.status)
                ),
            });
        }
        let gateway_id = subscription.gateway_subscription_id.as_str();
        let started = OffsetDateTime::now_utc();
        let result = match action {
            SubscriptionAction::Pause => self.gateway.subscription_pause(gateway_id).await,
            SubscriptionAction::Resume => self.gateway.subscription_resume(gateway_id).await,
            SubscriptionAction::Cancel => self.gateway.subscription_cancel(gateway_id).await,
        };
        let endpoint = format!("subscription/{}", action.as_str());
        self.log_call(subscription, &endpoint, started, &result)
            .await;
        match result {
            Ok(response) => {
                let now = OffsetDateTime::now_utc();
                let (updated, applied) = self
                    .apply(subscription, &response.subscription_details, now)
                    .await?;
                tracing::info!(subscription_id = %subscription.id, action = action.as_str(), "subscription changed");
                if !applied.stale {
                    return Ok(updated);
                }
                // Another write came first (a poll that learned a new cycle, another action):
                // the answer is not written over it; what the gateway says now is.
                let (polled, _) = self.poll(&updated, now).await?;
                Ok(polled)
            }
            Err(GatewayError::Rejected {
                status,
                code,
                message,
            }) if (400..500).contains(&status) && status != 404 => {
                // Learn the real status so the stored one is right for the next request.
                if let Err(error) = self.poll_again(subscription).await {
                    tracing::warn!(subscription_id = %subscription.id, %error, "could not refresh a subscription after a refusal");
                }
                Err(SubscriptionError::Refused {
                    code: "subscription_transition_refused",
                    message: format!(
                        "the gateway refused to {} the subscription ({}): {}",
                        action.as_str(),
                        code.as_deref().unwrap_or("no code"),
                        message.as_deref().unwrap_or("no message")
                    ),
                })
            }
            Err(
                error @ (GatewayError::OutcomeUnknown { .. }
                | GatewayError::Unavailable { .. }
                | GatewayError::InvalidResponse { .. }),
            ) => {
                tracing::warn!(subscription_id = %subscription.id, %error, "subscription change outcome unknown; polling");
                match self.poll_again(subscription).await {
                    Ok((updated, _)) if updated.status == target(action) => Ok(updated),
                    _ => Err(SubscriptionError::Gateway(error)),
                }
            }
            Err(error) => Err(SubscriptionError::Gateway(error)),
        }
    }
}

impl Subscriptions<'_> {
    /// Polls `subscription` after an action's call, as it is stored now (the version the
    /// poll's write is checked against is read after the action's call, not before it).
    async fn poll_again(
        &self,
        subscription: &Subscription,
    ) -> Result<(Subscription, super::Applied), SubscriptionError> {
        let fresh = self.find(&subscription.id).await?;
        self.poll(&fresh, OffsetDateTime::now_utc()).await
    }
}

/// The status `action` leads to.
pub fn target(action: SubscriptionAction) -> SubscriptionStatus {
    match action {
        SubscriptionAction::Pause => SubscriptionStatus::Paused,
        SubscriptionAction::Resume => SubscriptionStatus::Active,
        SubscriptionAction::Cancel => SubscriptionStatus::Cancelled,
    }
}
