//! [`RiskOverrideStore`] on both backends (migration 0020): one row per rule, replaced by an
//! upsert.

use async_trait::async_trait;
use sqlx::{Encode, Executor, FromRow, IntoArguments, Type};

use super::codec::{ms, time, unsigned};
use super::{Dialect, SqlStore};
use crate::store::error::StoreResult;
use crate::store::risk_overrides::{RiskOverride, RiskOverrideStore};

#[derive(FromRow)]
pub(crate) struct OverrideRow {
    rule: String,
    threshold: i64,
    set_by: String,
    set_at: i64,
}

#[async_trait]
impl<DB> RiskOverrideStore for SqlStore<DB>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'r> OverrideRow: FromRow<'r, DB::Row>,
{
    async fn risk_overrides(&self) -> StoreResult<Vec<RiskOverride>> {
        sqlx::query_as::<DB, OverrideRow>(
            "SELECT rule, threshold, set_by, set_at FROM risk_overrides ORDER BY rule",
        )
        .fetch_all(&self.pool)
        .await?
        .into_iter()
        .map(|row| {
            Ok(RiskOverride {
                threshold: unsigned(row.threshold, "threshold")?,
                set_at: time(row.set_at, "set_at")?,
                rule: row.rule,
                set_by: row.set_by,
            })
        })
        .collect()
    }

    async fn set_risk_override(&self, item: &RiskOverride) -> StoreResult<()> {
        sqlx::query::<DB>(
            "INSERT INTO risk_overrides (rule, threshold, set_by, set_at) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (rule) DO UPDATE SET threshold = excluded.threshold, \
             set_by = excluded.set_by, set_at = excluded.set_at",
        )
        .bind(item.rule.clone())
        .bind(i64::from(item.threshold))
        .bind(item.set_by.clone())
        .bind(ms(item.set_at))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn clear_risk_override(&self, rule: &str) -> StoreResult<bool> {
        let done = sqlx::query::<DB>("DELETE FROM risk_overrides WHERE rule = $1")
            .bind(rule.to_owned())
            .execute(&self.pool)
            .await?;
        Ok(DB::rows_affected(&done) > 0)
    }
}
