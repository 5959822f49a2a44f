//! A few connections the checkout's statements keep between uses instead of giving them back
//! to the pool.
//!
//! sqlx tests every connection given back to its pool with a ping: one more round trip (on
//! SQLite, one more hand-off to the connection's worker thread) after each statement, running
//! beside the next one on a machine with few cores. The checkout's statements (the session's
//! creation and read, the claim with the payment, the outcome with its log, and with an
//! `Idempotency-Key` the key's record) take their connections here instead, most recently
//! used first; one goes back to the pool (and its test) only when a statement fails, is
//! interrupted, or it sat unused for a while.
//!
//! They stay checked out of the pool, so they count against its size: at most
//! [`HotConnections::new`]'s `max` wait here, and none when the pool is too small to spare one.

use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use sqlx::pool::PoolConnection;
use sqlx::query::QueryAs;
use sqlx::{Database, Executor, FromRow, IntoArguments, Pool};

use super::SqlStore;

/// A connection unused for longer than this goes back to the pool, which tests it (as the
/// pool tests its own idle connections, see `connect`).
const MAX_IDLE: Duration = Duration::from_secs(1);

/// The connections kept for hot statements.
pub(crate) struct HotConnections<DB: Database> {
    idle: Mutex<Vec<(PoolConnection<DB>, Instant)>>,
    max: usize,
    /// Set by [`release_all`](Self::release_all): nothing is kept any more.
    closed: AtomicBool,
}

impl<DB: Database> HotConnections<DB> {
    /// Keeps up to `max` connections (0 keeps none: every use goes to the pool).
    pub(crate) fn new(max: usize) -> Self {
        Self {
            idle: Mutex::new(Vec::with_capacity(max)),
            max,
            closed: AtomicBool::new(false),
        }
    }

    /// The most recently used kept connection, or one from `pool`.
    pub(crate) async fn acquire(&self, pool: &Pool<DB>) -> Result<Hot<'_, DB>, sqlx::Error> {
        loop {
            let popped = self.lock().pop();
            match popped {
                Some((conn, since)) if since.elapsed() <= MAX_IDLE => {
                    return Ok(self.wrap(conn));
                }
                // Dropped: back to the pool, which tests it before handing it out again.
                Some(_) => {}
                None => break,
            }
        }
        Ok(self.wrap(pool.acquire().await?))
    }

    /// Gives every kept connection back to the pool and keeps none from now on (before the
    /// pool is closed: closing waits for every checked-out connection, including one a
    /// statement still running will finish with).
    pub(crate) fn release_all(&self) {
        self.closed.store(true, Ordering::SeqCst);
        let kept = std::mem::take(&mut *self.lock());
        drop(kept);
    }

    fn wrap(&self, conn: PoolConnection<DB>) -> Hot<'_, DB> {
        Hot {
            conn: Some(conn),
            home: self,
            close_unless_kept: false,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<(PoolConnection<DB>, Instant)>> {
        self.idle.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl<DB: Database> Drop for HotConnections<DB> {
    fn drop(&mut self) {
        let kept = std::mem::take(&mut *self.lock());
        // Giving a connection back to the pool spawns a task; with no runtime left (a store
        // dropped after its runtime), close them directly instead.
        if tokio::runtime::Handle::try_current().is_err() {
            for (conn, _) in kept {
                drop(conn.detach());
            }
        }
    }
}

impl<DB: Database> SqlStore<DB> {
    /// Runs `query` on one of the hot connections and returns its row, if any; the
    /// connection is kept for the next hot statement unless the query failed.
    pub(crate) async fn fetch_optional_hot<'q, R>(
        &self,
        query: QueryAs<'q, DB, R, <DB as Database>::Arguments<'q>>,
    ) -> Result<Option<R>, sqlx::Error>
    where
        for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
        <DB as Database>::Arguments<'q>: IntoArguments<'q, DB>,
        R: for<'r> FromRow<'r, DB::Row> + Send + Unpin,
    {
        let mut conn = self.hot.acquire(&self.pool).await?;
        let row = query.fetch_optional(&mut *conn).await?;
        conn.keep();
        Ok(row)
    }
}

/// A connection from [`HotConnections::acquire`]. [`keep`](Hot::keep) it after a statement
/// that succeeded; dropped otherwise, it goes back to the pool (and its test), or is closed if
/// [`close_unless_kept`](Hot::close_unless_kept) was called.
pub(crate) struct Hot<'a, DB: Database> {
    conn: Option<PoolConnection<DB>>,
    home: &'a HotConnections<DB>,
    close_unless_kept: bool,
}

impl<DB: Database> Hot<'_, DB> {
    /// Closes the connection instead of pooling it unless [`keep`](Self::keep) is called: for
    /// work that may leave it in a state a ping does not reveal (an open transaction).
    pub(crate) fn close_unless_kept(&mut self) {
        self.close_unless_kept = true;
    }

    /// Keeps the connection for the next hot statement, or gives it back to the pool when
    /// enough are kept already.
    pub(crate) fn keep(mut self) {
        let Some(conn) = self.conn.take() else {
            return;
        };
        let mut idle = self.home.lock();
        if idle.len() < self.home.max && !self.home.closed.load(Ordering::SeqCst) {
            idle.push((conn, Instant::now()));
            return;
        }
        drop(idle);
        drop(conn);
    }
}

impl<DB: Database> Deref for Hot<'_, DB> {
    type Target = DB::Connection;

    fn deref(&self) -> &DB::Connection {
        self.conn.as_deref().expect("present until kept or dropped")
    }
}

impl<DB: Database> DerefMut for Hot<'_, DB> {
    fn deref_mut(&mut self) -> &mut DB::Connection {
        self.conn
            .as_deref_mut()
            .expect("present until kept or dropped")
    }
}

impl<DB: Database> Drop for Hot<'_, DB> {
    fn drop(&mut self) {
        if let Some(conn) = &mut self.conn
            && self.close_unless_kept
        {
            conn.close_on_drop();
        }
    }
}
