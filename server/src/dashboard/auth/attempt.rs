//! One guess at an account's proof (its password, a code, a recovery code, the proof that
//! turns two-factor sign-in off) against its lock-out: reserve, then check. The store counts
//! the guess as a failure up front, in one statement that also refuses it when the account is
//! locked or disabled ([`StaffStore::reserve_login_attempt`]), so guesses in flight at once
//! cannot all pass a lock check that none of them has counted yet: at most
//! [`FAILURES_BEFORE_LOCK`] in a row are ever checked, on every instance. A right proof then
//! forgets the failures (a right password before a code gives its own guess back); a wrong one
//! has been counted already and is only audited.

use time::OffsetDateTime;

use super::limits::{FAILURES_BEFORE_LOCK, LOCK_FOR};
use crate::dashboard::audit::{Actor, record};
use crate::dashboard::error::DashboardError;
use crate::dashboard::state::DashboardState;
use crate::store::prelude::*;

/// A granted guess: the account as the reservation left it.
#[derive(Debug)]
pub struct Attempt {
    after: StaffUser,
    at: OffsetDateTime,
}

/// Reserves one guess at `user`'s proof; `None` when the account is locked or disabled (the
/// guess must not be checked).
pub async fn reserve(
    state: &DashboardState,
    user: &StaffUser,
) -> Result<Option<Attempt>, DashboardError> {
    let at = OffsetDateTime::now_utc();
    let after = state
        .app
        .store
        .reserve_login_attempt(&user.id, at, FAILURES_BEFORE_LOCK, LOCK_FOR)
        .await?;
    Ok(after.map(|after| Attempt { after, at }))
}

impl Attempt {
    /// Whether this guess locked the account (it was the [`FAILURES_BEFORE_LOCK`]th in a row).
    pub fn locked(&self) -> bool {
        self.after.locked_at(self.at)
    }

    /// The proof was right: the account's failures are forgotten, and the lock this guess set
    /// (if it was the last one allowed) is lifted; a lock set by another guess stays.
    pub async fn succeeded(self, state: &DashboardState) -> Result<(), DashboardError> {
        let own_lock = self.after.locked_until.filter(|_| self.locked());
        state
            .app
            .store
            .clear_login_failures(&self.after.id, own_lock)
            .await?;
        Ok(())
    }

    /// The proof was right but is only half the login (a password before the code): the
    /// guess is given back, so only wrong guesses count toward the lock-out, and the failures
    /// before it stay counted until the code is right too.
    pub async fn released(self, state: &DashboardState) -> Result<(), DashboardError> {
        let own_lock = self.after.locked_until.filter(|_| self.locked());
        state
            .app
            .store
            .release_login_attempt(&self.after.id, own_lock, FAILURES_BEFORE_LOCK)
            .await?;
        Ok(())
    }

    /// The proof was wrong (already counted): writes `action` with outcome `why` to the audit
    /// log, `why_locked` when this guess locked the account.
    pub async fn failed(self, state: &DashboardState, actor: &Actor, action: &str, why: &str) {
        let outcome = if self.locked() {
            format!("{why}_locked")
        } else {
            why.to_owned()
        };
        record(state, actor, action, None, &outcome, None).await;
    }
}
