//! Checkout sessions.

use async_trait::async_trait;
use sqlx::{Encode, Executor, FromRow, IntoArguments, Type};
use time::OffsetDateTime;
use uuid::Uuid;

use super::cards::{CustomerRow, upsert_customer_on};
use super::codec::{int, ms};
use super::fetch::optional_by_key;
use super::rows::{SESSION_COLUMNS, SessionRow};
use super::{Dialect, SqlStore};
use crate::store::error::StoreResult;
use crate::store::model::{NewSession, Session};
use crate::store::traits::SessionStore;

#[async_trait]
impl<DB> SessionStore for SqlStore<DB>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'q> Option<i64>: Encode<'q, DB>,
    for<'q> Option<String>: Encode<'q, DB>,
    for<'r> SessionRow: FromRow<'r, DB::Row>,
    for<'r> CustomerRow: FromRow<'r, DB::Row>,
{
    async fn create_session(&self, new: NewSession) -> StoreResult<Session> {
        new.validate()?;
        let now = ms(OffsetDateTime::now_utc());
        let mut tx = self.pool.begin().await?;
        if let Some(customer_id) = &new.customer_id {
            upsert_customer_on::<DB>(&mut tx, customer_id, new.email.as_deref(), now).await?;
        }
        let sql = format!(
            "INSERT INTO checkout_sessions ({SESSION_COLUMNS}) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) \
             RETURNING {SESSION_COLUMNS}"
        );
        let row = sqlx::query_as::<DB, SessionRow>(&sql)
            .bind(Uuid::new_v4().to_string())
            .bind(new.client_secret_hash.to_hex())
            .bind(int(new.amount, "amount")?)
            .bind(new.currency)
            .bind(new.reference)
            .bind(new.capture_mode.as_str().to_owned())
            .bind(new.customer_id)
            .bind(new.email)
            .bind(new.plan_id)
            .bind(new.description)
            .bind(now)
            .bind(ms(new.expires_at))
            .fetch_one(&mut *tx)
            .await?;
        tx.commit().await?;
        row.try_into()
    }

    async fn get_session(&self, id: &str) -> StoreResult<Option<Session>> {
        let sql = format!("SELECT {SESSION_COLUMNS} FROM checkout_sessions WHERE id = $1");
        optional_by_key::<DB, SessionRow, _>(&self.pool, &sql, id).await
    }
}
