//! `Idempotency-Key` records: claimed atomically by an insert that only one request can win.

use async_trait::async_trait;
use sqlx::{Encode, Executor, FromRow, IntoArguments, Type};
use time::OffsetDateTime;

use super::codec::{ms, time, unsigned};
use super::rows::IdRow;
use super::{Dialect, SqlStore};
use crate::store::error::{StoreError, StoreResult};
use crate::store::model::{IdempotencyBegin, IdempotencyKey, StoredResponse};
use crate::store::secret::BodyDigest;
use crate::store::traits::IdempotencyStore;

/// How often `begin` retries when the record it collided with vanished (released) before it
/// could be read. Each retry is a fresh insert, so this is not a wait but a bound.
const BEGIN_TRIES: usize = 3;

#[derive(FromRow)]
pub(crate) struct IdempotencyRow {
    request_digest: String,
    status: String,
    response_status: Option<i64>,
    response_body: Option<String>,
    created_at: i64,
}

impl IdempotencyRow {
    fn outcome(self, request: &BodyDigest) -> StoreResult<IdempotencyBegin> {
        if self.request_digest != request.as_hex() {
            return Ok(IdempotencyBegin::Conflict);
        }
        match (
            self.status.as_str(),
            self.response_status,
            self.response_body,
        ) {
            ("in_progress", _, _) => Ok(IdempotencyBegin::InProgress {
                since: time(self.created_at, "created_at")?,
            }),
            ("completed", Some(status), Some(body)) => {
                Ok(IdempotencyBegin::Completed(StoredResponse {
                    status: unsigned(status, "response_status")?,
                    body,
                }))
            }
            _ => Err(StoreError::Corrupt("idempotency status")),
        }
    }
}

#[async_trait]
impl<DB> IdempotencyStore for SqlStore<DB>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'q> Option<i64>: Encode<'q, DB>,
    for<'q> Option<String>: Encode<'q, DB>,
    for<'r> IdRow: FromRow<'r, DB::Row>,
    for<'r> IdempotencyRow: FromRow<'r, DB::Row>,
{
    async fn begin_idempotent(
        &self,
        key: &IdempotencyKey,
        request: &BodyDigest,
        now: OffsetDateTime,
    ) -> StoreResult<IdempotencyBegin> {
        // On the pay call's path (`Idempotency-Key`): hot connections (see `hot`).
        for _ in 0..BEGIN_TRIES {
            let claim = sqlx::query_as::<DB, IdRow>(
                "INSERT INTO idempotency_records (scope, key, request_digest, status, created_at) \
                 VALUES ($1, $2, $3, 'in_progress', $4) \
                 ON CONFLICT (scope, key) DO NOTHING RETURNING key AS id",
            )
            .bind(key.scope().to_owned())
            .bind(key.key().to_owned())
            .bind(request.as_hex().to_owned())
            .bind(ms(now));
            if self.fetch_optional_hot(claim).await?.is_some() {
                return Ok(IdempotencyBegin::New);
            }
            let look = sqlx::query_as::<DB, IdempotencyRow>(
                "SELECT request_digest, status, response_status, response_body, created_at \
                 FROM idempotency_records WHERE scope = $1 AND key = $2",
            )
            .bind(key.scope().to_owned())
            .bind(key.key().to_owned());
            let existing = self.fetch_optional_hot(look).await?;
            if let Some(row) = existing {
                return row.outcome(request);
            }
        }
        Err(StoreError::Conflict("idempotency key kept changing"))
    }

    async fn complete_idempotent(
        &self,
        key: &IdempotencyKey,
        response: &StoredResponse,
        now: OffsetDateTime,
    ) -> StoreResult<()> {
        let complete = sqlx::query_as::<DB, IdRow>(
            "UPDATE idempotency_records SET status = 'completed', response_status = $3, \
             response_body = $4, completed_at = $5 \
             WHERE scope = $1 AND key = $2 AND status = 'in_progress' RETURNING key AS id",
        )
        .bind(key.scope().to_owned())
        .bind(key.key().to_owned())
        .bind(i64::from(response.status))
        .bind(response.body.clone())
        .bind(ms(now));
        let done = self.fetch_optional_hot(complete).await?;
        done.map(|_| ())
            .ok_or(StoreError::NotFound("idempotency key in progress"))
    }

    async fn release_idempotent(&self, key: &IdempotencyKey) -> StoreResult<()> {
        sqlx::query(
            "DELETE FROM idempotency_records \
             WHERE scope = $1 AND key = $2 AND status = 'in_progress'",
        )
        .bind(key.scope().to_owned())
        .bind(key.key().to_owned())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn purge_idempotency(&self, before: OffsetDateTime) -> StoreResult<u64> {
        let result = sqlx::query("DELETE FROM idempotency_records WHERE created_at < $1")
            .bind(ms(before))
            .execute(&self.pool)
            .await?;
        Ok(DB::rows_affected(&result))
    }
}
