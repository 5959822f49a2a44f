//! Payment links (`payment_links`, migration 0038): made, listed, read by either id,
//! deactivated, their page views counted, their figures and the receipts of their sessions
//! read. The places of a limited link are taken by the payment insert itself (the migration's
//! trigger), not here.

use async_trait::async_trait;
use time::OffsetDateTime;

use super::error::StoreResult;
use super::model::{LinkFigures, NewPaymentLink, Page, PageCursor, PaymentLink, Session};

/// The payment links.
#[async_trait]
pub trait PaymentLinkStore: Send + Sync {
    /// Stores `new` (validated) at `now`; the store assigns `id` (`plink_…`) and the random
    /// `public_id`.
    async fn create_link(
        &self,
        new: NewPaymentLink,
        now: OffsetDateTime,
    ) -> StoreResult<PaymentLink>;
    /// The link with this id.
    async fn get_link(&self, id: &str) -> StoreResult<Option<PaymentLink>>;
    /// The link whose public id (the one in its page's address) this is.
    async fn find_link_by_public_id(&self, public_id: &str) -> StoreResult<Option<PaymentLink>>;
    /// A page of links, newest first: at most `limit` (0: 20, capped at 100), after `after`.
    async fn list_links(
        &self,
        limit: u32,
        after: Option<PageCursor>,
    ) -> StoreResult<Page<PaymentLink>>;
    /// Deactivates the link for good (a second call keeps the first time); `None` when there
    /// is no such link.
    async fn deactivate_link(
        &self,
        id: &str,
        now: OffsetDateTime,
    ) -> StoreResult<Option<PaymentLink>>;
    /// Counts one view of the link's page; whether there is such a link.
    async fn record_link_view(&self, public_id: &str) -> StoreResult<bool>;
    /// What the link has brought in; `None` when there is no such link.
    async fn link_figures(&self, id: &str) -> StoreResult<Option<LinkFigures>>;
    /// The session (of a link) whose receipt id this is.
    async fn find_receipt_session(&self, receipt_id: &str) -> StoreResult<Option<Session>>;
}
