//! Subscriptions and their billed cycles.

use async_trait::async_trait;
use serde::Deserialize;
use sqlx::{Encode, Executor, FromRow, IntoArguments, Type};
use time::OffsetDateTime;
use uuid::Uuid;

use super::codec::{int, ms, ms_opt, named, time, time_opt, unsigned};
use super::fetch::{all_by_key, optional_by_key};
use super::payments::page_cursor;
use super::rows::IdRow;
use super::{Dialect, SqlStore};
use crate::store::error::{StoreError, StoreResult};
use crate::store::model::page::effective_limit;
use crate::store::model::subscription::{is_final, parse_status, status_name};
use crate::store::model::{
    CycleStatus, CycleUpsert, NewCycle, NewSubscription, Page, Subscription, SubscriptionCycle,
    SubscriptionOrigin, SubscriptionQuery, SubscriptionSync, Synced,
};
use crate::store::traits::SubscriptionStore;

/// Columns of [`SubscriptionRow`].
pub(crate) const SUBSCRIPTION_COLUMNS: &str = "id, gateway_subscription_id, customer_id, \
     plan_id, session_id, first_payment_id, amount, currency, status, completed_cycles, \
     next_payment_at, last_payment_status, next_poll_at, lease_owner, lease_until, created_at, \
     updated_at, version, origin, review_note";

#[derive(FromRow, Deserialize)]
pub(crate) struct SubscriptionRow {
    id: String,
    gateway_subscription_id: String,
    customer_id: Option<String>,
    plan_id: String,
    session_id: Option<String>,
    first_payment_id: Option<String>,
    amount: i64,
    currency: String,
    status: String,
    completed_cycles: i64,
    next_payment_at: Option<i64>,
    last_payment_status: Option<String>,
    next_poll_at: Option<i64>,
    lease_owner: Option<String>,
    lease_until: Option<i64>,
    created_at: i64,
    updated_at: i64,
    /// Absent from the snapshots of events written before migration 0030 (and from every
    /// snapshot since: the events' triggers leave it out), where it is not read.
    #[serde(default)]
    version: i64,
    /// Absent from snapshots before migration 0033.
    #[serde(default = "checkout_origin")]
    origin: String,
    #[serde(default)]
    review_note: Option<String>,
}

fn checkout_origin() -> String {
    SubscriptionOrigin::Checkout.as_str().to_owned()
}

impl TryFrom<SubscriptionRow> for Subscription {
    type Error = StoreError;

    fn try_from(row: SubscriptionRow) -> StoreResult<Self> {
        Ok(Subscription {
            amount: unsigned(row.amount, "amount")?,
            status: named(&row.status, "status", parse_status)?,
            completed_cycles: unsigned(row.completed_cycles, "completed_cycles")?,
            next_payment_at: time_opt(row.next_payment_at, "next_payment_at")?,
            next_poll_at: time_opt(row.next_poll_at, "next_poll_at")?,
            lease_until: time_opt(row.lease_until, "lease_until")?,
            created_at: time(row.created_at, "created_at")?,
            updated_at: time(row.updated_at, "updated_at")?,
            version: unsigned(row.version, "version")?,
            origin: named(&row.origin, "origin", SubscriptionOrigin::parse)?,
            review_note: row.review_note,
            id: row.id,
            gateway_subscription_id: row.gateway_subscription_id,
            customer_id: row.customer_id,
            plan_id: row.plan_id,
            session_id: row.session_id,
            first_payment_id: row.first_payment_id,
            currency: row.currency,
            last_payment_status: row.last_payment_status,
            lease_owner: row.lease_owner,
        })
    }
}

const CYCLE_COLUMNS: &str = "subscription_id, cycle, gateway_transaction_id, amount, currency, \
     status, charged_at, recorded_at, payment_id, period_start, period_end";

