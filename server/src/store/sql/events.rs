//! The events outbox (written by the triggers of migration `0003_events`) and its fan-out into
//! one delivery per endpoint; the deliveries' leases and log are `deliveries.rs`, called from
//! the one [`EventStore`] implementation here.

use async_trait::async_trait;
use secrecy::SecretString;
use sqlx::{Encode, Executor, FromRow, IntoArguments, Type};
use time::{Duration, OffsetDateTime};

use super::codec::{ms, time};
use super::deliveries::{self, AttemptRow, ClaimedRow, DeliveryRow};
use super::endpoints::{self, EndpointRow};
use super::finish::{self, FinishedRow};
use super::payments::page_cursor;
use super::rows::{EVENT_COLUMNS, EventRow, IdRow, SeqRow};
use super::sealed_columns::SealedRow;
use super::{Dialect, SqlStore};
use crate::store::error::{StoreError, StoreResult};
use crate::store::events::EventStore;
use crate::store::model::page::effective_limit;
use crate::store::model::{
    Delivery, DeliveryAttempt, DeliveryOutcome, DueDelivery, EndpointUpdate, EventQuery,
    FinishedAttempt, NewDeliveryAttempt, NewEndpoint, Page, StoredEvent, WebhookEndpoint,
};

#[derive(FromRow)]
pub(crate) struct TypedSeqRow {
    seq: i64,
    #[sqlx(rename = "type")]
    kind: String,
}

#[derive(FromRow)]
pub(crate) struct OldestRow {
    oldest: Option<i64>,
}

