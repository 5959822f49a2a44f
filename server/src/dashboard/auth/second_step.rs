//! The second step of a login for an account with two-factor sign-in: a 6-digit code of the
//! account's authenticator within one step of now, accepted once (the store keeps the last
//! accepted step and refuses it and every earlier one), or one of its recovery codes, spent
//! at its first use. Every attempt takes from the per-address login limit; every wrong or
//! replayed code counts toward the account's lock-out like a wrong password, and is audited.

use std::net::IpAddr;

use time::OffsetDateTime;

use super::login::count_failure;
use super::{password, recovery, totp};
use crate::dashboard::audit::{Actor, record};
use crate::dashboard::error::DashboardError;
use crate::dashboard::state::DashboardState;
use crate::store::prelude::*;

/// What the code page tells a refused attempt.
pub const REFUSED: &str = "The code is wrong or was already used, or the account is locked.";

/// Checks `typed` (a code or a recovery code) for `user`; on success the login is complete
/// (failures forgotten, audited) and the caller starts the session.
pub async fn verify_second_factor(
    state: &DashboardState,
    user: &StaffUser,
    typed: &str,
    client: IpAddr,
) -> Result<(), DashboardError> {
    state.limits.take(client).map_err(DashboardError::TooMany)?;
    let actor = Actor::account(user, client);
    let now = OffsetDateTime::now_utc();
    if user.locked_at(now) {
        record(state, &actor, "login_failed", None, "locked", None).await;
        return Err(refused());
    }
    // Two-factor sign-in removed since the password step: log in again.
    let Some(secret) = &user.totp_secret else {
        return Err(DashboardError::Login);
    };
    let store = state.app.store.as_ref();
    let how = if totp::as_code(typed).is_some() {
        match totp::matching_step(secret, &user.email, typed)? {
            Some(step) if store.accept_totp_step(&user.id, step).await? => "one-time code",
            Some(_) => return fail(state, &actor, user, "replayed_code").await,
            None => return fail(state, &actor, user, "wrong_code").await,
        }
    } else if let Some((lookup, whole)) = recovery::parse(typed) {
        let stored = store.recovery_code(&user.id, &lookup).await?;
        // Without a stored code, `verify` still spends the time of one verification.
        let matched = password::verify(whole, stored.map(|code| code.code_hash)).await;
        if !(matched && store.spend_recovery_code(&user.id, &lookup, now).await?) {
            return fail(state, &actor, user, "wrong_recovery_code").await;
        }
        let left = store.recovery_codes_left(&user.id).await?;
        let detail = Some(format!("{left} recovery codes left"));
        record(state, &actor, "recovery_code_used", None, "ok", detail).await;
        "recovery code"
    } else {
        return fail(state, &actor, user, "wrong_code").await;
    };
    store.clear_login_failures(&user.id).await?;
    record(
        state,
        &actor,
        "login",
        None,
        "ok",
        Some(format!("with a {how}")),
    )
    .await;
    Ok(())
}

async fn fail(
    state: &DashboardState,
    actor: &Actor,
    user: &StaffUser,
    why: &str,
) -> Result<(), DashboardError> {
    count_failure(state, actor, user, "login_failed", why).await?;
    Err(refused())
}

fn refused() -> DashboardError {
    DashboardError::Forbidden("the code is wrong or was already used, or the account is locked")
}
