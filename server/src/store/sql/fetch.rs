//! Reads keyed by one text value: run a `SELECT` whose only parameter `$1` is `key`, and turn
//! the rows into the model through the row type's `TryFrom` (which checks every stored value).

use sqlx::{Encode, Executor, FromRow, IntoArguments, Pool, Type};

use super::Dialect;
use crate::store::error::{StoreError, StoreResult};

/// The row `sql` returns for `key`, if any, read as `T` through the row type `R`.
pub(crate) async fn optional_by_key<DB, R, T>(
    pool: &Pool<DB>,
    sql: &str,
    key: &str,
) -> StoreResult<Option<T>>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    R: for<'r> FromRow<'r, DB::Row> + Send + Unpin,
    T: TryFrom<R, Error = StoreError>,
{
    sqlx::query_as::<DB, R>(sql)
        .bind(key.to_owned())
        .fetch_optional(pool)
        .await?
        .map(T::try_from)
        .transpose()
}

/// Every row `sql` returns for `key`, in its order, read as `T` through the row type `R`.
pub(crate) async fn all_by_key<DB, R, T>(
    pool: &Pool<DB>,
    sql: &str,
    key: &str,
) -> StoreResult<Vec<T>>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    R: for<'r> FromRow<'r, DB::Row> + Send + Unpin,
    T: TryFrom<R, Error = StoreError>,
{
    sqlx::query_as::<DB, R>(sql)
        .bind(key.to_owned())
        .fetch_all(pool)
        .await?
        .into_iter()
        .map(T::try_from)
        .collect()
}
