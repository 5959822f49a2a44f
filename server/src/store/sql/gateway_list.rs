//! [`GatewayListStore`]: the whole-list check's reads and bookkeeping, the same SQL on both
//! backends (the one row of `gateway_list_checks`, migration 0033).

use async_trait::async_trait;
use sqlx::{Encode, Executor, FromRow, IntoArguments, Type};
use time::{Duration, OffsetDateTime};

use super::codec::{ms, time, time_opt, unsigned};
use super::leases::lease_end;
use super::rows::IdRow;
use super::subscriptions::{SUBSCRIPTION_COLUMNS, SubscriptionRow};
use super::{Dialect, SqlStore};
use crate::store::error::{StoreError, StoreResult};
use crate::store::gateway_list::{
    GatewayListStore, KNOWN_IDS_BATCH, KnownSubscription, ListCheckRun,
};
use crate::store::model::Subscription;

/// The check's row.
const CHECK: &str = "'subscriptions'";

#[derive(FromRow)]
pub(crate) struct KnownRow {
    gateway_subscription_id: String,
    id: String,
    first_payment_id: Option<String>,
}

#[derive(FromRow)]
pub(crate) struct CheckRow {
    next_run_at: i64,
    last_run_at: Option<i64>,
    last_listed: Option<i64>,
    last_found: Option<i64>,
    last_error: Option<String>,
}

#[async_trait]
impl<DB> GatewayListStore for SqlStore<DB>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'q> Option<i64>: Encode<'q, DB>,
    for<'q> Option<String>: Encode<'q, DB>,
    for<'r> KnownRow: FromRow<'r, DB::Row>,
    for<'r> CheckRow: FromRow<'r, DB::Row>,
    for<'r> SubscriptionRow: FromRow<'r, DB::Row>,
    for<'r> IdRow: FromRow<'r, DB::Row>,
{
    async fn known_gateway_ids(
        &self,
        gateway_ids: &[String],
    ) -> StoreResult<Vec<KnownSubscription>> {
        if gateway_ids.is_empty() {
            return Ok(Vec::new());
        }
        if gateway_ids.len() > KNOWN_IDS_BATCH {
            return Err(StoreError::Invalid {
                field: "gateway_ids",
                reason: "too many for one read",
            });
        }
        let listed = serde_json::to_string(gateway_ids).map_err(|_| StoreError::Invalid {
            field: "gateway_ids",
            reason: "cannot be written as JSON",
        })?;
        let sql = format!(
            "SELECT gateway_subscription_id, id, first_payment_id FROM subscriptions WHERE {}",
            DB::among_json_texts("gateway_subscription_id", "$1")
        );
        let rows = sqlx::query_as::<DB, KnownRow>(&sql)
            .bind(listed)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows
            .into_iter()
            .map(|row| KnownSubscription {
                gateway_subscription_id: row.gateway_subscription_id,
                id: row.id,
                first_payment_id: row.first_payment_id,
            })
            .collect())
    }

    async fn claim_list_check(
        &self,
        now: OffsetDateTime,
        owner: &str,
        lease: Duration,
    ) -> StoreResult<bool> {
        let sql = format!(
            "UPDATE gateway_list_checks SET lease_owner = $1, lease_until = $2 \
             WHERE id = {CHECK} AND next_run_at <= $3 \
             AND (lease_until IS NULL OR lease_until <= $3) RETURNING id"
        );
        let claimed = sqlx::query_as::<DB, IdRow>(&sql)
            .bind(owner.to_owned())
            .bind(lease_end(now, lease)?)
            .bind(ms(now))
            .fetch_optional(&self.pool)
            .await?;
        Ok(claimed.is_some())
    }

    async fn finish_list_check(
        &self,
        owner: &str,
        run: &ListCheckRun,
        next_run_at: OffsetDateTime,
    ) -> StoreResult<bool> {
        let sql = format!(
            "UPDATE gateway_list_checks SET lease_owner = NULL, lease_until = NULL, \
             next_run_at = $2, last_run_at = $3, last_listed = $4, last_found = $5, \
             last_error = $6 WHERE id = {CHECK} AND lease_owner = $1 RETURNING id"
        );
        let count = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
        let finished = sqlx::query_as::<DB, IdRow>(&sql)
            .bind(owner.to_owned())
            .bind(ms(next_run_at))
            .bind(run.ran_at.map(ms))
            .bind(count(run.listed))
            .bind(count(run.found))
            .bind(run.error.clone())
            .fetch_optional(&self.pool)
            .await?;
        Ok(finished.is_some())
    }

    async fn list_check_status(&self) -> StoreResult<(ListCheckRun, OffsetDateTime)> {
        let sql = format!(
            "SELECT next_run_at, last_run_at, last_listed, last_found, last_error \
             FROM gateway_list_checks WHERE id = {CHECK}"
        );
        let row = sqlx::query_as::<DB, CheckRow>(&sql)
            .fetch_one(&self.pool)
            .await?;
        let run = ListCheckRun {
            ran_at: time_opt(row.last_run_at, "last_run_at")?,
            listed: unsigned(row.last_listed.unwrap_or(0), "last_listed")?,
            found: unsigned(row.last_found.unwrap_or(0), "last_found")?,
            error: row.last_error,
        };
        Ok((run, time(row.next_run_at, "next_run_at")?))
    }

    async fn subscriptions_to_review(&self, limit: u32) -> StoreResult<Vec<Subscription>> {
        let sql = format!(
            "SELECT {SUBSCRIPTION_COLUMNS} FROM subscriptions WHERE review_note IS NOT NULL \
             ORDER BY created_at, id LIMIT $1"
        );
        sqlx::query_as::<DB, SubscriptionRow>(&sql)
            .bind(i64::from(limit))
            .fetch_all(&self.pool)
            .await?
            .into_iter()
            .map(Subscription::try_from)
            .collect()
    }

    async fn acknowledge_subscription(&self, id: &str) -> StoreResult<bool> {
        let acknowledged = sqlx::query_as::<DB, IdRow>(
            "UPDATE subscriptions SET review_note = NULL, updated_at = $2 \
             WHERE id = $1 AND review_note IS NOT NULL RETURNING id",
        )
        .bind(id.to_owned())
        .bind(ms(OffsetDateTime::now_utc()))
        .fetch_optional(&self.pool)
        .await?;
        Ok(acknowledged.is_some())
    }
}
