//! The dashboard's audit log ([`AuditStore`]): appended, read, never changed (the migration's
//! triggers refuse updates and deletes on both backends).

use async_trait::async_trait;
use sqlx::{Encode, Executor, FromRow, IntoArguments, Type};
use time::OffsetDateTime;

use super::codec::{int_opt, ms, time, unsigned};
use super::fetch::all_by_key;
use super::{Dialect, SqlStore};
use crate::store::error::{StoreError, StoreResult};
use crate::store::model::page::effective_limit;
use crate::store::staff::{AuditEntry, AuditStore, NewAuditEntry};

const AUDIT_COLUMNS: &str = "id, at, staff_id, staff_email, action, payment_id, object_type, \
     object_id, amount, currency, address, outcome, detail";

#[derive(FromRow)]
pub(crate) struct AuditRow {
    id: i64,
    at: i64,
    staff_id: Option<String>,
    staff_email: String,
    action: String,
    payment_id: Option<String>,
    object_type: Option<String>,
    object_id: Option<String>,
    amount: Option<i64>,
    currency: Option<String>,
    address: Option<String>,
    outcome: String,
    detail: Option<String>,
}

impl TryFrom<AuditRow> for AuditEntry {
    type Error = StoreError;

    fn try_from(row: AuditRow) -> StoreResult<Self> {
        Ok(Self {
            id: row.id,
            at: time(row.at, "at")?,
            entry: NewAuditEntry {
                staff_id: row.staff_id,
                staff_email: row.staff_email,
                action: row.action,
                payment_id: row.payment_id,
                object_type: row.object_type,
                object_id: row.object_id,
                amount: row.amount.map(|a| unsigned(a, "amount")).transpose()?,
                currency: row.currency,
                address: row.address,
                outcome: row.outcome,
                detail: row.detail,
            },
        })
    }
}

#[derive(FromRow)]
pub(crate) struct IdRow {
    id: i64,
}

#[async_trait]
impl<DB> AuditStore for SqlStore<DB>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'q> &'q str: Encode<'q, DB> + Type<DB>,
    for<'q> Option<i64>: Encode<'q, DB>,
    for<'q> Option<String>: Encode<'q, DB>,
    for<'r> AuditRow: FromRow<'r, DB::Row>,
    for<'r> IdRow: FromRow<'r, DB::Row>,
{
    async fn append_audit(&self, entry: NewAuditEntry, now: OffsetDateTime) -> StoreResult<i64> {
        let row = sqlx::query_as::<DB, IdRow>(
            "INSERT INTO audit_log (at, staff_id, staff_email, action, payment_id, object_type, \
             object_id, amount, currency, address, outcome, detail) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id",
        )
        .bind(ms(now))
        .bind(entry.staff_id)
        .bind(entry.staff_email)
        .bind(entry.action)
        .bind(entry.payment_id)
        .bind(entry.object_type)
        .bind(entry.object_id)
        .bind(int_opt(entry.amount, "amount")?)
        .bind(entry.currency)
        .bind(entry.address)
        .bind(entry.outcome)
        .bind(entry.detail)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.id)
    }

    async fn list_audit(&self, before: Option<i64>, limit: u32) -> StoreResult<Vec<AuditEntry>> {
        let sql = format!(
            "SELECT {AUDIT_COLUMNS} FROM audit_log WHERE ($1 IS NULL OR id < $1) \
             ORDER BY id DESC LIMIT $2"
        );
        sqlx::query_as::<DB, AuditRow>(&sql)
            .bind(before)
            .bind(i64::from(effective_limit(limit)))
            .fetch_all(&self.pool)
            .await?
            .into_iter()
            .map(AuditEntry::try_from)
            .collect()
    }

    async fn payment_audit(&self, payment_id: &str) -> StoreResult<Vec<AuditEntry>> {
        let sql =
            format!("SELECT {AUDIT_COLUMNS} FROM audit_log WHERE payment_id = $1 ORDER BY id");
        all_by_key::<DB, AuditRow, AuditEntry>(&self.pool, &sql, payment_id).await
    }

    async fn object_audit(&self, object_id: &str) -> StoreResult<Vec<AuditEntry>> {
        let sql = format!("SELECT {AUDIT_COLUMNS} FROM audit_log WHERE object_id = $1 ORDER BY id");
        all_by_key::<DB, AuditRow, AuditEntry>(&self.pool, &sql, object_id).await
    }
}
