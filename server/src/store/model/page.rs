//! Keyset pagination, newest first: a page and the cursor to the next one.

use std::fmt;
use std::str::FromStr;

use checkout::card::Brand;
use checkout::contract::{PaymentState, SubscriptionStatus};
use time::OffsetDateTime;

/// Most items one page may hold.
pub const MAX_PAGE_SIZE: u32 = 100;

/// Most items one batch of a streamed export ([`PaymentQuery::bulk`]) may hold.
pub const MAX_BATCH_SIZE: u32 = 2_000;

/// Where the next page starts: the creation time and id of the last item seen.
///
/// Written as `<milliseconds>_<id>`; treat it as opaque.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageCursor {
    /// Creation time of the last item, Unix milliseconds.
    pub created_at_ms: i64,
    /// Its id.
    pub id: String,
}

impl fmt::Display for PageCursor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}_{}", self.created_at_ms, self.id)
    }
}

/// A cursor that is not of the form the store writes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cursor is not one this server issued")]
pub struct BadCursor;

impl FromStr for PageCursor {
    type Err = BadCursor;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let (ms, id) = text.split_once('_').ok_or(BadCursor)?;
        let created_at_ms = ms.parse().map_err(|_| BadCursor)?;
        if !super::id::plausible_id(id) {
            return Err(BadCursor);
        }
        Ok(Self {
            created_at_ms,
            id: id.to_owned(),
        })
    }
}

/// One page of results, newest first.
#[derive(Clone, Debug)]
pub struct Page<T> {
    /// The items.
    pub items: Vec<T>,
    /// Cursor for the next page; `None` on the last one.
    pub next: Option<PageCursor>,
}

/// Which payments to list.
#[derive(Clone, Debug, Default)]
pub struct PaymentQuery {
    /// Only this customer's.
    pub customer_id: Option<String>,
    /// Only this session's.
    pub session_id: Option<String>,
    /// Only in this state.
    pub state: Option<PaymentState>,
    /// Only created at or after this.
    pub created_from: Option<OffsetDateTime>,
    /// Only created before this.
    pub created_before: Option<OffsetDateTime>,
    /// Only of at least this amount (minor units).
    pub amount_min: Option<u64>,
    /// Only of at most this amount (minor units).
    pub amount_max: Option<u64>,
    /// Only in this currency (ISO 4217 code).
    pub currency: Option<String>,
    /// Only made through this payment link.
    pub payment_link_id: Option<String>,
    /// Only of sessions with this reference, or the attempt whose `merchant_txn_ref` (what the
    /// gateway saw: `<reference>-<attempt number>`) it is.
    pub reference: Option<String>,
    /// Only paid with a card ending in these four digits.
    pub card_last4: Option<String>,
    /// Only paid with a card of this brand.
    pub card_brand: Option<Brand>,
    /// Only paid with a card of these first six digits.
    pub card_bin: Option<String>,
    /// Only paid with a card whose fingerprint starts with this short form
    /// ([`super::client_key::short_fingerprint`]).
    pub card_short: Option<String>,
    /// Only from a client whose stored address key is in this range, both ends included
    /// ([`super::client_key::key_range`]).
    pub client_keys: Option<(String, String)>,
    /// Only of sessions with this e-mail (lower case, as stored for the rules).
    pub shopper_email: Option<String>,
    /// Only of sessions whose e-mail is at this domain (lower case).
    pub email_domain: Option<String>,
    /// Page size; 0 means the default (20), anything above [`MAX_PAGE_SIZE`] is capped.
    pub limit: u32,
    /// A batch of a streamed export, read by the server itself: `limit` is capped at
    /// [`MAX_BATCH_SIZE`] instead (never set from a request).
    pub bulk: bool,
    /// Continue after this cursor.
    pub after: Option<PageCursor>,
}

impl PaymentQuery {
    /// The page size to use.
    pub(crate) fn effective_limit(&self) -> u32 {
        match (self.bulk, self.limit) {
            (true, 0) => MAX_BATCH_SIZE,
            (true, n) => n.min(MAX_BATCH_SIZE),
            (false, n) => effective_limit(n),
        }
    }
}

/// Which subscriptions to list.
#[derive(Clone, Debug, Default)]
pub struct SubscriptionQuery {
    /// Only this customer's.
    pub customer_id: Option<String>,
    /// Only in this status.
    pub status: Option<SubscriptionStatus>,
    /// Only of this plan.
    pub plan_id: Option<String>,
    /// Only in this currency (ISO 4217, upper case).
    pub currency: Option<String>,
    /// Page size; 0 means the default (20), anything above [`MAX_PAGE_SIZE`] is capped.
    pub limit: u32,
    /// Continue after this cursor.
    pub after: Option<PageCursor>,
}

/// The page size to use for a requested `limit`.
pub(crate) fn effective_limit(limit: u32) -> u32 {
    match limit {
        0 => 20,
        n => n.min(MAX_PAGE_SIZE),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursor_round_trips() {
        let cursor = PageCursor {
            created_at_ms: 1_700_000_000_123,
            id: "0b6f7a1e-2a4b-4c1d-9e2f-3a4b5c6d7e8f".into(),
        };
        assert_eq!(cursor.to_string().parse::<PageCursor>(), Ok(cursor));
    }

    #[test]
    fn foreign_cursors_are_refused() {
        for text in ["", "abc", "12_", "x_id", "12_a b", "12_'; drop"] {
            assert_eq!(text.parse::<PageCursor>(), Err(BadCursor), "{text}");
        }
    }

    #[test]
    fn limits_are_defaulted_and_capped() {
        assert_eq!(effective_limit(0), 20);
        assert_eq!(effective_limit(5), 5);
        assert_eq!(effective_limit(10_000), MAX_PAGE_SIZE);
        let bulk = |limit| PaymentQuery {
            limit,
            bulk: true,
            ..PaymentQuery::default()
        };
        assert_eq!(bulk(0).effective_limit(), MAX_BATCH_SIZE);
        assert_eq!(bulk(1_000).effective_limit(), 1_000);
        assert_eq!(bulk(1_000_000).effective_limit(), MAX_BATCH_SIZE);
    }
}
