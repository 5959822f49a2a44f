//! Checking a login's password: the sign-in limits first (per address, then everyone's), then
//! a reserved guess at the account ([`attempt`]: counted before it is checked, refused when
//! the account is locked or disabled), then the password (argon2id under a hashing permit).
//! An attempt that may not be checked (unknown e-mail, locked or disabled account) still costs
//! one stand-in hash under the same permits, so its duration does not tell which it was; when
//! no permit comes in time the answer is 429 (and a reserved guess is given back). Every attempt is written to the audit log. The
//! messages never say whether the e-mail exists. For an account with two-factor sign-in a
//! right password is only half a login: its own guess is given back, and the failures before
//! it are forgotten only once the code is right too ([`second_step`](super::second_step)).

use std::net::IpAddr;

use secrecy::SecretString;

use super::accounts::normalise_email;
use super::{attempt, password};
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
    let user = if email.is_empty() {
        None
    } else {
        state.app.store.staff_by_email(&email).await?
    };
    let Some(user) = user else {
        // What was typed for an unknown account is not kept: it may be a password.
        let actor = Actor {
            staff_id: None,
            email: "(unknown account)".into(),
            address: client,
        };
        return Err(refuse_unchecked(state, &actor, password, "unknown_account").await);
    };
    let actor = Actor::account(&user, client);
    let Some(attempt) = attempt::reserve(state, &user).await? else {
        let why = if user.disabled_at.is_some() {
            "disabled"
        } else {
            "locked"
        };
        return Err(refuse_unchecked(state, &actor, password, why).await);
    };
    let permit = match state.limits.hashing.enter().await {
        Ok(permit) => permit,
        Err(wait) => {
            // Not checked, so not a guess: given back.
            attempt.released(state).await?;
            record(state, &actor, "login_failed", None, "busy", None).await;
            return Err(DashboardError::TooMany(wait));
        }
    };
    if !password::verify(permit, password, Some(user.password_hash.clone())).await {
        attempt
            .failed(state, &actor, "login_failed", "wrong_password")
            .await;
        return Err(refused());
    }
    if user.has_two_factor() {
        attempt.released(state).await?;
        record(state, &actor, "login_password", None, "code_required", None).await;
    } else {
        attempt.succeeded(state).await?;
        record(state, &actor, "login", None, "ok", None).await;
    }
    Ok(user)
}

/// Refuses an attempt whose password may not be checked (`why`: `unknown_account`, `locked`,
/// `disabled`) after one stand-in hash, or at once with a 429 when no permit comes in time.
async fn refuse_unchecked(
    state: &DashboardState,
    actor: &Actor,
    password: SecretString,
    why: &str,
) -> DashboardError {
    record(state, actor, "login_failed", None, why, None).await;
    match state.limits.hashing.enter().await {
        Ok(permit) => {
            password::verify(permit, password, None).await;
            refused()
        }
        Err(wait) => DashboardError::TooMany(wait),
    }
}

fn refused() -> DashboardError {
    DashboardError::Forbidden("e-mail or password is wrong, or the account is locked or disabled")
}
