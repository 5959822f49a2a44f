//! Staff accounts and their sessions ([`StaffStore`]), the same SQL on both backends. The
//! lock-out's reservation of a guess and a session's idle check are single statements, so
//! several instances counting guesses or touching the same session agree. TOTP keys are
//! opened as rows are read ([`crate::store::sealed`]).

use async_trait::async_trait;
use sqlx::{Encode, Executor, FromRow, IntoArguments, Type};
use time::{Duration, OffsetDateTime};

use super::codec::{ms, ms_opt, named, time, time_opt, unsigned};
use super::rows::IdRow;
use super::{Dialect, SqlStore};
use crate::store::error::{StoreError, StoreResult};
use crate::store::sealed::{Binding, KeyRing};
use crate::store::secret::SecretHash;
use crate::store::staff::{NewStaffSession, StaffRole, StaffStore, StaffUser};

const STAFF_COLUMNS: &str = "id, email, role, password_hash, failed_logins, \
     locked_until, disabled_at, created_at, totp_secret, totp_pending_secret";

#[derive(FromRow)]
pub(crate) struct StaffRow {
    id: String,
    email: String,
    role: String,
    password_hash: String,
    failed_logins: i64,
    locked_until: Option<i64>,
    disabled_at: Option<i64>,
    created_at: i64,
    totp_secret: Option<String>,
    totp_pending_secret: Option<String>,
}

impl StaffRow {
    /// The account this row holds, its TOTP keys opened with `keys`.
    pub(crate) fn open(self, keys: &KeyRing) -> StoreResult<StaffUser> {
        let row = self;
        let binding = Binding::staff_totp(&row.id);
        let open = |stored: Option<String>, column| {
            stored
                .map(|stored| {
                    keys.open(&stored, &binding)
                        .map_err(|source| StoreError::Sealed { column, source })
                })
                .transpose()
        };
        Ok(StaffUser {
            id: row.id,
            email: row.email,
            role: named(&row.role, "role", StaffRole::parse)?,
            password_hash: row.password_hash,
            failed_logins: unsigned(row.failed_logins, "failed_logins")?,
            locked_until: time_opt(row.locked_until, "locked_until")?,
            disabled_at: time_opt(row.disabled_at, "disabled_at")?,
            created_at: time(row.created_at, "created_at")?,
            totp_secret: open(row.totp_secret, "staff_users.totp_secret")?,
            totp_pending_secret: open(row.totp_pending_secret, "staff_users.totp_pending_secret")?,
        })
    }
}

