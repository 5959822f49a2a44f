//! The payment a dashboard URL names, read for a page or an action on it: 404 for an id
//! unknown to the store or one the server cannot have issued.

use super::error::DashboardError;
use super::state::DashboardState;
use crate::store::model::{Payment, plausible_id};

/// The payment `id`, or 404 (also for an id the server cannot have issued).
pub async fn load(state: &DashboardState, id: &str) -> Result<Payment, DashboardError> {
    if !plausible_id(id) {
        return Err(DashboardError::NotFound("payment"));
    }
    state
        .app
        .store
        .get_payment(id)
        .await?
        .ok_or(DashboardError::NotFound("payment"))
}
