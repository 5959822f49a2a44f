//! [`TwoFactorStore`] in SQL, the same on both backends. Accepting a TOTP step and spending a
//! recovery code are single conditional updates: of two requests carrying the same code, on
//! one instance or two, exactly one changes a row. TOTP keys are stored sealed
//! ([`crate::store::sealed`]).

use async_trait::async_trait;
use secrecy::{ExposeSecret as _, SecretString};
use sqlx::{Encode, Executor, FromRow, IntoArguments, Type};
use subtle::ConstantTimeEq as _;
use time::OffsetDateTime;

use super::codec::{int, ms, unsigned};
use super::staff::{StaffRow, staff_columns_of, user};
use super::{Dialect, SqlStore};
use crate::store::error::{StoreError, StoreResult};
use crate::store::sealed::{Binding, KeyRing};
use crate::store::secret::SecretHash;
use crate::store::staff::StaffUser;
use crate::store::two_factor::{StoredRecoveryCode, TwoFactorReset, TwoFactorStore};

#[derive(FromRow)]
pub(crate) struct RecoveryRow {
    lookup: String,
    code_hash: String,
}

#[derive(FromRow)]
pub(crate) struct CountRow {
    n: i64,
}

/// An account's offered TOTP key, sealed.
#[derive(FromRow)]
pub(crate) struct PendingRow {
    stored: Option<String>,
}

/// `secret` sealed for staff account `staff_id`'s row.
fn seal(keys: &KeyRing, secret: &SecretString, staff_id: &str) -> StoreResult<String> {
    keys.seal(secret.expose_secret(), &Binding::staff_totp(staff_id))
        .map_err(|source| StoreError::Sealed {
            column: "staff_users.totp_pending_secret",
            source,
        })
}

