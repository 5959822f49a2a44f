//! [`DeliveryReportStore`] on both backends: an endpoint's health in four counting queries,
//! one event's attempts, and the given-up deliveries of a time range made due again.

use async_trait::async_trait;
use sqlx::{Encode, Executor, FromRow, IntoArguments, Type};
use time::OffsetDateTime;

use super::codec::{ms, time_opt, unsigned};
use super::deliveries::AttemptRow;
use super::fetch::all_by_key;
use super::{Dialect, SqlStore};
use crate::store::delivery_report::{DeliveryReportStore, EndpointHealth};
use crate::store::error::StoreResult;
use crate::store::model::DeliveryAttempt;

#[derive(FromRow)]
pub(crate) struct LastSuccessRow {
    id: Option<i64>,
    at: Option<i64>,
}

#[derive(FromRow)]
pub(crate) struct CountRow {
    n: i64,
}

#[derive(FromRow)]
pub(crate) struct PendingRow {
    n: i64,
    oldest: Option<i64>,
}

#[derive(FromRow)]
pub(crate) struct RecentRow {
    n: i64,
    ok: Option<i64>,
}

#[async_trait]
impl<DB> DeliveryReportStore for SqlStore<DB>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'r> LastSuccessRow: FromRow<'r, DB::Row>,
    for<'r> CountRow: FromRow<'r, DB::Row>,
    for<'r> PendingRow: FromRow<'r, DB::Row>,
    for<'r> RecentRow: FromRow<'r, DB::Row>,
    for<'r> AttemptRow: FromRow<'r, DB::Row>,
{
    async fn endpoint_health(
        &self,
        endpoint_id: &str,
        since: OffsetDateTime,
    ) -> StoreResult<EndpointHealth> {
        // A success is a 2xx answer, as the worker counts it.
        let last = sqlx::query_as::<DB, LastSuccessRow>(
            "SELECT MAX(id) AS id, MAX(attempted_at) AS at FROM delivery_attempts \
             WHERE endpoint_id = $1 AND status_code BETWEEN 200 AND 299",
        )
        .bind(endpoint_id.to_owned())
        .fetch_one(&self.pool)
        .await?;
        let streak = sqlx::query_as::<DB, CountRow>(
            "SELECT COUNT(*) AS n FROM delivery_attempts WHERE endpoint_id = $1 AND id > $2",
        )
        .bind(endpoint_id.to_owned())
        .bind(last.id.unwrap_or(0))
        .fetch_one(&self.pool)
        .await?;
        let pending = sqlx::query_as::<DB, PendingRow>(
            "SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM event_deliveries \
             WHERE endpoint_id = $1 AND state = 'pending'",
        )
        .bind(endpoint_id.to_owned())
        .fetch_one(&self.pool)
        .await?;
        let failed = sqlx::query_as::<DB, CountRow>(
            "SELECT COUNT(*) AS n FROM event_deliveries \
             WHERE endpoint_id = $1 AND state = 'failed'",
        )
        .bind(endpoint_id.to_owned())
        .fetch_one(&self.pool)
        .await?;
        let recent = sqlx::query_as::<DB, RecentRow>(
            "SELECT COUNT(*) AS n, \
             SUM(CASE WHEN status_code BETWEEN 200 AND 299 THEN 1 ELSE 0 END) AS ok \
             FROM delivery_attempts WHERE endpoint_id = $1 AND attempted_at >= $2",
        )
        .bind(endpoint_id.to_owned())
        .bind(ms(since))
        .fetch_one(&self.pool)
        .await?;
        Ok(EndpointHealth {
            last_success_at: time_opt(last.at, "attempted_at")?,
            consecutive_failures: unsigned(streak.n, "count")?,
            pending: unsigned(pending.n, "count")?,
            oldest_pending_at: time_opt(pending.oldest, "created_at")?,
            failed: unsigned(failed.n, "count")?,
            recent_attempts: unsigned(recent.n, "count")?,
            recent_successes: unsigned(recent.ok.unwrap_or(0), "count")?,
        })
    }

    async fn event_attempts(&self, event_id: &str) -> StoreResult<Vec<DeliveryAttempt>> {
        let sql = "SELECT a.id, a.endpoint_id, e.id AS event_id, a.attempted_at, a.duration_us, \
             a.status_code, a.error FROM delivery_attempts AS a \
             JOIN events AS e ON e.seq = a.event_seq WHERE e.id = $1 ORDER BY a.id";
        all_by_key::<DB, AttemptRow, DeliveryAttempt>(&self.pool, sql, event_id).await
    }

    async fn redeliver_failed(
        &self,
        endpoint_id: &str,
        from: OffsetDateTime,
        before: OffsetDateTime,
        now: OffsetDateTime,
    ) -> StoreResult<u64> {
        let done = sqlx::query::<DB>(
            "UPDATE event_deliveries SET state = 'pending', next_attempt_at = $4, updated_at = $4 \
             WHERE endpoint_id = $1 AND state = 'failed' AND event_seq IN \
             (SELECT seq FROM events WHERE created_at >= $2 AND created_at < $3)",
        )
        .bind(endpoint_id.to_owned())
        .bind(ms(from))
        .bind(ms(before))
        .bind(ms(now))
        .execute(&self.pool)
        .await?;
        Ok(DB::rows_affected(&done))
    }
}
