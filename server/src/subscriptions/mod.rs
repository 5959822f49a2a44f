//! Subscriptions after their first charge: finding them, showing them, pausing, resuming and
//! cancelling them, and polling the gateway for their later cycles (it sends no webhook for
//! those). The gateway is the source of truth: every change is asked of the gateway first and
//! what it answers is then stored ([`Subscriptions::apply`]).
//!
//! Files: [`manage`] (pause/resume/cancel), [`sync`] (gateway answer → store), [`terms`] (a
//! plan as the gateway reports it), [`listed`] (the gateway's whole list, summarised),
//! [`signup_match`] (which listed subscription a lost sign-up made), [`found`] (recording one
//! the store lacked), [`error`].

pub mod error;
pub mod found;
pub mod listed;
pub mod manage;
pub mod signup_match;
pub mod sync;
pub mod terms;

use std::collections::HashMap;
use std::time::Duration;

use checkout::contract::PlanTerms;
use time::OffsetDateTime;

pub use error::SubscriptionError;

use crate::config::PlanCatalogue;
use crate::failpoint::hold::{SUBSCRIPTION_POLL_BEFORE_WRITE, hold_point};
use crate::gateway::{GatewayClient, GatewayError};
use crate::payments::outcome::attempt_outcome;
use crate::store::Store;
use crate::store::model::{
    CycleStatus, CycleUpsert, NewAttempt, Page, Subscription, SubscriptionCycle, SubscriptionQuery,
};
use checkout::wire::SubscriptionDetails;

/// The subscription operations over the server's store and gateway (borrowed: building one
/// costs nothing).
#[derive(Clone, Copy)]
pub struct Subscriptions<'a> {
    store: &'a dyn Store,
    gateway: &'a GatewayClient,
    plans: &'a PlanCatalogue,
    poll_every: Duration,
}

/// What applying one gateway answer recorded.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Applied {
    /// Cycles newly known as paid (new to this server, or failed before and paid on a retry).
    pub new_paid_cycles: Vec<u32>,
    /// Cycles newly known as failed.
    pub new_failed_cycles: Vec<u32>,
    /// Whether the status or counters changed.
    pub changed: bool,
    /// The answer was asked for before another write of the subscription (a pause, say): its
    /// status and counters were not applied.
    pub stale: bool,
}

impl<'a> Subscriptions<'a> {
    /// The operations over `store` and `gateway` for the plans of `plans`; a live
    /// subscription is polled every `poll_every`.
    pub fn new(
        store: &'a dyn Store,
        gateway: &'a GatewayClient,
        plans: &'a PlanCatalogue,
        poll_every: Duration,
    ) -> Self {
        Self {
            store,
            gateway,
            plans,
            poll_every,
        }
    }

    /// The subscription with this id.
    pub async fn find(&self, id: &str) -> Result<Subscription, SubscriptionError> {
        if !plausible_id(id) {
            return Err(SubscriptionError::NotFound);
        }
        self.store
            .get_subscription(id)
            .await?
            .ok_or(SubscriptionError::NotFound)
    }

    /// The subscription with this id if it belongs to `customer_id`; anyone else's is
    /// reported as not existing.
    pub async fn find_owned(
        &self,
        id: &str,
        customer_id: &str,
    ) -> Result<Subscription, SubscriptionError> {
        let subscription = self.find(id).await?;
        if subscription.customer_id.as_deref() == Some(customer_id) {
            Ok(subscription)
        } else {
            Err(SubscriptionError::NotFound)
        }
    }

    /// A page of subscriptions.
    pub async fn list(
        &self,
        query: SubscriptionQuery,
    ) -> Result<Page<Subscription>, SubscriptionError> {
        Ok(self.store.list_subscriptions(query).await?)
    }

    /// The billed cycles of `subscription`, by number.
    pub async fn history(
        &self,
        subscription: &Subscription,
    ) -> Result<Vec<SubscriptionCycle>, SubscriptionError> {
        Ok(self.store.list_cycles(&subscription.id).await?)
    }

    /// The plan's terms from the catalogue, if it is still offered.
    pub fn catalogue_terms(&self, subscription: &Subscription) -> Option<PlanTerms> {
        self.plans.get(&subscription.plan_id).cloned()
    }

