//! Leases on payments and subscriptions, so several instances never work on the same row at
//! the same time. Correctness never depends on a lease (every state step is a compare-and-set);
//! leases only stop two instances from doing the same gateway lookups twice.
//!
//! Taking due rows is one statement shape ([`take_due_sql`], [`take_due`]), which the
//! surplus rule's hold (`retry.rs`) uses too.

use std::cmp::Ordering;

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

/// Payment states the reconciler works on.
const UNSETTLED: &str = "('created', 'pending', 'needs_review')";
/// Subscription statuses that can still change.
const LIVE: &str = "('active', 'paused')";

/// One statement that takes up to `$3` rows of `table` that are `ready` (a condition reading
/// now as `$2`), earliest `due` first, skipping rows another transaction holds, and sets `set`
/// on them (`$1` is the end of the hold; a fourth parameter is the caller's). `ready` is
/// repeated outside the sub-select: on Postgres a row another instance took between our
/// snapshot and our update is re-checked against it and left alone.
pub(crate) fn take_due_sql<DB: Dialect>(
    table: &str,
    set: &str,
    ready: &str,
    due: &str,
    columns: &str,
) -> String {
    let picked = DB::id_among(&format!(
        "SELECT id FROM {table} WHERE {ready} ORDER BY {due}, id LIMIT $3 {skip}",
        skip = DB::SKIP_LOCKED,
    ));
    format!("UPDATE {table} SET {set} WHERE {picked} AND {ready} RETURNING {columns}")
}

/// Runs a [`take_due_sql`] statement holding the rows for `hold` from `now` (with `owner` as
/// `$4` when given); the rows taken, sorted by `order`.
pub(crate) async fn take_due<DB, R, T>(
    pool: &Pool<DB>,
    sql: &str,
    (now, hold, limit): (OffsetDateTime, Duration, u32),
    owner: Option<&str>,
    order: impl FnMut(&T, &T) -> Ordering,
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
    let mut query = sqlx::query_as::<DB, R>(sql)
        .bind(lease_end(now, hold)?)
        .bind(ms(now))
        .bind(i64::from(limit));
    if let Some(owner) = owner {
        query = query.bind(owner.to_owned());
    }
    let mut taken = query
        .fetch_all(pool)
        .await?
        .into_iter()
        .map(T::try_from)
        .collect::<StoreResult<Vec<_>>>()?;
    taken.sort_by(order);
    Ok(taken)
}

/// Leases due rows of `table` that are `live` and not leased to `$4`.
pub(crate) fn claim_sql<DB: Dialect>(table: &str, due: &str, live: &str, columns: &str) -> String {
    let ready = format!("{due} <= $2 AND {live} AND (lease_until IS NULL OR lease_until <= $2)");
    take_due_sql::<DB>(
        table,
        "lease_owner = $4, lease_until = $1",
        &ready,
        due,
        columns,
    )
}

/// The end of a `lease` taken at `now`, in stored milliseconds; a lease must be positive.
pub(crate) fn lease_end(now: OffsetDateTime, lease: Duration) -> StoreResult<i64> {
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
        let live = format!("state IN {UNSETTLED}");
        let sql = claim_sql::<DB>("payments", "next_check_at", &live, PAYMENT_COLUMNS);
        take_due::<DB, PaymentRow, Payment>(
            &self.pool,
            &sql,
            (now, lease, limit),
            Some(owner),
            |a, b| (a.next_check_at, &a.id).cmp(&(b.next_check_at, &b.id)),
        )
        .await
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
        let sql = format!(
            "UPDATE payments SET lease_owner = NULL, lease_until = NULL, \
             next_check_at = CASE WHEN state IN {UNSETTLED} THEN COALESCE($3, next_check_at) \
             ELSE next_check_at END \
             WHERE id = $1 AND lease_owner = $2 RETURNING id"
        );
        let released = sqlx::query_as::<DB, IdRow>(&sql)
            .bind(id.to_owned())
            .bind(owner.to_owned())
            .bind(ms_opt(next_check_at))
            .fetch_optional(&self.pool)
            .await?;
        Ok(released.is_some())
    }

    async fn claim_due_subscriptions(
        &self,
        now: OffsetDateTime,
        owner: &str,
        lease: Duration,
        limit: u32,
    ) -> StoreResult<Vec<Subscription>> {
        let live = format!("status IN {LIVE}");
        let sql = claim_sql::<DB>("subscriptions", "next_poll_at", &live, SUBSCRIPTION_COLUMNS);
        take_due::<DB, SubscriptionRow, Subscription>(
            &self.pool,
            &sql,
            (now, lease, limit),
            Some(owner),
            |a, b| (a.next_poll_at, &a.id).cmp(&(b.next_poll_at, &b.id)),
        )
        .await
    }

    async fn release_subscription(
        &self,
        id: &str,
        owner: &str,
        next_poll_at: Option<OffsetDateTime>,
    ) -> StoreResult<bool> {
        let sql = format!(
            "UPDATE subscriptions SET lease_owner = NULL, lease_until = NULL, \
             next_poll_at = CASE WHEN status IN {LIVE} THEN COALESCE($3, next_poll_at) \
             ELSE next_poll_at END \
             WHERE id = $1 AND lease_owner = $2 RETURNING id"
        );
        let released = sqlx::query_as::<DB, IdRow>(&sql)
            .bind(id.to_owned())
            .bind(owner.to_owned())
            .bind(ms_opt(next_poll_at))
            .fetch_optional(&self.pool)
            .await?;
        Ok(released.is_some())
    }
}
