//! Leases on payments and subscriptions, so several instances never work on the same row at
//! the same time. Correctness never depends on a lease (every state step is a compare-and-set);
//! leases only stop two instances from doing the same gateway lookups twice.

use async_trait::async_trait;
use sqlx::{Encode, Executor, FromRow, IntoArguments, Pool, Type};
use time::{Duration, OffsetDateTime};

use super::codec::{ms, ms_opt};
use super::rows::{IdRow, PAYMENT_COLUMNS, PaymentRow};
use super::subscriptions::{SUBSCRIPTION_COLUMNS, SubscriptionRow};
use super::{Dialect, SqlStore};
use crate::store::error::{StoreError, StoreResult};
use crate::store::model::{Payment, Subscription};
use crate::store::traits::LeaseStore;

/// What the lease statements need to know about one kind of leased row.
struct Leased {
    table: &'static str,
    /// The column saying when the row is next due.
    due: &'static str,
    /// The condition on rows that can still change.
    live: &'static str,
}

/// Payments, in the states the reconciler works on.
const PAYMENTS: Leased = Leased {
    table: "payments",
    due: "next_check_at",
    live: "state IN ('created', 'pending', 'needs_review')",
};
/// Subscriptions, in the statuses that can still change.
const SUBSCRIPTIONS: Leased = Leased {
    table: "subscriptions",
    due: "next_poll_at",
    live: "status IN ('active', 'paused')",
};

/// One statement that picks due, unleased rows and leases them. The conditions are repeated
/// outside the sub-select: on Postgres a row another instance leased between our snapshot and
/// our update is re-checked against them and left alone.
fn claim_sql<DB: Dialect>(kind: &Leased, columns: &str) -> String {
    let Leased { table, due, live } = kind;
    let free = "(lease_until IS NULL OR lease_until <= $3)";
    format!(
        "UPDATE {table} SET lease_owner = $1, lease_until = $2 \
         WHERE id IN (SELECT id FROM {table} WHERE {due} <= $3 AND {live} AND {free} \
                      ORDER BY {due}, id LIMIT $4 {skip}) \
         AND {due} <= $3 AND {live} AND {free} \
         RETURNING {columns}",
        skip = DB::SKIP_LOCKED,
    )
}

/// Ends `owner`'s lease; a live row's next due time becomes `$3` when given.
fn release_sql(kind: &Leased) -> String {
    let Leased { table, due, live } = kind;
    format!(
        "UPDATE {table} SET lease_owner = NULL, lease_until = NULL, \
         {due} = CASE WHEN {live} THEN COALESCE($3, {due}) ELSE {due} END \
         WHERE id = $1 AND lease_owner = $2 RETURNING id"
    )
}

/// Runs a [`claim_sql`] statement and reads the claimed rows as `T` through the row type `R`.
async fn claim<DB, R, T>(
    pool: &Pool<DB>,
    sql: &str,
    owner: &str,
    now: OffsetDateTime,
    lease: Duration,
    limit: u32,
) -> StoreResult<Vec<T>>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    R: for<'r> FromRow<'r, DB::Row> + Send + Unpin,
    T: TryFrom<R, Error = StoreError>,
{
    sqlx::query_as::<DB, R>(sql)
        .bind(owner.to_owned())
        .bind(lease_end(now, lease)?)
        .bind(ms(now))
        .bind(i64::from(limit))
        .fetch_all(pool)
        .await?
        .into_iter()
        .map(T::try_from)
        .collect()
}

/// Runs a [`release_sql`] statement; `true` when `owner` held the lease.
async fn release<DB>(
    pool: &Pool<DB>,
    kind: &Leased,
    id: &str,
    owner: &str,
    next_due: Option<OffsetDateTime>,
) -> StoreResult<bool>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'q> Option<i64>: Encode<'q, DB>,
    for<'r> IdRow: FromRow<'r, DB::Row>,
{
    let released = sqlx::query_as::<DB, IdRow>(&release_sql(kind))
        .bind(id.to_owned())
        .bind(owner.to_owned())
        .bind(ms_opt(next_due))
        .fetch_optional(pool)
        .await?;
    Ok(released.is_some())
}

fn lease_end(now: OffsetDateTime, lease: Duration) -> StoreResult<i64> {
    if lease <= Duration::ZERO {
        return Err(StoreError::Invalid {
            field: "lease",
            reason: "must be positive",
        });
    }
    Ok(ms(now.saturating_add(lease)))
}

#[async_trait]
impl<DB> LeaseStore for SqlStore<DB>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'q> Option<i64>: Encode<'q, DB>,
    for<'q> Option<String>: Encode<'q, DB>,
    for<'r> PaymentRow: FromRow<'r, DB::Row>,
    for<'r> SubscriptionRow: FromRow<'r, DB::Row>,
    for<'r> IdRow: FromRow<'r, DB::Row>,
{
    async fn claim_due_payments(
        &self,
        now: OffsetDateTime,
        owner: &str,
        lease: Duration,
        limit: u32,
    ) -> StoreResult<Vec<Payment>> {
        let sql = claim_sql::<DB>(&PAYMENTS, PAYMENT_COLUMNS);
        let mut claimed: Vec<Payment> =
            claim::<DB, PaymentRow, _>(&self.pool, &sql, owner, now, lease, limit).await?;
        claimed.sort_by(|a, b| (a.next_check_at, &a.id).cmp(&(b.next_check_at, &b.id)));
        Ok(claimed)
    }

    async fn lease_payment(
        &self,
        id: &str,
        owner: &str,
        now: OffsetDateTime,
        lease: Duration,
    ) -> StoreResult<bool> {
        let leased = sqlx::query_as::<DB, IdRow>(
            "UPDATE payments SET lease_owner = $2, lease_until = $3 WHERE id = $1 \
             AND (lease_until IS NULL OR lease_until <= $4 OR lease_owner = $2) RETURNING id",
        )
        .bind(id.to_owned())
        .bind(owner.to_owned())
        .bind(lease_end(now, lease)?)
        .bind(ms(now))
        .fetch_optional(&self.pool)
        .await?;
        Ok(leased.is_some())
    }

    async fn release_payment(
        &self,
        id: &str,
        owner: &str,
        next_check_at: Option<OffsetDateTime>,
    ) -> StoreResult<bool> {
        release::<DB>(&self.pool, &PAYMENTS, id, owner, next_check_at).await
    }

    async fn claim_due_subscriptions(
        &self,
        now: OffsetDateTime,
        owner: &str,
        lease: Duration,
        limit: u32,
    ) -> StoreResult<Vec<Subscription>> {
        let sql = claim_sql::<DB>(&SUBSCRIPTIONS, SUBSCRIPTION_COLUMNS);
        let mut claimed: Vec<Subscription> =
            claim::<DB, SubscriptionRow, _>(&self.pool, &sql, owner, now, lease, limit).await?;
        claimed.sort_by(|a, b| (a.next_poll_at, &a.id).cmp(&(b.next_poll_at, &b.id)));
        Ok(claimed)
    }

    async fn release_subscription(
        &self,
        id: &str,
        owner: &str,
        next_poll_at: Option<OffsetDateTime>,
    ) -> StoreResult<bool> {
        release::<DB>(&self.pool, &SUBSCRIPTIONS, id, owner, next_poll_at).await
    }
}
