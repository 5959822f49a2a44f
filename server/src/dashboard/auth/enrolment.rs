//! Turning two-factor sign-in on and off from the account page. On: the server offers a fresh
//! secret (kept as the account's pending one, shown as a QR code and base32 text) and makes it
//! the account's only when a code of it is typed, then issues [`recovery::COUNT`] recovery
//! codes, shown once. Off: only with the account's password or a current code, each proof a
//! guess reserved against the account's lock-out before it is checked (a stolen session
//! cannot try passwords without limit). Every step is audited; no secret or code is ever logged.

use std::net::IpAddr;

use secrecy::{ExposeSecret as _, SecretString};

use super::{Staff, attempt, password, recovery, totp};
use crate::dashboard::audit::{Actor, record};
use crate::dashboard::error::DashboardError;
use crate::dashboard::state::DashboardState;

/// Offers a fresh secret to `staff` (replacing an unconfirmed one).
pub async fn offer(state: &DashboardState, staff: &Staff) -> Result<(), DashboardError> {
    if state
        .app
        .store
        .offer_totp(&staff.user.id, &totp::new_secret())
        .await?
    {
        Ok(())
    } else {
        Err(DashboardError::Conflict(
            "Two-factor sign-in is already on for this account.".into(),
        ))
    }
}

/// Confirms the offered secret with a code of it; returns the recovery codes to show once.
pub async fn confirm(
    state: &DashboardState,
    staff: &Staff,
    typed: &str,
    client: IpAddr,
) -> Result<Vec<SecretString>, DashboardError> {
    state.limits.take(client).map_err(DashboardError::TooMany)?;
    let actor = Actor::staff(staff, client);
    let Some(secret) = &staff.user.totp_pending_secret else {
        return Err(DashboardError::bad(
            "code",
            "start the set-up first: no secret is waiting for a code",
        ));
    };
    let Some(step) = totp::matching_step(secret, &staff.user.email, typed)? else {
        record(state, &actor, "2fa_enrol", None, "wrong_code", None).await;
        return Err(DashboardError::bad(
            "code",
            "is not the current 6-digit code of the authenticator app; check the phone's clock and type the newest code",
        ));
    };
    let (shown, stored) = recovery::generate()
        .await
        .map_err(|e| DashboardError::Internal(e.to_string()))?;
    let confirmed = state
        .app
        .store
        .confirm_totp(&staff.user.id, secret, step, stored)
        .await?;
    if !confirmed {
        return Err(DashboardError::Conflict(
            "The set-up changed meanwhile (another tab?); reload the account page.".into(),
        ));
    }
    record(state, &actor, "2fa_enrolled", None, "ok", None).await;
    Ok(shown)
}

/// Turns two-factor sign-in off after `proof`: the account's password, or a current code. The
/// proof is a guess like a login's ([`attempt`]): reserved first, refused unchecked while the
/// account is locked, a password checked under a hashing permit.
pub async fn turn_off(
    state: &DashboardState,
    staff: &Staff,
    proof: SecretString,
    client: IpAddr,
) -> Result<(), DashboardError> {
    state.limits.take(client).map_err(DashboardError::TooMany)?;
    let actor = Actor::staff(staff, client);
    let user = &staff.user;
    let Some(secret) = &user.totp_secret else {
        return Err(DashboardError::Conflict(
            "Two-factor sign-in is already off for this account.".into(),
        ));
    };
    let Some(attempt) = attempt::reserve(state, user).await? else {
        record(state, &actor, "2fa_disable", None, "locked", None).await;
        return Err(DashboardError::bad(
            "proof",
            "cannot be checked now: too many wrong proofs or logins locked this account for a while",
        ));
    };
    let store = state.app.store.as_ref();
    let proven = if totp::as_code(proof.expose_secret()).is_some() {
        match totp::matching_step(secret, &user.email, proof.expose_secret())? {
            Some(step) => store.accept_totp_step(&user.id, step).await?,
            None => false,
        }
    } else {
        let permit = match state.limits.hashing.enter().await {
            Ok(permit) => permit,
            Err(wait) => {
                // Not checked, so not a guess: given back.
                attempt.released(state).await?;
                return Err(DashboardError::TooMany(wait));
            }
        };
        password::verify(permit, proof, Some(user.password_hash.clone())).await
    };
    if !proven {
        attempt
            .failed(state, &actor, "2fa_disable", "wrong_proof")
            .await;
        return Err(DashboardError::bad(
            "proof",
            "is neither this account's password nor a current, unused code",
        ));
    }
    attempt.succeeded(state).await?;
    store.clear_two_factor(&user.id).await?;
    record(state, &actor, "2fa_disabled", None, "ok", None).await;
    Ok(())
}
