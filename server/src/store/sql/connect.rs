//! Opening a store from `DATABASE_URL`: `postgres://…` selects Postgres, `sqlite:…` or a plain
//! file path selects SQLite (file and directory created if missing, WAL mode, checkpoints in
//! the background). Migrations are applied before the store is handed out.

use std::path::Path;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use sqlx::Connection;
use sqlx::pool::PoolConnectionMetadata;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};

use super::checkpoint::{self, Checkpointer};
use super::{PostgresStore, SqliteStore};
use crate::store::error::{StoreError, StoreResult};
use crate::store::sealed::KeyRing;
use crate::store::traits::Store;

/// How long a SQLite writer waits for another writer before giving up.
const SQLITE_BUSY_TIMEOUT: Duration = Duration::from_secs(5);
/// Connections per pool.
const MAX_CONNECTIONS: u32 = 10;
/// How long to wait for a free connection from the pool.
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(10);
/// A pooled connection idle for longer than this is pinged before it is handed out.
const PING_AFTER_IDLE: Duration = Duration::from_secs(1);

/// Opens the store `database_url` names and brings its schema up to date; `keys` seal and
/// open the secrets at rest.
pub async fn connect(database_url: &str, keys: Arc<KeyRing>) -> StoreResult<Arc<dyn Store>> {
    let url = database_url.trim();
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        Ok(Arc::new(PostgresStore::connect(url, keys).await?))
    } else if url.starts_with("sqlite:") || !url.contains("://") {
        Ok(Arc::new(SqliteStore::connect(url, keys).await?))
    } else {
        Err(StoreError::InvalidUrl(
            "expected postgres://…, sqlite:… or a file path".into(),
        ))
    }
}

impl SqliteStore {
    /// Opens (creating if missing) the SQLite database at `url_or_path` (`sqlite://data/x.db`,
    /// `sqlite::memory:` or `data/x.db`) and applies the migrations.
    ///
    /// WAL with `synchronous = NORMAL`: readers never block the writer, and a commit survives
    /// a crash of the process (only a power loss can drop the last commits). WAL checkpoints
    /// run on a background task ([`super::checkpoint`]), not inside a request's commit.
    pub async fn connect(url_or_path: &str, keys: Arc<KeyRing>) -> StoreResult<Self> {
        if url_or_path.is_empty() {
            return Err(StoreError::InvalidUrl("it is empty".into()));
        }
        let options = if url_or_path.starts_with("sqlite:") {
            SqliteConnectOptions::from_str(url_or_path)
                .map_err(|e| StoreError::InvalidUrl(e.to_string()))?
        } else {
            SqliteConnectOptions::new().filename(url_or_path)
        };
        let in_memory = url_or_path.contains(":memory:");
        let options = options
            .create_if_missing(true)
            .foreign_keys(true)
            .busy_timeout(SQLITE_BUSY_TIMEOUT);
        let options = if in_memory {
            options
        } else {
            create_parent_dir(options.get_filename())?;
            options
                .journal_mode(SqliteJournalMode::Wal)
                .synchronous(SqliteSynchronous::Normal)
                .pragma("wal_autocheckpoint", checkpoint::FALLBACK_PAGES)
        };
        // Checkpoints run in the background (`checkpoint`), on their own connection.
        let checkpoints = (!in_memory).then(|| options.clone());
        // An in-memory database exists once per connection: keep exactly one.
        let max = if in_memory { 1 } else { MAX_CONNECTIONS };
        let pool = SqlitePoolOptions::new()
            .max_connections(max)
            .acquire_timeout(ACQUIRE_TIMEOUT)
            .test_before_acquire(false)
            .before_acquire(|conn, meta| Box::pin(ping_if_idle(conn, meta)))
            .connect_with(options)
            .await?;
        let mut store = Self::from_pool(pool, keys);
        store.migrate().await?;
        store.checkpointer = checkpoints.map(Checkpointer::spawn);
        Ok(store)
    }
}

impl PostgresStore {
    /// Connects to the Postgres database `url` names and applies the migrations.
    pub async fn connect(url: &str, keys: Arc<KeyRing>) -> StoreResult<Self> {
        let options =
            PgConnectOptions::from_str(url).map_err(|e| StoreError::InvalidUrl(e.to_string()))?;
        Self::connect_with(options, keys).await
    }

    /// Connects with prepared options (e.g. a `search_path` for an isolated schema) and
    /// applies the migrations. Several instances may start at once: sqlx serialises the
    /// migration run with an advisory lock.
    pub async fn connect_with(options: PgConnectOptions, keys: Arc<KeyRing>) -> StoreResult<Self> {
        let pool = PgPoolOptions::new()
            .max_connections(MAX_CONNECTIONS)
            .acquire_timeout(ACQUIRE_TIMEOUT)
            .test_before_acquire(false)
            .before_acquire(|conn, meta| Box::pin(ping_if_idle(conn, meta)))
            .connect_with(options)
            .await?;
        let store = Self::from_pool(pool, keys);
        store.migrate().await?;
        Ok(store)
    }
}

/// sqlx pings every pooled connection before handing it out by default: one more round trip
/// (on SQLite, one more hop to its worker thread) in front of every query. sqlx also pings each
/// connection given back to the pool, so one in steady use was checked moments ago; only one
/// that sat idle for a while is checked again (a server restart, an idle timeout on the way).
/// A broken one is dropped and the pool hands out another.
async fn ping_if_idle<C: Connection>(
    conn: &mut C,
    meta: PoolConnectionMetadata,
) -> Result<bool, sqlx::Error> {
    if meta.idle_for > PING_AFTER_IDLE {
        conn.ping().await?;
    }
    Ok(true)
}

fn create_parent_dir(file: &Path) -> StoreResult<()> {
    match file.parent() {
        Some(dir) if !dir.as_os_str().is_empty() && !dir.exists() => std::fs::create_dir_all(dir)
            .map_err(|source| StoreError::CreateDir {
                path: dir.display().to_string(),
                source,
            }),
        _ => Ok(()),
    }
}
