//! Staff two-factor sign-in records (migration `0006_staff_two_factor`): an account's TOTP
//! secret (offered, then confirmed), the time step of its last accepted code, its recovery
//! codes as argon2id PHC strings, and login challenges, the hashed token a browser holds
//! between the password and the code. A challenge is not a session: no page accepts it.
//! Every check-and-spend is one statement, so two instances never accept the same code twice.

use async_trait::async_trait;
use secrecy::SecretString;
use time::OffsetDateTime;

use super::error::StoreResult;
use super::secret::SecretHash;
use super::staff::StaffUser;

/// A recovery code as stored: its public first group and the argon2id hash of the whole code.
#[derive(Clone, Debug)]
pub struct StoredRecoveryCode {
    /// The code's first group, to find its hash without trying every one.
    pub lookup: String,
    /// The argon2id PHC string of the whole code.
    pub code_hash: String,
}

/// What [`TwoFactorStore::reset_two_factor`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TwoFactorReset {
    /// The account had a TOTP secret or an offer of one.
    pub had_two_factor: bool,
    /// Sessions ended.
    pub sessions_ended: u64,
    /// Login challenges (password given, code not yet) ended.
    pub challenges_ended: u64,
    /// The account was locked, or had failed logins counted toward a lock.
    pub lock_cleared: bool,
}

/// TOTP secrets, recovery codes and login challenges.
#[async_trait]
pub trait TwoFactorStore: Send + Sync {
    /// Offers `secret` (base32) to an account without two-factor sign-in, replacing an
    /// earlier offer; whether the account was without it.
    async fn offer_totp(&self, staff_id: &str, secret: &SecretString) -> StoreResult<bool>;
    /// Confirms the offered secret `secret` (still the one offered) as the account's, with
    /// `step` as the last accepted step, and replaces the recovery codes with `codes`;
    /// whether the offer was still there.
    async fn confirm_totp(
        &self,
        staff_id: &str,
        secret: &SecretString,
        step: u64,
        codes: Vec<StoredRecoveryCode>,
    ) -> StoreResult<bool>;
    /// Accepts a code of time step `step` if no code of this step or a later one was
    /// accepted for the account; whether it was.
    async fn accept_totp_step(&self, staff_id: &str, step: u64) -> StoreResult<bool>;
    /// The unused recovery code of the account whose first group is `lookup`.
    async fn recovery_code(
        &self,
        staff_id: &str,
        lookup: &str,
    ) -> StoreResult<Option<StoredRecoveryCode>>;
    /// Marks that recovery code used at `now`; whether it was still unused.
    async fn spend_recovery_code(
        &self,
        staff_id: &str,
        lookup: &str,
        now: OffsetDateTime,
    ) -> StoreResult<bool>;
    /// How many recovery codes of the account are unused.
    async fn recovery_codes_left(&self, staff_id: &str) -> StoreResult<u32>;
    /// Removes the account's two-factor sign-in: secret, offer, last step, recovery codes
    /// and login challenges; whether it had a secret or an offer.
    async fn clear_two_factor(&self, staff_id: &str) -> StoreResult<bool>;
    /// An administrator's reset of an account's sign-in (lost authenticator), in one
    /// transaction: what [`TwoFactorStore::clear_two_factor`] removes, and besides every
    /// session of the account and its lock-out (the lock and the count of failed logins).
    async fn reset_two_factor(&self, staff_id: &str) -> StoreResult<TwoFactorReset>;
    /// Records a login challenge for the account, ending at `expires_at`.
    async fn create_login_challenge(
        &self,
        token_hash: &SecretHash,
        staff_id: &str,
        expires_at: OffsetDateTime,
    ) -> StoreResult<()>;
    /// The enabled account whose challenge `token_hash` is, if it has not ended at `now`.
    async fn login_challenge(
        &self,
        token_hash: &SecretHash,
        now: OffsetDateTime,
    ) -> StoreResult<Option<StaffUser>>;
    /// Ends a login challenge; whether it existed.
    async fn end_login_challenge(&self, token_hash: &SecretHash) -> StoreResult<bool>;
    /// Deletes at most `limit` login challenges ended at `now`; how many it deleted.
    async fn delete_expired_login_challenges(
        &self,
        now: OffsetDateTime,
        limit: u32,
    ) -> StoreResult<u64>;
}
