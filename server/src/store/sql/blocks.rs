//! [`BlockListStore`] on both backends: the `risk_blocks` rows (migration 0018), listed newest
//! first by keyset (`risk_blocks_by_age`).

use async_trait::async_trait;
use sqlx::{Encode, Executor, FromRow, IntoArguments, Type};
use time::OffsetDateTime;
use uuid::Uuid;

use super::codec::{ms, time};
use super::payments::page_cursor;
use super::{Dialect, SqlStore};
use crate::store::blocks::BlockListStore;
use crate::store::error::{StoreError, StoreResult};
use crate::store::model::page::effective_limit;
use crate::store::model::{BlockEntry, BlockKind, NewBlock, Page, PageCursor, PaymentQuery};

/// Columns of [`BlockRow`].
const BLOCK_COLUMNS: &str = "id, kind, value, note, payment_id, added_by, created_at";

#[derive(FromRow)]
pub(crate) struct BlockRow {
    id: String,
    kind: String,
    value: String,
    note: Option<String>,
    payment_id: Option<String>,
    added_by: String,
    created_at: i64,
}

impl TryFrom<BlockRow> for BlockEntry {
    type Error = StoreError;

    fn try_from(row: BlockRow) -> StoreResult<Self> {
        Ok(Self {
            kind: BlockKind::from_name(&row.kind).ok_or(StoreError::Corrupt("risk_blocks.kind"))?,
            created_at: time(row.created_at, "created_at")?,
            id: row.id,
            value: row.value,
            note: row.note,
            payment_id: row.payment_id,
            added_by: row.added_by,
        })
    }
}

#[async_trait]
impl<DB> BlockListStore for SqlStore<DB>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'q> Option<String>: Encode<'q, DB>,
    for<'r> BlockRow: FromRow<'r, DB::Row>,
    for<'r> (i64,): FromRow<'r, DB::Row>,
{
    async fn count_payments(&self, query: PaymentQuery) -> StoreResult<u64> {
        super::payment_list::count::<DB>(&self.pool, query).await
    }

    async fn add_block(&self, new: NewBlock, now: OffsetDateTime) -> StoreResult<BlockEntry> {
        let (start, end) = new.range.unzip();
        let sql = format!(
            "INSERT INTO risk_blocks (id, kind, value, range_start, range_end, note, \
             payment_id, added_by, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) \
             RETURNING {BLOCK_COLUMNS}"
        );
        sqlx::query_as::<DB, BlockRow>(&sql)
            .bind(Uuid::new_v4().to_string())
            .bind(new.kind.name().to_owned())
            .bind(new.value)
            .bind(start)
            .bind(end)
            .bind(new.note)
            .bind(new.payment_id)
            .bind(new.added_by)
            .bind(ms(now))
            .fetch_one(&self.pool)
            .await
            .map_err(|error| StoreError::on_unique(error, "a block-list entry"))?
            .try_into()
    }

    async fn list_blocks(
        &self,
        limit: u32,
        after: Option<PageCursor>,
    ) -> StoreResult<Page<BlockEntry>> {
        let limit = effective_limit(limit);
        let fetch = i64::from(limit) + 1;
        let rows = match after {
            Some(after) => {
                let sql = format!(
                    "SELECT {BLOCK_COLUMNS} FROM risk_blocks \
                     WHERE created_at < $1 OR (created_at = $1 AND id < $2) \
                     ORDER BY created_at DESC, id DESC LIMIT $3"
                );
                sqlx::query_as::<DB, BlockRow>(&sql)
                    .bind(after.created_at_ms)
                    .bind(after.id)
                    .bind(fetch)
                    .fetch_all(&self.pool)
                    .await?
            }
            None => {
                let sql = format!(
                    "SELECT {BLOCK_COLUMNS} FROM risk_blocks \
                     ORDER BY created_at DESC, id DESC LIMIT $1"
                );
                sqlx::query_as::<DB, BlockRow>(&sql)
                    .bind(fetch)
                    .fetch_all(&self.pool)
                    .await?
            }
        };
        let mut items = rows
            .into_iter()
            .map(BlockEntry::try_from)
            .collect::<StoreResult<Vec<_>>>()?;
        let next = page_cursor(&mut items, limit, |last| {
            (ms(last.created_at), last.id.clone())
        });
        Ok(Page { items, next })
    }

    async fn get_block(&self, id: &str) -> StoreResult<Option<BlockEntry>> {
        let sql = format!("SELECT {BLOCK_COLUMNS} FROM risk_blocks WHERE id = $1");
        sqlx::query_as::<DB, BlockRow>(&sql)
            .bind(id.to_owned())
            .fetch_optional(&self.pool)
            .await?
            .map(BlockEntry::try_from)
            .transpose()
    }

    async fn delete_block(&self, id: &str) -> StoreResult<Option<BlockEntry>> {
        let sql = format!("DELETE FROM risk_blocks WHERE id = $1 RETURNING {BLOCK_COLUMNS}");
        sqlx::query_as::<DB, BlockRow>(&sql)
            .bind(id.to_owned())
            .fetch_optional(&self.pool)
            .await?
            .map(BlockEntry::try_from)
            .transpose()
    }
}