#[async_trait]
impl<DB> EventStore for SqlStore<DB>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'q> Option<i64>: Encode<'q, DB>,
    for<'q> Option<String>: Encode<'q, DB>,
    for<'r> EventRow: FromRow<'r, DB::Row>,
    for<'r> EndpointRow: FromRow<'r, DB::Row>,
    for<'r> SealedRow: FromRow<'r, DB::Row>,
    for<'r> ClaimedRow: FromRow<'r, DB::Row>,
    for<'r> DeliveryRow: FromRow<'r, DB::Row>,
    for<'r> AttemptRow: FromRow<'r, DB::Row>,
    for<'r> SeqRow: FromRow<'r, DB::Row>,
    for<'r> IdRow: FromRow<'r, DB::Row>,
    for<'r> FinishedRow: FromRow<'r, DB::Row>,
    for<'r> TypedSeqRow: FromRow<'r, DB::Row>,
    for<'r> OldestRow: FromRow<'r, DB::Row>,
{
    async fn list_events(&self, query: EventQuery) -> StoreResult<Page<StoredEvent>> {
        let limit = effective_limit(query.limit);
        let (after_ms, after_seq) = match &query.after {
            Some(cursor) => (
                Some(cursor.created_at_ms),
                Some(cursor.id.parse::<i64>().map_err(|_| StoreError::Invalid {
                    field: "starting_after",
                    reason: "is not a cursor this server issued",
                })?),
            ),
            None => (None, None),
        };
        let sql = format!(
            "SELECT {EVENT_COLUMNS} FROM events \
             WHERE ($1 IS NULL OR type = $1) AND ($2 IS NULL OR object_id = $2) \
             AND ($3 IS NULL OR created_at >= $3) AND ($4 IS NULL OR created_at < $4) \
             AND ($5 IS NULL OR created_at < $5 OR (created_at = $5 AND seq < $6)) \
             ORDER BY created_at DESC, seq DESC LIMIT $7"
        );
        let rows = sqlx::query_as::<DB, EventRow>(&sql)
            .bind(query.kind)
            .bind(query.object_id)
            .bind(query.created_from.map(ms))
            .bind(query.created_before.map(ms))
            .bind(after_ms)
            .bind(after_seq)
            .bind(i64::from(limit) + 1)
            .fetch_all(&self.pool)
            .await?;
        let mut items = rows
            .into_iter()
            .map(StoredEvent::try_from)
            .collect::<StoreResult<Vec<_>>>()?;
        let next = page_cursor(&mut items, limit, |e| (ms(e.created_at), e.seq.to_string()));
        Ok(Page { items, next })
    }

    async fn get_event(&self, id: &str) -> StoreResult<Option<StoredEvent>> {
        let sql = format!("SELECT {EVENT_COLUMNS} FROM events WHERE id = $1");
        super::fetch::optional_by_key::<DB, EventRow, StoredEvent>(&self.pool, &sql, id).await
    }

    async fn object_events(&self, object_id: &str) -> StoreResult<Vec<StoredEvent>> {
        let sql = format!("SELECT {EVENT_COLUMNS} FROM events WHERE object_id = $1 ORDER BY seq");
        super::fetch::all_by_key::<DB, EventRow, StoredEvent>(&self.pool, &sql, object_id).await
    }

    async fn create_endpoint(&self, new: NewEndpoint) -> StoreResult<WebhookEndpoint> {
        endpoints::create(&self.pool, &self.keys, new).await
    }

    async fn list_endpoints(&self) -> StoreResult<Vec<WebhookEndpoint>> {
        endpoints::list(&self.pool, &self.keys).await
    }

    async fn get_endpoint(&self, id: &str) -> StoreResult<Option<WebhookEndpoint>> {
        endpoints::get(&self.pool, &self.keys, id).await
    }

    async fn update_endpoint(
        &self,
        id: &str,
        update: EndpointUpdate,
    ) -> StoreResult<Option<WebhookEndpoint>> {
        endpoints::update(&self.pool, &self.keys, id, update).await
    }

    async fn rotate_endpoint_secret(
        &self,
        id: &str,
        secret: SecretString,
        previous_until: OffsetDateTime,
    ) -> StoreResult<Option<WebhookEndpoint>> {
        endpoints::rotate(&self.pool, &self.keys, id, &secret, previous_until).await
    }

    async fn delete_endpoint(&self, id: &str) -> StoreResult<bool> {
        let mut tx = self.pool.begin().await?;
        for sql in [
            "DELETE FROM delivery_attempts WHERE endpoint_id = $1",
            "DELETE FROM event_deliveries WHERE endpoint_id = $1",
        ] {
            sqlx::query::<DB>(sql)
                .bind(id.to_owned())
                .execute(&mut *tx)
                .await?;
        }
        let deleted = sqlx::query::<DB>("DELETE FROM webhook_endpoints WHERE id = $1")
            .bind(id.to_owned())
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(DB::rows_affected(&deleted) == 1)
    }

    async fn fan_out_events(&self, now: OffsetDateTime, limit: u32) -> StoreResult<u64> {
        let types = self.fan_out_event_types(now, limit).await?;
        Ok(types.iter().map(|(_, count)| count).sum())
    }

    async fn fan_out_event_types(
        &self,
        now: OffsetDateTime,
        limit: u32,
    ) -> StoreResult<Vec<(String, u64)>> {
        let mut tx = self.pool.begin_with(DB::BEGIN_WRITE).await?;
        // Postgres: another instance fanning out skips the events this one locked.
        let picked = sqlx::query_as::<DB, TypedSeqRow>(&format!(
            "SELECT seq, type FROM events WHERE fanned_out = 0 ORDER BY seq LIMIT $1 {}",
            DB::SKIP_LOCKED
        ))
        .bind(i64::from(limit))
        .fetch_all(&mut *tx)
        .await?;
        if picked.is_empty() {
            return Ok(Vec::new());
        }
        // Exactly the picked events: on Postgres, one between them may be another instance's
        // (skipped as locked), and a range would wait for its lock while that instance waits
        // for one of these (a deadlock, seen with two instances fanning out at once).
        let listed = picked
            .iter()
            .map(|row| row.seq.to_string())
            .collect::<Vec<_>>()
            .join(",");
        let now = ms(now);
        sqlx::query::<DB>(&format!(
            "INSERT INTO event_deliveries (endpoint_id, event_seq, object_id, state, attempts, \
             next_attempt_at, created_at, updated_at) \
             SELECT w.id, e.seq, e.object_id, 'pending', 0, $2, $2, $2 \
             FROM events AS e CROSS JOIN webhook_endpoints AS w \
             WHERE {} AND e.fanned_out = 0 AND w.status = 'enabled' \
             AND (w.event_types = '*' OR w.event_types LIKE '%,' || e.type || ',%') \
             ON CONFLICT (endpoint_id, event_seq) DO NOTHING",
            DB::among_listed("e.seq", "$1")
        ))
        .bind(listed.clone())
        .bind(now)
        .execute(&mut *tx)
        .await?;
        let marked = sqlx::query::<DB>(&format!(
            "UPDATE events SET fanned_out = 1 WHERE {} AND fanned_out = 0",
            DB::among_listed("seq", "$1")
        ))
        .bind(listed)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        // Every picked event was marked here (locked, or SQLite's one writer), unless another
        // instance marked them first: then this one handled none of them.
        if DB::rows_affected(&marked) == 0 {
            return Ok(Vec::new());
        }
        let mut types: Vec<(String, u64)> = Vec::new();
        for row in picked {
            match types.iter_mut().find(|(kind, _)| *kind == row.kind) {
                Some((_, count)) => *count += 1,
                None => types.push((row.kind, 1)),
            }
        }
        Ok(types)
    }

    async fn due_endpoints(&self, now: OffsetDateTime) -> StoreResult<Vec<String>> {
        let rows = sqlx::query_as::<DB, IdRow>(
            "SELECT w.id FROM webhook_endpoints AS w WHERE w.status = 'enabled' AND EXISTS \
             (SELECT 1 FROM event_deliveries AS d WHERE d.endpoint_id = w.id \
              AND d.state = 'pending' AND d.next_attempt_at <= $1 \
              AND (d.lease_until IS NULL OR d.lease_until <= $1)) \
             ORDER BY w.id",
        )
        .bind(ms(now))
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(|row| row.id).collect())
    }

    async fn claim_endpoint_deliveries(
        &self,
        owner: &str,
        endpoint_id: &str,
        now: OffsetDateTime,
        lease: Duration,
        limit: u32,
    ) -> StoreResult<Vec<DueDelivery>> {
        deliveries::claim(
            &self.pool,
            &self.keys,
            owner,
            endpoint_id,
            now,
            lease,
            limit,
        )
        .await
    }

    async fn release_delivery(
        &self,
        owner: &str,
        endpoint_id: &str,
        event_seq: i64,
    ) -> StoreResult<bool> {
        deliveries::release(&self.pool, owner, endpoint_id, event_seq).await
    }

    async fn finish_delivery(
        &self,
        owner: &str,
        endpoint_id: &str,
        event_seq: i64,
        attempt: NewDeliveryAttempt,
        outcome: DeliveryOutcome,
    ) -> StoreResult<bool> {
        let finished = FinishedAttempt {
            endpoint_id: endpoint_id.to_owned(),
            event_seq,
            attempt,
            outcome,
        };
        let recorded = self.finish_deliveries(owner, vec![finished]).await?;
        Ok(recorded.first().copied().unwrap_or(false))
    }

    async fn finish_deliveries(
        &self,
        owner: &str,
        finished: Vec<FinishedAttempt>,
    ) -> StoreResult<Vec<bool>> {
        if finished.is_empty() {
            return Ok(Vec::new());
        }
        let mut tx = self.pool.begin().await?;
        let recorded = finish::record::<DB>(&mut tx, owner, &finished).await?;
        tx.commit().await?;
        Ok(recorded)
    }

    async fn list_delivery_attempts(
        &self,
        endpoint_id: &str,
        limit: u32,
        before: Option<i64>,
    ) -> StoreResult<Vec<DeliveryAttempt>> {
        deliveries::attempts(&self.pool, endpoint_id, limit, before).await
    }

    async fn event_deliveries(&self, event_id: &str) -> StoreResult<Vec<Delivery>> {
        deliveries::of_event(&self.pool, event_id).await
    }

    async fn redeliver(
        &self,
        event_id: &str,
        endpoint_id: Option<&str>,
        now: OffsetDateTime,
    ) -> StoreResult<u64> {
        deliveries::redeliver(&self.pool, event_id, endpoint_id, now).await
    }

    async fn oldest_pending_delivery(&self) -> StoreResult<Option<OffsetDateTime>> {
        let row = sqlx::query_as::<DB, OldestRow>(
            "SELECT MIN(created_at) AS oldest FROM event_deliveries WHERE state = 'pending' \
             AND endpoint_id IN (SELECT id FROM webhook_endpoints WHERE status = 'enabled')",
        )
        .fetch_one(&self.pool)
        .await?;
        row.oldest.map(|at| time(at, "created_at")).transpose()
    }

    async fn prune_events(&self, before: OffsetDateTime) -> StoreResult<u64> {
        let before = ms(before);
        let mut tx = self.pool.begin().await?;
        for sql in [
            "DELETE FROM delivery_attempts WHERE event_seq IN \
             (SELECT seq FROM events WHERE created_at < $1 AND fanned_out = 1)",
            "DELETE FROM event_deliveries WHERE event_seq IN \
             (SELECT seq FROM events WHERE created_at < $1 AND fanned_out = 1)",
        ] {
            sqlx::query::<DB>(sql)
                .bind(before)
                .execute(&mut *tx)
                .await?;
        }
        let pruned =
            sqlx::query::<DB>("DELETE FROM events WHERE created_at < $1 AND fanned_out = 1")
                .bind(before)
                .execute(&mut *tx)
                .await?;
        tx.commit().await?;
        Ok(DB::rows_affected(&pruned))
    }
}
