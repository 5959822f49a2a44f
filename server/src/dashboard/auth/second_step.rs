//! The second step of a login for an account with two-factor sign-in: a 6-digit code of the
//! account's authenticator within one step of now, accepted once (the store keeps the last
//! accepted step and refuses it and every earlier one), or one of its recovery codes, spent
//! at its first use. Every attempt takes from the sign-in limits, then reserves a guess at
//! the account ([`attempt`]: refused unchecked when the account is locked); a recovery code
//! is checked under a hashing permit (429 when none comes in time). Every wrong or replayed
//! code counts toward the account's lock-out like a wrong password, and is audited.

use std::net::IpAddr;

use time::OffsetDateTime;

use super::attempt::{self, Attempt};
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
    // Two-factor sign-in removed since the password step: log in again.
    let Some(secret) = &user.totp_secret else {
        return Err(DashboardError::Login);
    };
    let Some(attempt) = attempt::reserve(state, user).await? else {
        record(state, &actor, "login_failed", None, "locked", None).await;
        return Err(refused());
    };
    let store = state.app.store.as_ref();
    let how = if totp::as_code(typed).is_some() {
        match totp::matching_step(secret, &user.email, typed)? {
            Some(step) if store.accept_totp_step(&user.id, step).await? => "one-time code",
            Some(_) => return fail(state, &actor, attempt, "replayed_code").await,
            None => return fail(state, &actor, attempt, "wrong_code").await,
        }
    } else if let Some((lookup, whole)) = recovery::parse(typed) {
        let permit = match state.limits.hashing.enter().await {
            Ok(permit) => permit,
            Err(wait) => {
                // Not checked, so not a guess: given back.
                attempt.released(state).await?;
                return Err(DashboardError::TooMany(wait));
            }
        };
        let stored = store.recovery_code(&user.id, &lookup).await?;
        // Without a stored code, `verify` still spends the time of one verification.
        let matched = password::verify(permit, whole, stored.map(|code| code.code_hash)).await;
        let now = OffsetDateTime::now_utc();
        if !(matched && store.spend_recovery_code(&user.id, &lookup, now).await?) {
            return fail(state, &actor, attempt, "wrong_recovery_code").await;
        }
        let left = store.recovery_codes_left(&user.id).await?;
        let detail = Some(format!("{left} recovery codes left"));
        record(state, &actor, "recovery_code_used", None, "ok", detail).await;
        "recovery code"
    } else {
        return fail(state, &actor, attempt, "wrong_code").await;
    };
    attempt.succeeded(state).await?;
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
    attempt: Attempt,
    why: &str,
) -> Result<(), DashboardError> {
    attempt.failed(state, actor, "login_failed", why).await;
    Err(refused())
}

fn refused() -> DashboardError {
    DashboardError::Forbidden("the code is wrong or was already used, or the account is locked")
}
