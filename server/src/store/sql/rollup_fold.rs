//! Folding the dashboard rollup's shards ([`AnalyticsStore::fold_rollup`]).
//!
//! On PostgreSQL each connection counts its payments in a shard of its own (migration 0024),
//! so that concurrent pays never queue on one row's lock. A past slot's shards are folded
//! back into shard 0 by one statement that deletes them and adds their sums to it: every sum
//! a reader can see is the same before and after, so the dashboard is never out of step, and
//! its reads of past days find one row a group again. A fold that would add nothing (the
//! `pending` rows of a slot whose payments all settled) leaves no row. SQLite has one
//! writer and no shards: there is nothing to fold.
//!
//! [`AnalyticsStore::fold_rollup`]: crate::store::analytics::AnalyticsStore::fold_rollup

use sqlx::{Encode, Executor, FromRow, IntoArguments, Pool, Type};

use super::Dialect;
use super::codec::unsigned;
use crate::store::error::StoreResult;

/// What a fold moved: how many shard rows, and the first slot they were of.
#[derive(FromRow)]
pub(crate) struct FoldedRow {
    n: i64,
    first: Option<i64>,
}

/// Moves the shards of every slot before `$1` into shard 0 (found by the partial index
/// `payment_rollup_shards`, which holds only rows not folded yet); its one row is how many
/// shard rows it moved and the first slot among them (a data-modifying `WITH` runs whatever
/// the outer query reads).
const FOLD_SHARDS: &str = "WITH moved AS (\
         DELETE FROM payment_rollup WHERE slot < $1 AND shard <> 0 \
         RETURNING slot, currency, state, three_ds, decline_code, n, amount, captured, refunded), \
     folded AS (INSERT INTO payment_rollup \
         (slot, currency, state, three_ds, decline_code, shard, n, amount, captured, refunded) \
         SELECT slot, currency, state, three_ds, decline_code, 0, \
             SUM(n), SUM(amount), SUM(captured), SUM(refunded) FROM moved \
         GROUP BY slot, currency, state, three_ds, decline_code \
         HAVING SUM(n) <> 0 OR SUM(amount) <> 0 OR SUM(captured) <> 0 OR SUM(refunded) <> 0 \
         ON CONFLICT (slot, currency, state, three_ds, decline_code, shard) DO UPDATE SET \
             n = payment_rollup.n + excluded.n, \
             amount = payment_rollup.amount + excluded.amount, \
             captured = payment_rollup.captured + excluded.captured, \
             refunded = payment_rollup.refunded + excluded.refunded) \
     SELECT COUNT(*) AS n, MIN(slot) AS first FROM moved";

/// Deletes the rows of the folded slots (`$2` to before `$1`) that count nothing (a slot's
/// `pending` once its payments moved on). A separate statement: one statement cannot both
/// delete a row and update it through `ON CONFLICT`.
const DROP_EMPTY: &str = "DELETE FROM payment_rollup WHERE slot >= $2 AND slot < $1 \
     AND shard = 0 AND n = 0 AND amount = 0 AND captured = 0 AND refunded = 0";

/// Folds the shards of the slots before `before_slot`; how many shard rows were folded.
pub(super) async fn fold<DB>(pool: &Pool<DB>, before_slot: i64) -> StoreResult<u64>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'r> FoldedRow: FromRow<'r, DB::Row>,
{
    if !DB::ROLLUP_SHARDS {
        return Ok(0);
    }
    let mut tx = pool.begin().await?;
    let moved = sqlx::query_as::<DB, FoldedRow>(FOLD_SHARDS)
        .bind(before_slot)
        .fetch_one(&mut *tx)
        .await?;
    if let Some(first) = moved.first {
        sqlx::query::<DB>(DROP_EMPTY)
            .bind(before_slot)
            .bind(first)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    unsigned(moved.n, "count")
}
