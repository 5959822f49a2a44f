//! Block-list entries (migration 0018, table `risk_blocks`): what each names, normalised by
//! `risk::blocks` before the store sees it, and who added it.

use time::OffsetDateTime;

/// What a block-list entry names; [`name`](BlockKind::name) is the stored `kind`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlockKind {
    /// A card, by its keyed fingerprint (never its number).
    Card,
    /// The first six digits of a card number.
    Bin,
    /// A client address or range.
    Address,
    /// A shopper's e-mail.
    Email,
    /// The domain of a shopper's e-mail.
    EmailDomain,
    /// A customer id.
    Customer,
}

impl BlockKind {
    /// Every kind, in the order a try is judged by them.
    pub const ALL: [BlockKind; 6] = [
        BlockKind::Card,
        BlockKind::Bin,
        BlockKind::Address,
        BlockKind::Email,
        BlockKind::EmailDomain,
        BlockKind::Customer,
    ];

    /// The stored and API name.
    pub fn name(self) -> &'static str {
        match self {
            BlockKind::Card => "card",
            BlockKind::Bin => "bin",
            BlockKind::Address => "address",
            BlockKind::Email => "email",
            BlockKind::EmailDomain => "email_domain",
            BlockKind::Customer => "customer",
        }
    }

    /// The kind named `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|kind| kind.name() == name)
    }
}

/// An entry to add, its value already normalised.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewBlock {
    /// The kind.
    pub kind: BlockKind,
    /// The normalised value.
    pub value: String,
    /// For an address: the first and last address of the range, 32 hex digits each.
    pub range: Option<(String, String)>,
    /// Why, if said.
    pub note: Option<String>,
    /// The payment it was made from, if one.
    pub payment_id: Option<String>,
    /// The staff e-mail, or `api`.
    pub added_by: String,
}

/// A stored entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockEntry {
    /// A UUID.
    pub id: String,
    /// The kind.
    pub kind: BlockKind,
    /// The normalised value.
    pub value: String,
    /// Why, if said.
    pub note: Option<String>,
    /// The payment it was made from, if one.
    pub payment_id: Option<String>,
    /// The staff e-mail, or `api`.
    pub added_by: String,
    /// When it was added.
    pub created_at: OffsetDateTime,
}
