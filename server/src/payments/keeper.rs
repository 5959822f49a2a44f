//! "Is this session paid?": one answer, asked everywhere (issue 45).
//!
//! A session is paid once a payment of it is authorized or captured, and for good: whatever
//! later happens to that payment (voided, refunded by staff), the session takes no other pay.
//! Its first payment paid is its keeper, written once on the session row by the statement
//! that pays it (migration 0026), serialised on that row. Everything that asks reads that
//! record: [`PaymentService::keeper`] here for the services (the claim's wait and release,
//! the component's result, the return page, the merchant view); in SQL, the claim insert
//! (`store/sql/new_payment.rs`), paying again (`store/sql/retry.rs`, which also marks surplus
//! against it) and the step that pays a payment of a paid session (marked surplus at once).
//! No rule looks at payment states to decide it.

use super::{PaymentError, PaymentService};
use crate::store::model::SessionKeeper;

impl PaymentService {
    /// The payment that paid `session_id`, if it is paid.
    pub async fn keeper(&self, session_id: &str) -> Result<Option<SessionKeeper>, PaymentError> {
        Ok(self.store().session_keeper(session_id).await?)
    }

    /// Whether `session_id` is paid.
    pub async fn is_paid(&self, session_id: &str) -> Result<bool, PaymentError> {
        Ok(self.keeper(session_id).await?.is_some())
    }
}