    /// The plan's terms: from the catalogue, or, for a plan no longer offered, as the gateway
    /// reports them.
    pub async fn terms(&self, subscription: &Subscription) -> Result<PlanTerms, SubscriptionError> {
        if let Some(terms) = self.catalogue_terms(subscription) {
            return Ok(terms);
        }
        let response = self
            .gateway
            .subscription_get(&subscription.gateway_subscription_id)
            .await?;
        Ok(terms::terms_from_gateway(
            &subscription.plan_id,
            &response.subscription_details,
        ))
    }

    /// Asks the gateway about `subscription` and records what it says (status, counters, new
    /// cycles). Safe to repeat: nothing new, nothing written.
    pub async fn poll(
        &self,
        subscription: &Subscription,
        now: OffsetDateTime,
    ) -> Result<(Subscription, Applied), SubscriptionError> {
        let started = OffsetDateTime::now_utc();
        let result = self
            .gateway
            .subscription_get(&subscription.gateway_subscription_id)
            .await;
        self.log_call(subscription, "subscription", started, &result)
            .await;
        let response = result?;
        hold_point(SUBSCRIPTION_POLL_BEFORE_WRITE, &subscription.id).await;
        self.apply(subscription, &response.subscription_details, now)
            .await
    }

    /// Records the gateway's `details` of `subscription`: status and counters (guarded against
    /// stale answers by the store: `subscription` is the row as read before the gateway was
    /// asked, and a write since then wins), the next poll time, and every cycle in its history
    /// (facts that no later write can contradict).
    pub async fn apply(
        &self,
        subscription: &Subscription,
        details: &SubscriptionDetails,
        now: OffsetDateTime,
    ) -> Result<(Subscription, Applied), SubscriptionError> {
        if details.id != subscription.gateway_subscription_id {
            return Err(SubscriptionError::Gateway(GatewayError::InvalidResponse {
                status: 200,
                reason: "the gateway answered about another subscription".into(),
            }));
        }
        let sync = sync::sync_from(details, subscription.version);
        let next_poll = sync::next_poll_at(&sync, now, self.poll_every);
        let synced = self
            .store
            .sync_subscription(&subscription.id, sync, next_poll)
            .await?;
        if synced.stale {
            tracing::info!(subscription_id = %subscription.id, "a write came first since this answer was asked for: not applied, polled again at the next pass");
        }
        let mut applied = Applied {
            changed: synced.changed,
            stale: synced.stale,
            ..Applied::default()
        };
        let known: HashMap<u32, CycleStatus> = self
            .store
            .list_cycles(&subscription.id)
            .await?
            .into_iter()
            .map(|cycle| (cycle.cycle, cycle.status))
            .collect();
        let first_payment_id = subscription.first_payment_id.as_deref();
        for cycle in sync::cycles_from(&subscription.id, first_payment_id, details) {
            let (number, status) = (cycle.cycle, cycle.status);
            let upsert = self.store.upsert_cycle(cycle).await?;
            // New to this server, or its outcome changed (a failed cycle paid on a retry).
            let news = upsert != CycleUpsert::Unchanged && known.get(&number) != Some(&status);
            if !news {
                continue;
            }
            match status {
                CycleStatus::Succeeded => {
                    tracing::info!(subscription_id = %subscription.id, cycle = number, "subscription cycle paid");
                    applied.new_paid_cycles.push(number);
                }
                CycleStatus::Failed => {
                    tracing::warn!(subscription_id = %subscription.id, cycle = number, "subscription cycle failed");
                    applied.new_failed_cycles.push(number);
                }
            }
        }
        Ok((synced.subscription, applied))
    }

    /// Logs a gateway call about `subscription` in the attempt log.
    async fn log_call<T>(
        &self,
        subscription: &Subscription,
        endpoint: &str,
        started: OffsetDateTime,
        result: &Result<T, GatewayError>,
    ) {
        let (outcome, http_status) = attempt_outcome(result);
        let attempt = NewAttempt {
            payment_id: None,
            subscription_id: Some(subscription.id.clone()),
            endpoint: endpoint.to_owned(),
            started_at: started,
            finished_at: OffsetDateTime::now_utc().max(started),
            outcome,
            http_status,
        };
        if let Err(error) = self.store.record_attempt(attempt).await {
            tracing::error!(endpoint, %error, "could not log a gateway attempt");
        }
    }
}

/// Ids this server issues are UUIDs; anything else cannot name a subscription.
fn plausible_id(id: &str) -> bool {
    (1..=64).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}
