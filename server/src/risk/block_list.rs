//! Managing the block lists, for the merchant API and the dashboard alike: add an entry from a
//! typed value or from a payment (its card's fingerprint, its client's address), list, remove.
//! A card is only ever blocked from a payment: no card number is taken here.

use time::OffsetDateTime;

use super::RiskService;
use super::blocks::{BadBlockValue, BlockKind, BlockValue};
use crate::store::StoreError;
use crate::store::model::{BlockEntry, NewBlock, Page, PageCursor};

/// What to block.
#[derive(Clone, Debug)]
pub enum BlockTarget {
    /// A typed value of a kind other than a card.
    Value(BlockKind, String),
    /// The card of this payment (its fingerprint).
    CardOf(String),
    /// The client address of this payment (an IPv4 address, or an IPv6 /64).
    AddressOf(String),
}

/// Why an entry was not added.
#[derive(Debug, thiserror::Error)]
pub enum BlockError {
    /// A field is wrong: `field` names it.
    #[error("{field}: {reason}")]
    Invalid {
        /// The field at fault (`kind`, `value`, `payment_id`, `note`).
        field: &'static str,
        /// Why.
        reason: &'static str,
    },
    /// No payment with that id.
    #[error("no such payment")]
    NoPayment,
    /// An entry of that kind and value is already there.
    #[error("already on the block list")]
    Duplicate,
    /// The store failed.
    #[error(transparent)]
    Store(StoreError),
}

impl From<StoreError> for BlockError {
    fn from(error: StoreError) -> Self {
        match error {
            StoreError::Conflict(_) => Self::Duplicate,
            other => Self::Store(other),
        }
    }
}

fn invalid(field: &'static str) -> impl Fn(BadBlockValue) -> BlockError {
    move |BadBlockValue(reason)| BlockError::Invalid { field, reason }
}

impl RiskService {
    /// Adds `target` to its block list with `note`, by `by` (a staff e-mail, or `api`).
    pub async fn add_block(
        &self,
        target: BlockTarget,
        note: Option<&str>,
        by: &str,
    ) -> Result<BlockEntry, BlockError> {
        let from_payment = match &target {
            BlockTarget::CardOf(id) | BlockTarget::AddressOf(id) => Some(id.clone()),
            BlockTarget::Value(..) => None,
        };
        let value = match target {
            BlockTarget::Value(BlockKind::Card, _) => {
                return Err(BlockError::Invalid {
                    field: "payment_id",
                    reason: "a card is blocked from one of its payments: give payment_id, never a card number",
                });
            }
            BlockTarget::Value(kind, text) => {
                BlockValue::parse(kind, &text).map_err(invalid("value"))?
            }
            BlockTarget::CardOf(payment_id) => {
                let payment = self.payment(&payment_id).await?;
                let fingerprint = payment.card_fingerprint.ok_or(BlockError::Invalid {
                    field: "payment_id",
                    reason: "the payment has no card fingerprint to block",
                })?;
                BlockValue::card(&fingerprint).map_err(invalid("payment_id"))?
            }
            BlockTarget::AddressOf(payment_id) => {
                let payment = self.payment(&payment_id).await?;
                let key = payment.client_key.ok_or(BlockError::Invalid {
                    field: "payment_id",
                    reason: "the payment has no client address to block",
                })?;
                BlockValue::client_key(&key).map_err(invalid("payment_id"))?
            }
        };
        let entry = NewBlock {
            payment_id: from_payment,
            ..value.entry(note, by).map_err(invalid("note"))?
        };
        Ok(self
            .store
            .add_block(entry, OffsetDateTime::now_utc())
            .await?)
    }

    /// A page of entries, newest first.
    pub async fn list_blocks(
        &self,
        limit: u32,
        after: Option<PageCursor>,
    ) -> Result<Page<BlockEntry>, StoreError> {
        self.store.list_blocks(limit, after).await
    }

    /// Removes the entry `id`; `None` when there was none.
    pub async fn remove_block(&self, id: &str) -> Result<Option<BlockEntry>, StoreError> {
        self.store.delete_block(id).await
    }

    async fn payment(&self, id: &str) -> Result<crate::store::model::Payment, BlockError> {
        self.store
            .get_payment(id)
            .await?
            .ok_or(BlockError::NoPayment)
    }
}
