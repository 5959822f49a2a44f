//! Webhook path tokens written before they were kept as hashes (migration 0002): hashed in
//! place right after the migrations run, so a webhook URL handed to the gateway earlier still
//! works and no plain token stays in the database. A hash is 64 hex characters; a token is
//! 43 URL-safe ones, so a row is converted once whatever happens in between.

use sqlx::{Encode, Executor, FromRow, IntoArguments, Pool, Type};

use super::Dialect;
use crate::store::secret::SecretHash;

#[derive(FromRow)]
pub(crate) struct PlainToken {
    id: String,
    webhook_token_hash: String,
}

/// Hashes every plain webhook token left in `payments`; a no-op once none is left.
pub(crate) async fn hash_plain_webhook_tokens<DB>(pool: &Pool<DB>) -> Result<(), sqlx::Error>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'r> PlainToken: FromRow<'r, DB::Row>,
{
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
    Ok(())
}
