//! Counting queries for `/metrics` ([`StatsStore`]), the same SQL on both backends.

use async_trait::async_trait;
use sqlx::{Encode, Executor, FromRow, IntoArguments, Type};
use time::OffsetDateTime;

use super::codec::{ms, time_opt, unsigned};
use super::{Dialect, SqlStore};
use crate::store::error::{StoreError, StoreResult};
use crate::store::model::WebhookVerdict;
use crate::store::stats::{Backlog, StatsStore};

#[derive(FromRow)]
pub(crate) struct VerdictCountRow {
    verdict: String,
    n: i64,
}

#[derive(FromRow)]
pub(crate) struct DueRow {
    n: i64,
    oldest: Option<i64>,
}

#[async_trait]
impl<DB> StatsStore for SqlStore<DB>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'r> VerdictCountRow: FromRow<'r, DB::Row>,
    for<'r> DueRow: FromRow<'r, DB::Row>,
{
    async fn count_webhooks_by_verdict(&self) -> StoreResult<Vec<(WebhookVerdict, u64)>> {
        sqlx::query_as::<DB, VerdictCountRow>(
            "SELECT verdict, COUNT(*) AS n FROM webhook_events GROUP BY verdict ORDER BY verdict",
        )
        .fetch_all(&self.pool)
        .await?
        .into_iter()
        .map(|row| {
            let verdict =
                WebhookVerdict::parse(&row.verdict).ok_or(StoreError::Corrupt("verdict"))?;
            Ok((verdict, unsigned(row.n, "count")?))
        })
        .collect()
    }

    async fn reconcile_backlog(&self, now: OffsetDateTime) -> StoreResult<Backlog> {
        let payments = sqlx::query_as::<DB, DueRow>(
            "SELECT COUNT(*) AS n, MIN(next_check_at) AS oldest FROM payments \
             WHERE next_check_at <= $1 AND state IN ('created', 'pending', 'needs_review')",
        )
        .bind(ms(now))
        .fetch_one(&self.pool)
        .await?;
        let subscriptions = sqlx::query_as::<DB, DueRow>(
            "SELECT COUNT(*) AS n, MIN(next_poll_at) AS oldest FROM subscriptions \
             WHERE next_poll_at <= $1 AND status IN ('active', 'paused')",
        )
        .bind(ms(now))
        .fetch_one(&self.pool)
        .await?;
        Ok(Backlog {
            payments_due: unsigned(payments.n, "count")?,
            oldest_payment_due: time_opt(payments.oldest, "next_check_at")?,
            subscriptions_due: unsigned(subscriptions.n, "count")?,
            oldest_subscription_due: time_opt(subscriptions.oldest, "next_poll_at")?,
        })
    }
}
