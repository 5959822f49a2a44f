//! The overview's reads ([`AnalyticsStore`]), the same SQL on both backends: payments from
//! `payment_rollup` grouped by local day (a `CASE` picks the zone's offset for each
//! 15-minute slot) or by state alone (the period compared with), each with
//! `Dialect::ROLLUP_READ_SETTINGS`; subscriptions counted by status, and the review queue
//! counted on `payments_by_state`; folding the rollup's shards ([`super::rollup_fold`]).

use std::fmt::Write;

use async_trait::async_trait;
use checkout::contract::PaymentState;
use sqlx::query::QueryAs;
use sqlx::{Encode, Executor, FromRow, IntoArguments, Pool, Type};
use time::OffsetDateTime;

use super::codec::{ms, named, parse_decline, unsigned};
use super::{Dialect, SqlStore};
use crate::store::analytics::{
    ActivePlan, AnalyticsStore, DayOutcome, LocalSpan, SubscriptionStanding,
};
use crate::store::error::{StoreError, StoreResult};
use crate::store::transitions::parse_state;

/// The rollup's slot: 15 minutes, in milliseconds.
pub(super) const SLOT_MS: i64 = 900_000;

#[derive(FromRow)]
pub(crate) struct OutcomeRow {
    day: i64,
    currency: String,
    state: String,
    three_ds: i64,
    decline_code: String,
    n: i64,
    amount: i64,
    captured: i64,
    refunded: i64,
}

#[derive(FromRow)]
pub(crate) struct StateTotalRow {
    state: String,
    n: i64,
}

#[derive(FromRow)]
pub(crate) struct StatusCountRow {
    status: String,
    n: i64,
}

#[derive(FromRow)]
pub(crate) struct PlanRow {
    plan_id: String,
    currency: String,
    amount: i64,
    n: i64,
}

#[derive(FromRow)]
pub(crate) struct CountRow {
    n: i64,
}

/// `(slot * 900 + offset) / 86400`: the local day of each slot, the offset chosen by a `CASE`
/// over the zone's transitions (their count is small: two a year at most in any zone).
fn local_day_sql(span: &LocalSpan) -> String {
    if span.offsets.len() < 2 {
        let seconds = span.offsets.first().map_or(0, |(_, seconds)| *seconds);
        return format!("(slot * 900 + {seconds}) / 86400");
    }
    let mut offset = String::from("CASE");
    let mut offsets = span.offsets.iter().peekable();
    while let Some((_, seconds)) = offsets.next() {
        match offsets.peek() {
            Some((next_since, _)) => {
                let _ = write!(
                    offset,
                    " WHEN slot < {} THEN {seconds}",
                    next_since / SLOT_MS
                );
            }
            None => {
                let _ = write!(offset, " ELSE {seconds}");
            }
        }
    }
    offset.push_str(" END");
    format!("(slot * 900 + {offset}) / 86400")
}

/// The rows of `query`, a read of the rollup, after [`Dialect::ROLLUP_READ_SETTINGS`] in a
/// transaction of its own where the backend has any.
async fn read_rollup<'q, DB, O>(
    pool: &Pool<DB>,
    query: QueryAs<'q, DB, O, <DB as sqlx::Database>::Arguments<'q>>,
) -> StoreResult<Vec<O>>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    <DB as sqlx::Database>::Arguments<'q>: IntoArguments<'q, DB>,
    for<'r> O: FromRow<'r, DB::Row> + Send + Unpin,
{
    let Some(settings) = DB::ROLLUP_READ_SETTINGS else {
        return Ok(query.fetch_all(pool).await?);
    };
    let mut tx = pool.begin().await?;
    sqlx::query::<DB>(settings).execute(&mut *tx).await?;
    let rows = query.fetch_all(&mut *tx).await?;
    tx.commit().await?;
    Ok(rows)
}