/// [`STAFF_COLUMNS`], each prefixed with `alias.` (for a join).
pub(crate) fn staff_columns_of(alias: &str) -> String {
    STAFF_COLUMNS
        .split(", ")
        .map(|c| format!("{alias}.{c}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The account a row holds, if any, its TOTP keys opened with `keys`.
pub(crate) fn user(row: Option<StaffRow>, keys: &KeyRing) -> StoreResult<Option<StaffUser>> {
    row.map(|row| row.open(keys)).transpose()
}

#[async_trait]
impl<DB> StaffStore for SqlStore<DB>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> Option<i64>: Encode<'q, DB> + Type<DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'q> &'q str: Encode<'q, DB> + Type<DB>,
    for<'r> StaffRow: FromRow<'r, DB::Row>,
    for<'r> IdRow: FromRow<'r, DB::Row>,
{
    async fn create_staff(
        &self,
        email: &str,
        role: StaffRole,
        password_hash: &str,
    ) -> StoreResult<StaffUser> {
        let sql = format!(
            "INSERT INTO staff_users (id, email, role, password_hash, created_at) \
             VALUES ($1, $2, $3, $4, $5) RETURNING {STAFF_COLUMNS}"
        );
        let row = sqlx::query_as::<DB, StaffRow>(&sql)
            .bind(uuid::Uuid::new_v4().to_string())
            .bind(email)
            .bind(role.as_str())
            .bind(password_hash)
            .bind(ms(OffsetDateTime::now_utc()))
            .fetch_one(&self.pool)
            .await
            .map_err(|e| StoreError::on_unique(e, "a staff account with this e-mail"))?;
        row.open(&self.keys)
    }

    async fn staff_by_email(&self, email: &str) -> StoreResult<Option<StaffUser>> {
        let sql = format!("SELECT {STAFF_COLUMNS} FROM staff_users WHERE email = $1");
        user(
            sqlx::query_as::<DB, StaffRow>(&sql)
                .bind(email)
                .fetch_optional(&self.pool)
                .await?,
            &self.keys,
        )
    }

    async fn staff_id_by_email(&self, email: &str) -> StoreResult<Option<String>> {
        Ok(
            sqlx::query_as::<DB, IdRow>("SELECT id FROM staff_users WHERE email = $1")
                .bind(email)
                .fetch_optional(&self.pool)
                .await?
                .map(|row| row.id),
        )
    }

    async fn list_staff(&self) -> StoreResult<Vec<StaffUser>> {
        let sql = format!("SELECT {STAFF_COLUMNS} FROM staff_users ORDER BY email");
        sqlx::query_as::<DB, StaffRow>(&sql)
            .fetch_all(&self.pool)
            .await?
            .into_iter()
            .map(|row| row.open(&self.keys))
            .collect()
    }

    async fn reset_staff_password(&self, email: &str, password_hash: &str) -> StoreResult<bool> {
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query::<DB>(
            "UPDATE staff_users SET password_hash = $2, failed_logins = 0, locked_until = NULL \
             WHERE email = $1 AND disabled_at IS NULL",
        )
        .bind(email)
        .bind(password_hash)
        .execute(&mut *tx)
        .await?;
        for sql in [
            "DELETE FROM staff_sessions WHERE staff_id IN \
             (SELECT id FROM staff_users WHERE email = $1)",
            "DELETE FROM staff_login_challenges WHERE staff_id IN \
             (SELECT id FROM staff_users WHERE email = $1)",
        ] {
            sqlx::query::<DB>(sql).bind(email).execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(DB::rows_affected(&done) > 0)
    }

    async fn disable_staff(&self, email: &str, now: OffsetDateTime) -> StoreResult<bool> {
        let done = sqlx::query::<DB>(
            "UPDATE staff_users SET disabled_at = COALESCE(disabled_at, $2) WHERE email = $1",
        )
        .bind(email)
        .bind(ms(now))
        .execute(&self.pool)
        .await?;
        sqlx::query::<DB>(
            "DELETE FROM staff_sessions WHERE staff_id IN \
             (SELECT id FROM staff_users WHERE email = $1)",
        )
        .bind(email)
        .execute(&self.pool)
        .await?;
        Ok(DB::rows_affected(&done) > 0)
    }

    async fn reserve_login_attempt(
        &self,
        staff_id: &str,
        now: OffsetDateTime,
        max: u32,
        lock: Duration,
    ) -> StoreResult<Option<StaffUser>> {
        // One statement: concurrent guesses (on any instance) queue on the row, and each sees
        // the count and lock the ones before it left (PostgreSQL re-checks the WHERE clause
        // on the updated row; SQLite runs one writer at a time).
        let sql = format!(
            "UPDATE staff_users SET \
             locked_until = CASE WHEN failed_logins + 1 >= $2 THEN $3 ELSE locked_until END, \
             failed_logins = CASE WHEN failed_logins + 1 >= $2 THEN 0 ELSE failed_logins + 1 END \
             WHERE id = $1 AND disabled_at IS NULL AND (locked_until IS NULL OR locked_until <= $4) \
             RETURNING {STAFF_COLUMNS}"
        );
        user(
            sqlx::query_as::<DB, StaffRow>(&sql)
                .bind(staff_id)
                .bind(i64::from(max))
                .bind(ms(now + lock))
                .bind(ms(now))
                .fetch_optional(&self.pool)
                .await?,
            &self.keys,
        )
    }

    async fn clear_login_failures(
        &self,
        staff_id: &str,
        own_lock: Option<OffsetDateTime>,
    ) -> StoreResult<()> {
        sqlx::query::<DB>(
            "UPDATE staff_users SET failed_logins = 0, \
             locked_until = CASE WHEN locked_until = $2 THEN NULL ELSE locked_until END \
             WHERE id = $1",
        )
        .bind(staff_id)
        .bind(ms_opt(own_lock))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn release_login_attempt(
        &self,
        staff_id: &str,
        own_lock: Option<OffsetDateTime>,
        max: u32,
    ) -> StoreResult<()> {
        sqlx::query::<DB>(
            "UPDATE staff_users SET \
             failed_logins = CASE WHEN locked_until = $2 THEN $3 - 1 \
             WHEN failed_logins > 0 THEN failed_logins - 1 ELSE 0 END, \
             locked_until = CASE WHEN locked_until = $2 THEN NULL ELSE locked_until END \
             WHERE id = $1",
        )
        .bind(staff_id)
        .bind(ms_opt(own_lock))
        .bind(i64::from(max))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn create_staff_session(&self, session: NewStaffSession) -> StoreResult<()> {
        sqlx::query::<DB>(
            "INSERT INTO staff_sessions (token_hash, staff_id, created_at, last_seen_at, expires_at) \
             VALUES ($1, $2, $3, $3, $4)",
        )
        .bind(session.token_hash.to_hex())
        .bind(session.staff_id)
        .bind(ms(session.created_at))
        .bind(ms(session.expires_at))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn touch_staff_session(
        &self,
        token_hash: &SecretHash,
        now: OffsetDateTime,
        idle: Duration,
    ) -> StoreResult<Option<StaffUser>> {
        let touched = sqlx::query::<DB>(
            "UPDATE staff_sessions SET last_seen_at = $2 \
             WHERE token_hash = $1 AND expires_at > $2 AND last_seen_at > $3",
        )
        .bind(token_hash.to_hex())
        .bind(ms(now))
        .bind(ms(now - idle))
        .execute(&self.pool)
        .await?;
        if DB::rows_affected(&touched) == 0 {
            return Ok(None);
        }
        let sql = format!(
            "SELECT {} FROM staff_users u JOIN staff_sessions s ON s.staff_id = u.id \
             WHERE s.token_hash = $1 AND u.disabled_at IS NULL",
            staff_columns_of("u")
        );
        user(
            sqlx::query_as::<DB, StaffRow>(&sql)
                .bind(token_hash.to_hex())
                .fetch_optional(&self.pool)
                .await?,
            &self.keys,
        )
    }

    async fn end_staff_session(&self, token_hash: &SecretHash) -> StoreResult<bool> {
        let done = sqlx::query::<DB>("DELETE FROM staff_sessions WHERE token_hash = $1")
            .bind(token_hash.to_hex())
            .execute(&self.pool)
            .await?;
        Ok(DB::rows_affected(&done) > 0)
    }

    async fn delete_expired_staff_sessions(
        &self,
        now: OffsetDateTime,
        idle: Duration,
        limit: u32,
    ) -> StoreResult<u64> {
        // The complement of `touch_staff_session`'s test. No index: once swept, the table holds
        // only the sessions of the last `ABSOLUTE` hours, a scan of a few hundred rows.
        let done = sqlx::query::<DB>(
            "DELETE FROM staff_sessions WHERE token_hash IN (SELECT token_hash FROM staff_sessions \
             WHERE expires_at <= $1 OR last_seen_at <= $2 LIMIT $3)",
        )
        .bind(ms(now))
        .bind(ms(now - idle))
        .bind(i64::from(limit))
        .execute(&self.pool)
        .await?;
        Ok(DB::rows_affected(&done))
    }
}
