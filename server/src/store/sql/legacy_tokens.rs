//! Webhook path tokens written before they were kept as hashes (migration 0002): hashed in
//! place right after the migrations run, so a webhook URL handed to the gateway earlier still
//! works and no plain token stays in the database. A hash is 64 hex characters; a token is
//! 43 URL-safe ones, so a row is converted once whatever happens in between.
//!
//! Finding them reads the whole payments table, so the conversion is recorded in
//! `data_conversions` (migration 0010) once it has finished, and a start that finds the record
//! looks no more. Nothing since migration 0002 writes a plain token (the column holds a
//! [`SecretHash`] by type), so once converted a database stays so; a database restored from
//! before 0010 has no record and is looked through again.

use sqlx::{Encode, Executor, FromRow, IntoArguments, Pool, Type};
use time::OffsetDateTime;

use super::Dialect;
use super::codec::ms;
use crate::store::secret::SecretHash;

/// The name this conversion is recorded under.
const CONVERSION: &str = "webhook_tokens_hashed";

#[derive(FromRow)]
pub(crate) struct PlainToken {
    id: String,
    webhook_token_hash: String,
}

#[derive(FromRow)]
pub(crate) struct DoneConversion {
    name: String,
}

/// Hashes every plain webhook token left in `payments`, once: a no-op when recorded as done.
pub(crate) async fn hash_plain_webhook_tokens<DB>(pool: &Pool<DB>) -> Result<(), sqlx::Error>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'q> &'q str: Encode<'q, DB> + Type<DB>,
    for<'r> PlainToken: FromRow<'r, DB::Row>,
    for<'r> DoneConversion: FromRow<'r, DB::Row>,
{
    let done: Option<DoneConversion> =
        sqlx::query_as("SELECT name FROM data_conversions WHERE name = $1")
            .bind(CONVERSION)
            .fetch_optional(pool)
            .await?;
    if done.is_some_and(|row| row.name == CONVERSION) {
        return Ok(());
    }
    let plain: Vec<PlainToken> = sqlx::query_as(
        "SELECT id, webhook_token_hash FROM payments WHERE length(webhook_token_hash) <> 64",
    )
    .fetch_all(pool)
    .await?;
    for row in plain {
        sqlx::query::<DB>(
            "UPDATE payments SET webhook_token_hash = $1 WHERE id = $2 AND webhook_token_hash = $3",
        )
        .bind(SecretHash::of(&row.webhook_token_hash).to_hex())
        .bind(row.id)
        .bind(row.webhook_token_hash)
        .execute(pool)
        .await?;
    }
    // Two instances starting together may both convert; the second record is a no-op.
    sqlx::query::<DB>(
        "INSERT INTO data_conversions (name, done_at) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
    )
    .bind(CONVERSION)
    .bind(ms(OffsetDateTime::now_utc()))
    .execute(pool)
    .await?;
    Ok(())
}