#[async_trait]
impl<DB> AnalyticsStore for SqlStore<DB>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'r> OutcomeRow: FromRow<'r, DB::Row>,
    for<'r> StateTotalRow: FromRow<'r, DB::Row>,
    for<'r> StatusCountRow: FromRow<'r, DB::Row>,
    for<'r> PlanRow: FromRow<'r, DB::Row>,
    for<'r> CountRow: FromRow<'r, DB::Row>,
    for<'r> super::rollup_fold::FoldedRow: FromRow<'r, DB::Row>,
{
    async fn day_outcomes(&self, span: &LocalSpan) -> StoreResult<Vec<DayOutcome>> {
        // The offsets are integers computed by the caller, never text: written into the
        // statement, they let both planners see a plain expression.
        let sql = format!(
            "SELECT {day} AS day, currency, state, three_ds, decline_code, \
             CAST(SUM(n) AS BIGINT) AS n, CAST(SUM(amount) AS BIGINT) AS amount, \
             CAST(SUM(captured) AS BIGINT) AS captured, CAST(SUM(refunded) AS BIGINT) AS refunded \
             FROM payment_rollup WHERE slot >= $1 AND slot < $2 \
             GROUP BY 1, currency, state, three_ds, decline_code HAVING SUM(n) > 0 \
             ORDER BY 1, currency, state, three_ds, decline_code",
            day = local_day_sql(span)
        );
        let query = sqlx::query_as::<DB, OutcomeRow>(&sql)
            .bind(span.from_ms.div_euclid(SLOT_MS))
            .bind(span.before_ms.div_euclid(SLOT_MS));
        read_rollup(&self.pool, query)
            .await?
            .into_iter()
            .map(|row| {
                Ok(DayOutcome {
                    day: row.day,
                    state: named(&row.state, "state", parse_state)?,
                    three_ds: row.three_ds == 1,
                    decline_code: match row.decline_code.as_str() {
                        "" => None,
                        name => Some(named(name, "decline_code", parse_decline)?),
                    },
                    currency: row.currency,
                    payments: unsigned(row.n, "n")?,
                    amount: unsigned(row.amount, "amount")?,
                    captured: unsigned(row.captured, "captured")?,
                    refunded: unsigned(row.refunded, "refunded")?,
                })
            })
            .collect()
    }

    async fn state_counts(&self, span: &LocalSpan) -> StoreResult<Vec<(PaymentState, u64)>> {
        let query = sqlx::query_as::<DB, StateTotalRow>(
            "SELECT state, CAST(SUM(n) AS BIGINT) AS n FROM payment_rollup \
             WHERE slot >= $1 AND slot < $2 GROUP BY state HAVING SUM(n) > 0 ORDER BY state",
        )
        .bind(span.from_ms.div_euclid(SLOT_MS))
        .bind(span.before_ms.div_euclid(SLOT_MS));
        read_rollup(&self.pool, query)
            .await?
            .into_iter()
            .map(|row| {
                Ok((
                    named(&row.state, "state", parse_state)?,
                    unsigned(row.n, "n")?,
                ))
            })
            .collect()
    }

    async fn subscription_standing(
        &self,
        from: OffsetDateTime,
        before: OffsetDateTime,
    ) -> StoreResult<SubscriptionStanding> {
        let mut standing = SubscriptionStanding::default();
        let counts = sqlx::query_as::<DB, StatusCountRow>(
            "SELECT status, COUNT(*) AS n FROM subscriptions \
             WHERE status IN ('active', 'paused') \
             OR (status = 'cancelled' AND updated_at >= $1 AND updated_at < $2) GROUP BY status",
        )
        .bind(ms(from))
        .bind(ms(before))
        .fetch_all(&self.pool)
        .await?;
        for row in counts {
            let n = unsigned(row.n, "count")?;
            match row.status.as_str() {
                "active" => standing.active = n,
                "paused" => standing.paused = n,
                "cancelled" => standing.cancelled = n,
                _ => return Err(StoreError::Corrupt("status")),
            }
        }
        standing.active_plans = sqlx::query_as::<DB, PlanRow>(
            "SELECT plan_id, currency, amount, COUNT(*) AS n FROM subscriptions \
             WHERE status = 'active' GROUP BY plan_id, currency, amount \
             ORDER BY plan_id, currency, amount",
        )
        .fetch_all(&self.pool)
        .await?
        .into_iter()
        .map(|row| {
            Ok(ActivePlan {
                plan_id: row.plan_id,
                currency: row.currency,
                amount: unsigned(row.amount, "amount")?,
                subscriptions: unsigned(row.n, "count")?,
            })
        })
        .collect::<StoreResult<_>>()?;
        Ok(standing)
    }

    async fn review_queue_size(&self, pending_before: OffsetDateTime) -> StoreResult<u64> {
        let row = sqlx::query_as::<DB, CountRow>(
            "SELECT (SELECT COUNT(*) FROM payments WHERE state = 'needs_review') \
             + (SELECT COUNT(*) FROM payments WHERE state = 'pending' AND created_at < $1) AS n",
        )
        .bind(ms(pending_before))
        .fetch_one(&self.pool)
        .await?;
        unsigned(row.n, "count")
    }

    async fn fold_rollup(&self, before: OffsetDateTime) -> StoreResult<u64> {
        super::rollup_fold::fold(&self.pool, ms(before).div_euclid(SLOT_MS)).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_offset_applies_from_its_transition() {
        let span = LocalSpan {
            from_ms: 0,
            before_ms: 10 * SLOT_MS,
            offsets: vec![(0, 3600), (4 * SLOT_MS, 7200)],
        };
        assert_eq!(
            local_day_sql(&span),
            "(slot * 900 + CASE WHEN slot < 4 THEN 3600 ELSE 7200 END) / 86400"
        );
        let utc = LocalSpan {
            offsets: vec![],
            ..span
        };
        assert_eq!(local_day_sql(&utc), "(slot * 900 + 0) / 86400");
    }
}
