//! [`EventStore`]: events to the shop (written by the store with the change each reports,
//! migration `0003_events`), the shop's webhook endpoints, and the deliveries between them;
//! one of the traits [`Store`](super::Store) gathers.

use async_trait::async_trait;
use time::{Duration, OffsetDateTime};

use super::error::StoreResult;
use super::model::*;

/// Events to the shop (the store writes each with the change it reports, see migration
/// `0003_events`), the shop's webhook endpoints, and the deliveries between them.
#[async_trait]
pub trait EventStore: Send + Sync {
    /// Events, newest first.
    async fn list_events(&self, query: EventQuery) -> StoreResult<Page<StoredEvent>>;
    /// The event with this id.
    async fn get_event(&self, id: &str) -> StoreResult<Option<StoredEvent>>;
    /// The events about `object_id`, oldest first.
    async fn object_events(&self, object_id: &str) -> StoreResult<Vec<StoredEvent>>;
    /// Adds an endpoint; it receives the events fanned out from now on.
    async fn create_endpoint(&self, new: NewEndpoint) -> StoreResult<WebhookEndpoint>;
    /// Every endpoint, oldest first.
    async fn list_endpoints(&self) -> StoreResult<Vec<WebhookEndpoint>>;
    /// The endpoint with this id.
    async fn get_endpoint(&self, id: &str) -> StoreResult<Option<WebhookEndpoint>>;
    /// Applies `update`; `None` when there is no such endpoint.
    async fn update_endpoint(
        &self,
        id: &str,
        update: EndpointUpdate,
    ) -> StoreResult<Option<WebhookEndpoint>>;
    /// Replaces the signing secret; the one it replaces still signs until `previous_until`.
    async fn rotate_endpoint_secret(
        &self,
        id: &str,
        secret: secrecy::SecretString,
        previous_until: OffsetDateTime,
    ) -> StoreResult<Option<WebhookEndpoint>>;
    /// Deletes the endpoint with its deliveries and their log; whether it existed.
    async fn delete_endpoint(&self, id: &str) -> StoreResult<bool>;
    /// Creates the deliveries of up to `limit` events not yet fanned out, one for each enabled
    /// endpoint that takes the event's type; returns how many events it handled. Safe with
    /// several instances at once: each event is fanned out once.
    async fn fan_out_events(&self, now: OffsetDateTime, limit: u32) -> StoreResult<u64>;
    /// As [`fan_out_events`](Self::fan_out_events), telling how many events of each type it
    /// handled (for the metrics).
    async fn fan_out_event_types(
        &self,
        now: OffsetDateTime,
        limit: u32,
    ) -> StoreResult<Vec<(String, u64)>>;
    /// The enabled endpoints with a delivery due now and free of leases, by id.
    async fn due_endpoints(&self, now: OffsetDateTime) -> StoreResult<Vec<String>>;
    /// Leases up to `limit` due deliveries to `endpoint_id` to `owner` for `lease`: each the
    /// oldest pending delivery of its object to that endpoint, so an object's events arrive
    /// in order; none when the endpoint is not enabled. Walks only that endpoint's due
    /// deliveries, and no more of them than it takes.
    async fn claim_endpoint_deliveries(
        &self,
        owner: &str,
        endpoint_id: &str,
        now: OffsetDateTime,
        lease: Duration,
        limit: u32,
    ) -> StoreResult<Vec<DueDelivery>>;
    /// Leases up to `limit` due deliveries across the [`due_endpoints`](Self::due_endpoints),
    /// as [`claim_endpoint_deliveries`](Self::claim_endpoint_deliveries) does for one.
    async fn claim_deliveries(
        &self,
        owner: &str,
        now: OffsetDateTime,
        lease: Duration,
        limit: u32,
    ) -> StoreResult<Vec<DueDelivery>> {
        let mut claimed = Vec::new();
        for endpoint_id in self.due_endpoints(now).await? {
            let left = limit.saturating_sub(u32::try_from(claimed.len()).unwrap_or(u32::MAX));
            if left == 0 {
                break;
            }
            claimed.extend(
                self.claim_endpoint_deliveries(owner, &endpoint_id, now, lease, left)
                    .await?,
            );
        }
        Ok(claimed)
    }
    /// Gives back the lease `owner` holds on a delivery without attempting it (its worker
    /// is sending to that endpoint as much as it will); whether it held it.
    async fn release_delivery(
        &self,
        owner: &str,
        endpoint_id: &str,
        event_seq: i64,
    ) -> StoreResult<bool>;
    /// Records an attempt of a delivery `owner` holds, what became of it (the lease released)
    /// and the endpoint's failing streak (begun by a failure, ended by a success). `false`,
    /// with nothing written, when `owner` no longer holds the lease.
    async fn finish_delivery(
        &self,
        owner: &str,
        endpoint_id: &str,
        event_seq: i64,
        attempt: NewDeliveryAttempt,
        outcome: DeliveryOutcome,
    ) -> StoreResult<bool>;
    /// Records several attempts of deliveries `owner` holds in one transaction, each as
    /// [`finish_delivery`](Self::finish_delivery) would, in the order given; whether each was
    /// recorded (`false`: the lease was no longer `owner`'s).
    async fn finish_deliveries(
        &self,
        owner: &str,
        finished: Vec<FinishedAttempt>,
    ) -> StoreResult<Vec<bool>>;
    /// An endpoint's delivery attempts, newest first, `limit` of them before attempt
    /// `before` (a previous page's last id).
    async fn list_delivery_attempts(
        &self,
        endpoint_id: &str,
        limit: u32,
        before: Option<i64>,
    ) -> StoreResult<Vec<DeliveryAttempt>>;
    /// The deliveries of an event.
    async fn event_deliveries(&self, event_id: &str) -> StoreResult<Vec<Delivery>>;
    /// Sends the event again, to `endpoint_id` or to every endpoint it was delivered to:
    /// pending and due at `now`. Returns how many deliveries that makes.
    async fn redeliver(
        &self,
        event_id: &str,
        endpoint_id: Option<&str>,
        now: OffsetDateTime,
    ) -> StoreResult<u64>;
    /// When the oldest pending delivery to an enabled endpoint was created (a disabled
    /// endpoint's deliveries wait for the merchant, not for the worker).
    async fn oldest_pending_delivery(&self) -> StoreResult<Option<OffsetDateTime>>;
    /// Deletes events created before `before` (and their deliveries); how many.
    async fn prune_events(&self, before: OffsetDateTime) -> StoreResult<u64>;
}
