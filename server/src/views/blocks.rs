//! The merchant API's view of block-list entries, and the words the audit log says of one
//! ([`describe`]). A card entry shows the payment it was made from, never its fingerprint (a
//! keyed hash stays in the database).

use serde::Serialize;

use super::merchant::rfc3339;
use crate::store::model::{BlockEntry, BlockKind};

/// One entry.
#[derive(Debug, Clone, Serialize)]
pub struct BlockView {
    /// Its id.
    pub id: String,
    /// `card`, `bin`, `address`, `email`, `email_domain` or `customer`.
    pub kind: &'static str,
    /// The normalised value; absent for a card.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// The payment it was made from, if one.
    pub payment_id: Option<String>,
    /// Why, if said.
    pub note: Option<String>,
    /// The staff e-mail, or `api`.
    pub added_by: String,
    /// When it was added (RFC 3339).
    pub created_at: String,
}

impl BlockView {
    /// The view of `entry`.
    pub fn new(entry: &BlockEntry) -> Self {
        Self {
            id: entry.id.clone(),
            kind: entry.kind.name(),
            value: (entry.kind != BlockKind::Card).then(|| entry.value.clone()),
            payment_id: entry.payment_id.clone(),
            note: entry.note.clone(),
            added_by: entry.added_by.clone(),
            created_at: rfc3339(entry.created_at),
        }
    }
}

/// A page of entries, newest first.
#[derive(Debug, Clone, Serialize)]
pub struct BlockList {
    /// The entries.
    pub data: Vec<BlockView>,
    /// Whether there are more.
    pub has_more: bool,
    /// Pass as `after` for the next page; absent on the last.
    pub next_cursor: Option<String>,
}

/// A short description of `entry` for the audit log: its kind and value (a card's by the
/// payment it came from, never its fingerprint).
pub fn describe(entry: &BlockEntry) -> String {
    match (entry.kind, &entry.payment_id) {
        (BlockKind::Card, Some(payment)) => format!("card of payment {payment}"),
        (BlockKind::Card, None) => "card".into(),
        (kind, _) => format!("{} {}", kind.name(), entry.value),
    }
}
