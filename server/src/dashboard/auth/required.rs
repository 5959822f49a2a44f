//! `DASHBOARD_REQUIRE_2FA`: an admin without two-factor sign-in reaches only the account page
//! (to enrol) and logout. [`Staff`](super::Staff) refuses them everywhere else with a redirect
//! to the account page; [`Enrolling`] is the extractor of the pages they may still use.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;

use super::Staff;
use crate::dashboard::error::DashboardError;
use crate::dashboard::state::DashboardState;
use crate::store::prelude::*;

/// Whether `user` must set up two-factor sign-in before anything else.
pub fn must_enrol(state: &DashboardState, user: &StaffUser) -> bool {
    state.app.config.dashboard.require_2fa
        && user.role == StaffRole::Admin
        && !user.has_two_factor()
}

/// A logged-in staff member who may not have enrolled yet.
#[derive(Debug, Clone)]
pub struct Enrolling(pub Staff);

impl FromRequestParts<DashboardState> for Enrolling {
    type Rejection = DashboardError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &DashboardState,
    ) -> Result<Self, Self::Rejection> {
        Staff::of_request(parts, state).await.map(Self)
    }
}
