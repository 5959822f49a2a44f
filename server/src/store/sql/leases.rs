//! Leases on payments and subscriptions, so several instances never work on the same row at
//! the same time. Correctness never depends on a lease (every state step is a compare-and-set);
//! leases only stop two instances from doing the same gateway lookups twice.

use async_trait::async_trait;
use sqlx::{Encode, Executor, FromRow, IntoArguments, Type};
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

/// One statement that picks due, unleased rows and leases them. The conditions are repeated
/// outside the sub-select: on Postgres a row another instance leased between our snapshot and
/// our update is re-checked against them and left alone.
pub(crate) fn claim_sql<DB: Dialect>(table: &str, due: &str, live: &str, columns: &str) -> String {
    let free = "(lease_until IS NULL OR lease_until <= $3)";
    let picked = DB::id_among(&format!(
        "SELECT id FROM {table} WHERE {due} <= $3 AND {live} AND {free} \
         ORDER BY {due}, id LIMIT $4 {skip}",
        skip = DB::SKIP_LOCKED,
    ));
    format!(
        "UPDATE {table} SET lease_owner = $1, lease_until = $2 \
         WHERE {picked} AND {due} <= $3 AND {live} AND {free} \
         RETURNING {columns}"
    )
}

/// A claim in one statement: the rows of `table` due by `due` at `now` that `live` accepts and
/// nobody leases, at most `limit`, leased to `owner` for `lease`, read through the row type
/// `R`, in the order `order` gives (the statement returns them in none).
pub(crate) async fn claim_rows<DB, R, T>(
    pool: &sqlx::Pool<DB>,
    (table, due, live, columns): (&str, &str, &str, &str),
    owner: &str,
    now: OffsetDateTime,
    lease: Duration,
    limit: u32,
    order: impl FnMut(&T, &T) -> std::cmp::Ordering,
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
    let sql = claim_sql::<DB>(table, due, live, columns);
    let mut claimed = sqlx::query_as::<DB, R>(&sql)
        .bind(owner.to_owned())
        .bind(lease_end(now, lease)?)
        .bind(ms(now))
        .bind(i64::from(limit))
        .fetch_all(pool)
        .await?
        .into_iter()
        .map(T::try_from)
        .collect::<StoreResult<Vec<_>>>()?;
    claimed.sort_by(order);
    Ok(claimed)
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
        let table = ("payments", "next_check_at", live.as_str(), PAYMENT_COLUMNS);
        claim_rows::<DB, PaymentRow, Payment>(
            &self.pool,
            table,
            owner,
            now,
            lease,
            limit,
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
        let table = (
            "subscriptions",
            "next_poll_at",
            live.as_str(),
            SUBSCRIPTION_COLUMNS,
        );
        claim_rows::<DB, SubscriptionRow, Subscription>(
            &self.pool,
            table,
            owner,
            now,
            lease,
            limit,
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