#[derive(FromRow, Deserialize)]
pub(crate) struct CycleRow {
    subscription_id: String,
    cycle: i64,
    gateway_transaction_id: Option<String>,
    amount: i64,
    currency: String,
    status: String,
    charged_at: i64,
    recorded_at: i64,
    // Absent from the snapshots of events written before migration 0031.
    #[serde(default)]
    payment_id: Option<String>,
    #[serde(default)]
    period_start: Option<i64>,
    #[serde(default)]
    period_end: Option<i64>,
}

impl TryFrom<CycleRow> for SubscriptionCycle {
    type Error = StoreError;

    fn try_from(row: CycleRow) -> StoreResult<Self> {
        Ok(SubscriptionCycle {
            cycle: unsigned(row.cycle, "cycle")?,
            amount: unsigned(row.amount, "amount")?,
            status: named(&row.status, "status", CycleStatus::parse)?,
            charged_at: time(row.charged_at, "charged_at")?,
            recorded_at: time(row.recorded_at, "recorded_at")?,
            period_start: time_opt(row.period_start, "period_start")?,
            period_end: time_opt(row.period_end, "period_end")?,
            payment_id: row.payment_id,
            subscription_id: row.subscription_id,
            gateway_transaction_id: row.gateway_transaction_id,
            currency: row.currency,
        })
    }
}

const FINAL: &str = "('cancelled', 'expired')";

/// The sync's content step: matches only when the report changes something the guards allow.
/// A report counting fewer cycles than recorded is stale: it changes nothing (the sync then
/// only reschedules the poll), and so is a report read before another write of the row
/// (`$8`, the version it was read against, no longer the row's). Each change adds one to the
/// version.
fn sync_changes_sql() -> String {
    let current = format!("($3 >= completed_cycles AND status NOT IN {FINAL})");
    format!(
        "UPDATE subscriptions SET \
         status = CASE WHEN {current} THEN $2 ELSE status END, \
         completed_cycles = CASE WHEN $3 > completed_cycles THEN $3 ELSE completed_cycles END, \
         next_payment_at = CASE WHEN {current} THEN $4 ELSE next_payment_at END, \
         last_payment_status = CASE WHEN $3 >= completed_cycles \
             THEN COALESCE($5, last_payment_status) ELSE last_payment_status END, \
         next_poll_at = CASE WHEN status IN {FINAL} OR ({current} AND $2 IN {FINAL}) \
             THEN NULL ELSE $6 END, \
         updated_at = $7, version = version + 1 \
         WHERE id = $1 AND ($8 IS NULL OR version = $8) AND ( \
           $3 > completed_cycles \
           OR ({current} AND (status <> $2 OR next_payment_at IS DISTINCT FROM $4)) \
           OR ($3 >= completed_cycles AND $5 IS NOT NULL \
               AND last_payment_status IS DISTINCT FROM $5)) \
         RETURNING {SUBSCRIPTION_COLUMNS}"
    )
}

/// The sync's scheduling step, when the content step matched nothing: the next poll as asked,
/// or, when the report was read before another write (`$3`), at once (`$4`): the row changed
/// since, and what the gateway says now is read again at the next pass.
fn sync_schedule_sql() -> String {
    format!(
        "UPDATE subscriptions SET \
         next_poll_at = CASE WHEN status IN {FINAL} THEN NULL \
             WHEN $3 IS NOT NULL AND version <> $3 THEN $4 ELSE $2 END \
         WHERE id = $1 RETURNING {SUBSCRIPTION_COLUMNS}"
    )
}