#[async_trait]
impl<DB> TwoFactorStore for SqlStore<DB>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'q> &'q str: Encode<'q, DB> + Type<DB>,
    for<'r> StaffRow: FromRow<'r, DB::Row>,
    for<'r> RecoveryRow: FromRow<'r, DB::Row>,
    for<'r> CountRow: FromRow<'r, DB::Row>,
    for<'r> PendingRow: FromRow<'r, DB::Row>,
{
    async fn offer_totp(&self, staff_id: &str, secret: &SecretString) -> StoreResult<bool> {
        let done = sqlx::query::<DB>(
            "UPDATE staff_users SET totp_pending_secret = $2 \
             WHERE id = $1 AND totp_secret IS NULL",
        )
        .bind(staff_id)
        .bind(seal(&self.keys, secret, staff_id)?)
        .execute(&self.pool)
        .await?;
        Ok(DB::rows_affected(&done) == 1)
    }

    async fn confirm_totp(
        &self,
        staff_id: &str,
        secret: &SecretString,
        step: u64,
        codes: Vec<StoredRecoveryCode>,
    ) -> StoreResult<bool> {
        // Sealing draws a fresh nonce, so the offered key is recognised by opening it; the
        // update then takes exactly the sealed value read (another offer since then differs).
        let Some(pending) = sqlx::query_as::<DB, PendingRow>(
            "SELECT totp_pending_secret AS stored FROM staff_users \
             WHERE id = $1 AND totp_secret IS NULL",
        )
        .bind(staff_id)
        .fetch_optional(&self.pool)
        .await?
        .and_then(|row| row.stored) else {
            return Ok(false);
        };
        let offered = self
            .keys
            .open(&pending, &Binding::staff_totp(staff_id))
            .map_err(|source| StoreError::Sealed {
                column: "staff_users.totp_pending_secret",
                source,
            })?;
        let same = offered
            .expose_secret()
            .as_bytes()
            .ct_eq(secret.expose_secret().as_bytes());
        if !bool::from(same) {
            return Ok(false);
        }
        let mut tx = self.pool.begin().await?;
        let confirmed = sqlx::query::<DB>(
            "UPDATE staff_users SET totp_secret = totp_pending_secret, \
             totp_pending_secret = NULL, totp_last_step = $3 \
             WHERE id = $1 AND totp_secret IS NULL AND totp_pending_secret = $2",
        )
        .bind(staff_id)
        .bind(pending)
        .bind(int(step, "totp_last_step")?)
        .execute(&mut *tx)
        .await?;
        if DB::rows_affected(&confirmed) != 1 {
            return Ok(false);
        }
        sqlx::query::<DB>("DELETE FROM staff_recovery_codes WHERE staff_id = $1")
            .bind(staff_id)
            .execute(&mut *tx)
            .await?;
        for code in codes {
            sqlx::query::<DB>(
                "INSERT INTO staff_recovery_codes (staff_id, lookup, code_hash) VALUES ($1, $2, $3)",
            )
            .bind(staff_id)
            .bind(code.lookup)
            .bind(code.code_hash)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    async fn accept_totp_step(&self, staff_id: &str, step: u64) -> StoreResult<bool> {
        let done = sqlx::query::<DB>(
            "UPDATE staff_users SET totp_last_step = $2 WHERE id = $1 \
             AND totp_secret IS NOT NULL AND (totp_last_step IS NULL OR totp_last_step < $2)",
        )
        .bind(staff_id)
        .bind(int(step, "totp_last_step")?)
        .execute(&self.pool)
        .await?;
        Ok(DB::rows_affected(&done) == 1)
    }

    async fn recovery_code(
        &self,
        staff_id: &str,
        lookup: &str,
    ) -> StoreResult<Option<StoredRecoveryCode>> {
        Ok(sqlx::query_as::<DB, RecoveryRow>(
            "SELECT lookup, code_hash FROM staff_recovery_codes \
             WHERE staff_id = $1 AND lookup = $2 AND used_at IS NULL",
        )
        .bind(staff_id)
        .bind(lookup)
        .fetch_optional(&self.pool)
        .await?
        .map(|row| StoredRecoveryCode {
            lookup: row.lookup,
            code_hash: row.code_hash,
        }))
    }

    async fn spend_recovery_code(
        &self,
        staff_id: &str,
        lookup: &str,
        now: OffsetDateTime,
    ) -> StoreResult<bool> {
        let done = sqlx::query::<DB>(
            "UPDATE staff_recovery_codes SET used_at = $3 \
             WHERE staff_id = $1 AND lookup = $2 AND used_at IS NULL",
        )
        .bind(staff_id)
        .bind(lookup)
        .bind(ms(now))
        .execute(&self.pool)
        .await?;
        Ok(DB::rows_affected(&done) == 1)
    }

    async fn recovery_codes_left(&self, staff_id: &str) -> StoreResult<u32> {
        let row = sqlx::query_as::<DB, CountRow>(
            "SELECT COUNT(*) AS n FROM staff_recovery_codes \
             WHERE staff_id = $1 AND used_at IS NULL",
        )
        .bind(staff_id)
        .fetch_one(&self.pool)
        .await?;
        unsigned(row.n, "count")
    }

    async fn clear_two_factor(&self, staff_id: &str) -> StoreResult<bool> {
        let mut tx = self.pool.begin().await?;
        let cleared = sqlx::query::<DB>(
            "UPDATE staff_users SET totp_secret = NULL, totp_pending_secret = NULL, \
             totp_last_step = NULL WHERE id = $1 \
             AND (totp_secret IS NOT NULL OR totp_pending_secret IS NOT NULL)",
        )
        .bind(staff_id)
        .execute(&mut *tx)
        .await?;
        for sql in [
            "DELETE FROM staff_recovery_codes WHERE staff_id = $1",
            "DELETE FROM staff_login_challenges WHERE staff_id = $1",
        ] {
            sqlx::query::<DB>(sql)
                .bind(staff_id)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(DB::rows_affected(&cleared) == 1)
    }

    async fn reset_two_factor(&self, staff_id: &str) -> StoreResult<TwoFactorReset> {
        let mut tx = self.pool.begin().await?;
        let mut changed = Vec::with_capacity(5);
        for sql in [
            "UPDATE staff_users SET totp_secret = NULL, totp_pending_secret = NULL, \
             totp_last_step = NULL WHERE id = $1 \
             AND (totp_secret IS NOT NULL OR totp_pending_secret IS NOT NULL)",
            "UPDATE staff_users SET failed_logins = 0, locked_until = NULL WHERE id = $1 \
             AND (failed_logins <> 0 OR locked_until IS NOT NULL)",
            "DELETE FROM staff_sessions WHERE staff_id = $1",
            "DELETE FROM staff_login_challenges WHERE staff_id = $1",
            "DELETE FROM staff_recovery_codes WHERE staff_id = $1",
        ] {
            let done = sqlx::query::<DB>(sql)
                .bind(staff_id)
                .execute(&mut *tx)
                .await?;
            changed.push(DB::rows_affected(&done));
        }
        tx.commit().await?;
        Ok(TwoFactorReset {
            had_two_factor: changed[0] == 1,
            lock_cleared: changed[1] == 1,
            sessions_ended: changed[2],
            challenges_ended: changed[3],
        })
    }

    async fn create_login_challenge(
        &self,
        token_hash: &SecretHash,
        staff_id: &str,
        expires_at: OffsetDateTime,
    ) -> StoreResult<()> {
        sqlx::query::<DB>(
            "INSERT INTO staff_login_challenges (token_hash, staff_id, expires_at) \
             VALUES ($1, $2, $3)",
        )
        .bind(token_hash.to_hex())
        .bind(staff_id)
        .bind(ms(expires_at))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn login_challenge(
        &self,
        token_hash: &SecretHash,
        now: OffsetDateTime,
    ) -> StoreResult<Option<StaffUser>> {
        let sql = format!(
            "SELECT {} FROM staff_users u JOIN staff_login_challenges c ON c.staff_id = u.id \
             WHERE c.token_hash = $1 AND c.expires_at > $2 AND u.disabled_at IS NULL",
            staff_columns_of("u")
        );
        user(
            sqlx::query_as::<DB, StaffRow>(&sql)
                .bind(token_hash.to_hex())
                .bind(ms(now))
                .fetch_optional(&self.pool)
                .await?,
            &self.keys,
        )
    }

    async fn end_login_challenge(&self, token_hash: &SecretHash) -> StoreResult<bool> {
        let done = sqlx::query::<DB>("DELETE FROM staff_login_challenges WHERE token_hash = $1")
            .bind(token_hash.to_hex())
            .execute(&self.pool)
            .await?;
        Ok(DB::rows_affected(&done) > 0)
    }

    async fn delete_expired_login_challenges(
        &self,
        now: OffsetDateTime,
        limit: u32,
    ) -> StoreResult<u64> {
        let done = sqlx::query::<DB>(
            "DELETE FROM staff_login_challenges WHERE token_hash IN \
             (SELECT token_hash FROM staff_login_challenges WHERE expires_at <= $1 LIMIT $2)",
        )
        .bind(ms(now))
        .bind(i64::from(limit))
        .execute(&self.pool)
        .await?;
        Ok(DB::rows_affected(&done))
    }
}
