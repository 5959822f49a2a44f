//! Checking a login's password: the per-address limit first, then the account's lock, then
//! the password (argon2id; an unknown e-mail costs the same time). Each failure is counted on
//! the account (the store locks it at the [`FAILURES_BEFORE_LOCK`]th in a row) and every
//! attempt is written to the audit log. The messages never say whether the e-mail exists. For
//! an account with two-factor sign-in a right password is only half a login: its failures are
//! forgotten only once the code is right too ([`second_step`](super::second_step)).

use std::net::IpAddr;

use secrecy::SecretString;
use time::OffsetDateTime;

use super::accounts::normalise_email;
use super::limits::{FAILURES_BEFORE_LOCK, LOCK_FOR};
use super::password;
use crate::dashboard::audit::{Actor, record};
use crate::dashboard::error::DashboardError;
use crate::dashboard::state::DashboardState;
use crate::store::prelude::*;

/// What the login page tells a refused attempt.
pub const REFUSED: &str = "E-mail or password is wrong, or the account is locked or disabled.";

/// The account `email` and `password` open, or why not; for an account with two-factor
/// sign-in this is only the first step ([`StaffUser::has_two_factor`]).
pub async fn authenticate(
    state: &DashboardState,
    email: &str,
    password: SecretString,
    client: IpAddr,
) -> Result<StaffUser, DashboardError> {
    state.limits.take(client).map_err(DashboardError::TooMany)?;
    let email = normalise_email(email).unwrap_or_default();
    let store = state.app.store.as_ref();
    let user = if email.is_empty() {
        None
    } else {
        store.staff_by_email(&email).await?
    };
    let now = OffsetDateTime::now_utc();
    let open = user
        .as_ref()
        .is_some_and(|u| u.disabled_at.is_none() && !u.locked_at(now));
    let stored = user
        .as_ref()
        .filter(|_| open)
        .map(|u| u.password_hash.clone());
    let matched = password::verify(password, stored).await;
    let actor = match &user {
        Some(user) => Actor::account(user, client),
        // What was typed for an unknown account is not kept: it may be a password.
        None => Actor {
            staff_id: None,
            email: "(unknown account)".into(),
            address: client,
        },
    };
    match user {
        Some(user) if matched && user.has_two_factor() => {
            record(state, &actor, "login_password", None, "code_required", None).await;
            Ok(user)
        }
        Some(user) if matched => {
            store.clear_login_failures(&user.id).await?;
            record(state, &actor, "login", None, "ok", None).await;
            Ok(user)
        }
        Some(user) => {
            if user.disabled_at.is_some() {
                record(state, &actor, "login_failed", None, "disabled", None).await;
            } else if user.locked_at(now) {
                record(state, &actor, "login_failed", None, "locked", None).await;
            } else {
                count_failure(state, &actor, &user, "login_failed", "wrong_password").await?;
            }
            Err(refused())
        }
        None => {
            record(state, &actor, "login_failed", None, "unknown_account", None).await;
            Err(refused())
        }
    }
}

/// Counts a failed proof (password or code) against `user`'s lock-out and writes `action`
/// with outcome `why` to the audit log (`why_locked` when this failure locked the account).
pub async fn count_failure(
    state: &DashboardState,
    actor: &Actor,
    user: &StaffUser,
    action: &str,
    why: &str,
) -> Result<(), DashboardError> {
    let now = OffsetDateTime::now_utc();
    let after = state
        .app
        .store
        .record_login_failure(&user.id, now, FAILURES_BEFORE_LOCK, LOCK_FOR)
        .await?;
    let outcome = if after.is_some_and(|u| u.locked_at(now)) {
        format!("{why}_locked")
    } else {
        why.to_owned()
    };
    record(state, actor, action, None, &outcome, None).await;
    Ok(())
}

fn refused() -> DashboardError {
    DashboardError::Forbidden("e-mail or password is wrong, or the account is locked or disabled")
}