#[async_trait]
impl<DB> SubscriptionStore for SqlStore<DB>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'q> Option<i64>: Encode<'q, DB>,
    for<'q> Option<String>: Encode<'q, DB>,
    for<'r> SubscriptionRow: FromRow<'r, DB::Row>,
    for<'r> CycleRow: FromRow<'r, DB::Row>,
    for<'r> IdRow: FromRow<'r, DB::Row>,
{
    async fn create_subscription(&self, new: NewSubscription) -> StoreResult<Subscription> {
        let now = ms(OffsetDateTime::now_utc());
        let sql = format!(
            "INSERT INTO subscriptions (id, gateway_subscription_id, customer_id, plan_id, \
             session_id, first_payment_id, amount, currency, status, completed_cycles, \
             next_payment_at, last_payment_status, next_poll_at, created_at, updated_at, \
             origin, review_note) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14, $15, $16) \
             RETURNING {SUBSCRIPTION_COLUMNS}"
        );
        sqlx::query_as::<DB, SubscriptionRow>(&sql)
            .bind(Uuid::new_v4().to_string())
            .bind(new.gateway_subscription_id)
            .bind(new.customer_id)
            .bind(new.plan_id)
            .bind(new.session_id)
            .bind(new.first_payment_id)
            .bind(int(new.amount, "amount")?)
            .bind(new.currency)
            .bind(status_name(new.status).to_owned())
            .bind(i64::from(new.completed_cycles))
            .bind(ms_opt(new.next_payment_at))
            .bind(new.last_payment_status)
            .bind((!is_final(new.status)).then(|| ms(new.next_poll_at)))
            .bind(now)
            .bind(
                match new.found_in_list {
                    Some(_) => SubscriptionOrigin::GatewayList,
                    None => SubscriptionOrigin::Checkout,
                }
                .as_str()
                .to_owned(),
            )
            .bind(new.found_in_list)
            .fetch_one(&self.pool)
            .await
            .map_err(|e| StoreError::on_unique(e, "gateway subscription id"))?
            .try_into()
    }

    async fn get_subscription(&self, id: &str) -> StoreResult<Option<Subscription>> {
        let sql = format!("SELECT {SUBSCRIPTION_COLUMNS} FROM subscriptions WHERE id = $1");
        optional_by_key::<DB, SubscriptionRow, _>(&self.pool, &sql, id).await
    }

    async fn find_subscription_by_gateway_id(
        &self,
        gateway_subscription_id: &str,
    ) -> StoreResult<Option<Subscription>> {
        let sql = format!(
            "SELECT {SUBSCRIPTION_COLUMNS} FROM subscriptions WHERE gateway_subscription_id = $1"
        );
        optional_by_key::<DB, SubscriptionRow, _>(&self.pool, &sql, gateway_subscription_id).await
    }

    async fn list_subscriptions(
        &self,
        query: SubscriptionQuery,
    ) -> StoreResult<Page<Subscription>> {
        let limit = effective_limit(query.limit);
        let sql = format!(
            "SELECT {SUBSCRIPTION_COLUMNS} FROM subscriptions \
             WHERE ($1 IS NULL OR customer_id = $1) AND ($2 IS NULL OR status = $2) \
             AND ($3 IS NULL OR created_at < $3 OR (created_at = $3 AND id < $4)) \
             AND ($6 IS NULL OR plan_id = $6) AND ($7 IS NULL OR currency = $7) \
             ORDER BY created_at DESC, id DESC LIMIT $5"
        );
        let rows = sqlx::query_as::<DB, SubscriptionRow>(&sql)
            .bind(query.customer_id)
            .bind(query.status.map(|s| status_name(s).to_owned()))
            .bind(query.after.as_ref().map(|c| c.created_at_ms))
            .bind(query.after.map(|c| c.id))
            .bind(i64::from(limit) + 1)
            .bind(query.plan_id)
            .bind(query.currency)
            .fetch_all(&self.pool)
            .await?;
        let mut items = rows
            .into_iter()
            .map(Subscription::try_from)
            .collect::<StoreResult<Vec<_>>>()?;
        let next = page_cursor(&mut items, limit, |s| (ms(s.created_at), s.id.clone()));
        Ok(Page { items, next })
    }

    async fn sync_subscription(
        &self,
        id: &str,
        sync: SubscriptionSync,
        next_poll_at: Option<OffsetDateTime>,
    ) -> StoreResult<Synced> {
        let now = ms(OffsetDateTime::now_utc());
        let read_version = sync
            .read_version
            .map(|version| int(version, "version"))
            .transpose()?;
        let changed = sqlx::query_as::<DB, SubscriptionRow>(&sync_changes_sql())
            .bind(id.to_owned())
            .bind(status_name(sync.status).to_owned())
            .bind(i64::from(sync.completed_cycles))
            .bind(ms_opt(sync.next_payment_at))
            .bind(sync.last_payment_status)
            .bind(ms_opt(next_poll_at))
            .bind(now)
            .bind(read_version)
            .fetch_optional(&self.pool)
            .await?;
        if let Some(row) = changed {
            return Ok(Synced {
                subscription: row.try_into()?,
                changed: true,
                stale: false,
            });
        }
        let row = sqlx::query_as::<DB, SubscriptionRow>(&sync_schedule_sql())
            .bind(id.to_owned())
            .bind(ms_opt(next_poll_at))
            .bind(read_version)
            .bind(now)
            .fetch_optional(&self.pool)
            .await?
            .ok_or(StoreError::NotFound("subscription"))?;
        let subscription: Subscription = row.try_into()?;
        let stale = sync
            .read_version
            .is_some_and(|read| read != subscription.version);
        Ok(Synced {
            subscription,
            changed: false,
            stale,
        })
    }

    async fn upsert_cycle(&self, cycle: NewCycle) -> StoreResult<CycleUpsert> {
        let now = ms(OffsetDateTime::now_utc());
        let inserted = sqlx::query_as::<DB, IdRow>(&format!(
            "INSERT INTO subscription_cycles ({CYCLE_COLUMNS}) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) \
             ON CONFLICT (subscription_id, cycle) DO NOTHING RETURNING subscription_id AS id"
        ))
        .bind(cycle.subscription_id.clone())
        .bind(i64::from(cycle.cycle))
        .bind(cycle.gateway_transaction_id.clone())
        .bind(int(cycle.amount, "amount")?)
        .bind(cycle.currency.clone())
        .bind(cycle.status.as_str().to_owned())
        .bind(ms(cycle.charged_at))
        .bind(now)
        .bind(cycle.payment_id.clone())
        .bind(ms_opt(cycle.period_start))
        .bind(ms_opt(cycle.period_end))
        .fetch_optional(&self.pool)
        .await?;
        if inserted.is_some() {
            return Ok(CycleUpsert::Inserted);
        }
        // A charge once recorded as succeeded is never turned into a failure by a late report.
        // Who charged it is kept as first recorded; its period is filled in if it was not known.
        let updated = sqlx::query_as::<DB, IdRow>(
            "UPDATE subscription_cycles SET gateway_transaction_id = $3, amount = $4, \
             currency = $5, status = $6, charged_at = $7, \
             period_start = COALESCE(period_start, $8), period_end = COALESCE(period_end, $9) \
             WHERE subscription_id = $1 AND cycle = $2 \
             AND NOT (status = 'succeeded' AND $6 = 'failed') \
             AND (gateway_transaction_id IS DISTINCT FROM $3 OR amount <> $4 \
                  OR currency <> $5 OR status <> $6 OR charged_at <> $7) \
             RETURNING subscription_id AS id",
        )
        .bind(cycle.subscription_id)
        .bind(i64::from(cycle.cycle))
        .bind(cycle.gateway_transaction_id)
        .bind(int(cycle.amount, "amount")?)
        .bind(cycle.currency)
        .bind(cycle.status.as_str().to_owned())
        .bind(ms(cycle.charged_at))
        .bind(ms_opt(cycle.period_start))
        .bind(ms_opt(cycle.period_end))
        .fetch_optional(&self.pool)
        .await?;
        Ok(if updated.is_some() {
            CycleUpsert::Updated
        } else {
            CycleUpsert::Unchanged
        })
    }

    async fn list_cycles(&self, subscription_id: &str) -> StoreResult<Vec<SubscriptionCycle>> {
        let sql = format!(
            "SELECT {CYCLE_COLUMNS} FROM subscription_cycles WHERE subscription_id = $1 \
             ORDER BY cycle"
        );
        all_by_key::<DB, CycleRow, _>(&self.pool, &sql, subscription_id).await
    }
}
