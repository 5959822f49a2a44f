//! Keeping the block lists (`risk_blocks`, migration 0018): add, list a page, read, remove, and
//! count the payments an entry would have caught.
//! Matching a try against them is part of the risk counts (`store::risk`).

use async_trait::async_trait;
use time::OffsetDateTime;

use super::error::StoreResult;
use super::model::{BlockEntry, NewBlock, Page, PageCursor, PaymentQuery};

/// The block-list entries.
#[async_trait]
pub trait BlockListStore: Send + Sync {
    /// Adds `new` at `now`; [`StoreError::Conflict`](super::StoreError::Conflict) when an
    /// entry of its kind and value is already there.
    async fn add_block(&self, new: NewBlock, now: OffsetDateTime) -> StoreResult<BlockEntry>;
    /// A page of entries, newest first: at most `limit` (0: 20, capped at 100), after `after`.
    async fn list_blocks(
        &self,
        limit: u32,
        after: Option<PageCursor>,
    ) -> StoreResult<Page<BlockEntry>>;
    /// The entry with this id.
    async fn get_block(&self, id: &str) -> StoreResult<Option<BlockEntry>>;
    /// Removes the entry with this id and returns it; `None` when there was none.
    async fn delete_block(&self, id: &str) -> StoreResult<Option<BlockEntry>>;
    /// How many payments `query` selects (its cursor and page size aside): what a block would
    /// have caught, shown before it is added.
    async fn count_payments(&self, query: PaymentQuery) -> StoreResult<u64>;
}
