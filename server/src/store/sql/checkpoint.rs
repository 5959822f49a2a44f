//! SQLite WAL checkpoints, off the request path.
//!
//! In WAL mode every commit appends to the `-wal` file; a checkpoint copies those pages back
//! into the database file and syncs it. By default SQLite runs one inside whichever commit
//! pushes the WAL past 1000 pages: with about twenty pages per payment, every fiftieth or so
//! pay call waited for a checkpoint and its `fsync` (a few milliseconds, the whole p99).
//!
//! Here a background task checkpoints every [`EVERY`] on a connection of its own (`PASSIVE`:
//! it never waits for, nor blocks, readers and writers), and the pool's connections only
//! checkpoint themselves past [`FALLBACK_PAGES`], as a bound on the WAL should the task fall
//! behind. Durability is unchanged: commits were never synced (`synchronous = NORMAL`), and a
//! checkpoint syncs what it copies wherever it runs.

use std::time::Duration;

use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection};
use sqlx::{ConnectOptions as _, Executor as _};
use tokio::task::AbortHandle;

/// How often the background task checkpoints.
const EVERY: Duration = Duration::from_millis(200);
/// `wal_autocheckpoint` of the pool's connections: the WAL size (pages) at which a commit
/// checkpoints by itself after all.
pub(crate) const FALLBACK_PAGES: &str = "8192";

/// The checkpointing task; stopped when dropped (with its store) or [`stop`](Self::stop)ped.
#[derive(Debug)]
pub(crate) struct Checkpointer(AbortHandle);

impl Checkpointer {
    /// Starts checkpointing the database `options` opens (on the current Tokio runtime).
    pub(crate) fn spawn(options: SqliteConnectOptions) -> Self {
        let task = tokio::spawn(async move {
            let mut tick = tokio::time::interval(EVERY);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            let mut conn: Option<SqliteConnection> = None;
            loop {
                tick.tick().await;
                if conn.is_none() {
                    conn = match options.connect().await {
                        Ok(conn) => Some(conn),
                        Err(error) => {
                            tracing::warn!(%error, "cannot open the checkpoint connection");
                            None
                        }
                    };
                }
                if let Some(open) = conn.as_mut()
                    && let Err(error) = open.execute("PRAGMA wal_checkpoint(PASSIVE)").await
                {
                    tracing::warn!(%error, "WAL checkpoint failed; reconnecting");
                    conn = None;
                }
            }
        });
        Self(task.abort_handle())
    }

    /// Stops the task.
    pub(crate) fn stop(&self) {
        self.0.abort();
    }
}

impl Drop for Checkpointer {
    fn drop(&mut self) {
        self.stop();
    }
}
