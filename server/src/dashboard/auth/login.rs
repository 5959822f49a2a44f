//! Checking a login: the per-address limit first, then the account's lock, then the
//! password (argon2id; an unknown e-mail costs the same time). Each failure is counted on the
//! account (the store locks it at the [`FAILURES_BEFORE_LOCK`]th in a row) and every attempt
//! is written to the audit log. The messages never say whether the e-mail exists.

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

/// The account `email` and `password` open, or why not.
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
    let actor = Actor {
        staff_id: user.as_ref().map(|u| u.id.clone()),
        // What was typed for an unknown account is not kept: it may be a password.
        email: if user.is_some() {
            email.clone()
        } else {
            "(unknown account)".into()
        },
        address: client,
    };
    match user {
        Some(user) if matched => {
            store.clear_login_failures(&user.id).await?;
            record(state, &actor, "login", None, "ok", None).await;
            Ok(user)
        }
        Some(user) => {
            let why = if user.disabled_at.is_some() {
                "disabled"
            } else if user.locked_at(now) {
                "locked"
            } else {
                let after = store
                    .record_login_failure(&user.id, now, FAILURES_BEFORE_LOCK, LOCK_FOR)
                    .await?;
                if after.is_some_and(|u| u.locked_at(now)) {
                    "wrong_password_locked"
                } else {
                    "wrong_password"
                }
            };
            record(state, &actor, "login_failed", None, why, None).await;
            Err(refused())
        }
        None => {
            record(state, &actor, "login_failed", None, "unknown_account", None).await;
            Err(refused())
        }
    }
}

fn refused() -> DashboardError {
    DashboardError::Forbidden("e-mail or password is wrong, or the account is locked or disabled")
}
