//! Several writes, atomically, in one round trip to the database: the pay call's hot path
//! (claim + payment insert before the gateway call; state step + attempt log after it).
//!
//! Each statement sent separately costs a round trip: a network exchange with Postgres, a
//! hand-off to the connection's worker thread and back on SQLite. A transaction around them
//! costs two more (`BEGIN`, `COMMIT`). Here the writes travel together:
//! - Postgres: one statement with data-modifying CTEs (atomic as any single statement);
//! - SQLite: one script `BEGIN IMMEDIATE; …; COMMIT`, executed by the connection's worker in
//!   a single hand-off. A statement that fails stops the script inside its transaction, so
//!   the connection is rolled back before it is used again, and closed instead if that is not
//!   certain (a rollback that fails, or a caller that stopped waiting half-way).

use sqlx::query::QueryAs;
use sqlx::{Database, Executor, FromRow, IntoArguments};

use super::{Dialect, SqlStore};

/// How a backend runs several writes atomically in one round trip.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OneTrip {
    /// One statement with data-modifying `WITH` clauses (Postgres).
    Cte,
    /// One multi-statement script wrapped in `BEGIN IMMEDIATE` … `COMMIT` (SQLite).
    Transaction,
}

/// `statements` as one script for [`OneTrip::Transaction`]: the write lock is taken at the
/// start (`IMMEDIATE`), so the script never has to upgrade a read lock half-way.
pub(crate) fn transaction_script(statements: &[&str]) -> String {
    let mut script = String::from("BEGIN IMMEDIATE; ");
    for statement in statements {
        script.push_str(statement);
        script.push_str("; ");
    }
    script.push_str("COMMIT");
    script
}

/// Runs `query` (a CTE statement or a [`transaction_script`], per `DB::ONE_TRIP`) on one of
/// `store`'s hot connections ([`super::hot`]) and returns every row it produced.
pub(crate) async fn fetch_atomic<'q, DB, R>(
    store: &SqlStore<DB>,
    query: QueryAs<'q, DB, R, <DB as Database>::Arguments<'q>>,
) -> Result<Vec<R>, sqlx::Error>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    <DB as Database>::Arguments<'q>: IntoArguments<'q, DB>,
    R: for<'r> FromRow<'r, DB::Row> + Send + Unpin,
{
    let script = DB::ONE_TRIP == OneTrip::Transaction;
    let mut conn = store.hot.acquire(&store.pool).await?;
    if script {
        // Interrupted half-way, the script may leave its transaction open: close, not pool.
        conn.close_unless_kept();
    }
    match query.fetch_all(&mut *conn).await {
        Ok(rows) => {
            conn.keep();
            Ok(rows)
        }
        Err(error) => {
            // Ends the script's transaction if the failed statement left it open. When there
            // was none (the `BEGIN` itself failed) this errors too, and the connection is
            // closed and replaced. A failed single statement needs nothing: the connection
            // goes back to the pool, which tests it.
            if script && sqlx::query("ROLLBACK").execute(&mut *conn).await.is_ok() {
                conn.keep();
            }
            Err(error)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_take_the_write_lock_first_and_commit_last() {
        assert_eq!(
            transaction_script(&["INSERT INTO a VALUES ($1)", "DELETE FROM b"]),
            "BEGIN IMMEDIATE; INSERT INTO a VALUES ($1); DELETE FROM b; COMMIT"
        );
    }
}
