//! The columns holding sealed secrets, and the pass that (re-)seals them: at every start for
//! values an older version wrote in plain text, and on `checkout-server keys rotate` for
//! values under an older key too ([`KeyRotationStore`]). The start's pass asks the database
//! for plain values only (no conversion record is kept, so a value an instance of an older
//! version wrote during an upgrade is sealed at the next start): a scan of the saved cards,
//! and a handful of rows elsewhere (at most 16 endpoints, the staff accounts).
//!
//! Each value is rewritten by a compare-and-set on the exact text read: a secret rotated or a
//! TOTP key confirmed meanwhile is left as its writer stored it (already sealed, under the
//! current key).

use async_trait::async_trait;
use secrecy::{ExposeSecret as _, SecretString};
use sqlx::{Encode, Executor, FromRow, IntoArguments, Pool, Type};

use super::{Dialect, SqlStore};
use crate::store::error::{StoreError, StoreResult};
use crate::store::key_rotation::{KeyRotationStore, ResealReport};
use crate::store::sealed::envelope::{PREFIX, is_sealed};
use crate::store::sealed::{Binding, KeyRing};

/// A column of sealed secrets: its table (keyed by a text `id`), name, and what binds a value
/// to its row.
struct SealedColumn {
    table: &'static str,
    column: &'static str,
    /// `table.column`, for errors.
    name: &'static str,
    binding: fn(&str) -> Binding,
}

/// Every column holding a sealed secret.
const SEALED_COLUMNS: [SealedColumn; 5] = [
    SealedColumn {
        table: "webhook_endpoints",
        column: "secret",
        name: "webhook_endpoints.secret",
        binding: Binding::endpoint_secret,
    },
    SealedColumn {
        table: "webhook_endpoints",
        column: "previous_secret",
        name: "webhook_endpoints.previous_secret",
        binding: Binding::endpoint_secret,
    },
    SealedColumn {
        table: "staff_users",
        column: "totp_secret",
        name: "staff_users.totp_secret",
        binding: Binding::staff_totp,
    },
    SealedColumn {
        table: "staff_users",
        column: "totp_pending_secret",
        name: "staff_users.totp_pending_secret",
        binding: Binding::staff_totp,
    },
    SealedColumn {
        table: "saved_cards",
        column: "gateway_token",
        name: "saved_cards.gateway_token",
        binding: Binding::saved_card_token,
    },
];

/// Which values a pass rewrites.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reseal {
    /// Only plain text (start-up).
    PlainOnly,
    /// Everything not under the current key (`keys rotate`).
    NotUnderCurrentKey,
}

/// One stored value.
#[derive(FromRow)]
pub(crate) struct SealedRow {
    /// The row's id.
    pub(super) id: String,
    /// The column's text as stored.
    pub(super) stored: String,
}

/// Rewrites the values `which` selects under the current key of `keys`.
pub(crate) async fn reseal<DB>(
    pool: &Pool<DB>,
    keys: &KeyRing,
    which: Reseal,
) -> StoreResult<ResealReport>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'r> SealedRow: FromRow<'r, DB::Row>,
{
    let mut report = ResealReport::default();
    for column in &SEALED_COLUMNS {
        let (table, name) = (column.table, column.column);
        let only_plain = match which {
            Reseal::PlainOnly => {
                format!(" AND substr({name}, 1, {}) <> '{PREFIX}'", PREFIX.len())
            }
            Reseal::NotUnderCurrentKey => String::new(),
        };
        let rows: Vec<SealedRow> = sqlx::query_as(&format!(
            "SELECT id, {name} AS stored FROM {table} WHERE {name} IS NOT NULL{only_plain}"
        ))
        .fetch_all(pool)
        .await?;
        let update = format!("UPDATE {table} SET {name} = $1 WHERE id = $2 AND {name} = $3");
        for row in rows {
            let sealed_error = |source| StoreError::Sealed {
                column: column.name,
                source,
            };
            let binding = (column.binding)(&row.id);
            let plain = !is_sealed(&row.stored);
            let secret = if plain {
                SecretString::from(row.stored.clone())
            } else if keys.is_current(&row.stored) {
                report.already_current += 1;
                continue;
            } else if which == Reseal::PlainOnly {
                continue;
            } else {
                keys.open(&row.stored, &binding).map_err(sealed_error)?
            };
            let sealed = keys
                .seal(secret.expose_secret(), &binding)
                .map_err(sealed_error)?;
            let done = sqlx::query::<DB>(&update)
                .bind(sealed)
                .bind(row.id)
                .bind(row.stored)
                .execute(pool)
                .await?;
            let changed = DB::rows_affected(&done);
            if plain {
                report.sealed_plain += changed;
            } else {
                report.resealed += changed;
            }
        }
    }
    Ok(report)
}

#[async_trait]
impl<DB> KeyRotationStore for SqlStore<DB>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'r> SealedRow: FromRow<'r, DB::Row>,
{
    async fn reseal_secrets(&self) -> StoreResult<ResealReport> {
        reseal(&self.pool, &self.keys, Reseal::NotUnderCurrentKey).await
    }
}
