//! The store on sqlx: one implementation, generic over the backend, used as [`SqliteStore`] and
//! [`PostgresStore`].
//!
//! Both backends run the same SQL (numbered `$n` parameters work on both, as do `RETURNING`,
//! `ON CONFLICT` and partial indexes); the few differences live in [`Dialect`]. Queries are
//! checked at run time (`sqlx::query_as` with `FromRow`), not by compile-time macros, so the
//! build needs no database. Each concern's impl repeats the same `where` clause: Rust does
//! not carry bounds like `i64: Encode<DB>` from a trait definition to its users.

mod activity;
mod analytics;
mod audit;
mod blocks;
mod card_testing;
mod cards;
mod checkpoint;
mod codec;
mod connect;
mod counted_claim;
mod deliveries;
mod delivery_report;
mod endpoints;
mod events;
mod fetch;
mod finish;
mod gateway_list;
mod hot;
mod idempotency;
mod leases;
mod legacy_tokens;
mod links;
mod logged_step;
mod new_payment;
mod one_trip;
mod payment_lines;
mod payment_list;
mod payments;
mod recent;
mod retry;
mod risk;
mod risk_counts;
mod risk_overrides;
mod rollup_fold;
mod rows;
mod sealed_columns;
mod session_claim;
mod sessions;
mod signups;
mod snapshot;
mod staff;
mod stats;
mod step;
mod subscriptions;
mod two_factor;

use std::future::Future;
use std::sync::Arc;

use async_trait::async_trait;
use sqlx::migrate::{MigrateError, Migrator};
use sqlx::{Database, Executor, Pool, Postgres, Sqlite};

use super::error::StoreResult;
use super::model::{SavedCardRecord, Session};
use super::sealed::KeyRing;
use super::traits::Store;

pub use connect::connect;
pub use snapshot::decode as decode_snapshot;
/// Most states a state step can expect its payment in.
pub use step::EXPECTED_SLOTS;

/// A store on a pool of `DB` connections.
pub struct SqlStore<DB: Database> {
    pool: Pool<DB>,
    /// Connections the pay call's statements keep between uses ([`hot`]).
    hot: hot::HotConnections<DB>,
    /// SQLite's background WAL checkpoints ([`checkpoint`]), for a file opened by `connect`.
    checkpointer: Option<checkpoint::Checkpointer>,
    /// Sessions this instance wrote or read ([`recent`]).
    sessions: recent::Recent<Session>,
    /// Saved cards this instance wrote or read; re-checked when used ([`recent`]).
    cards: recent::Recent<SavedCardRecord>,
    /// The keys secrets at rest are sealed and opened with ([`sealed_columns`]).
    keys: Arc<KeyRing>,
}

/// Sessions, and saved cards, kept in memory per instance (a few MB at most).
const RECENT_CAPACITY: usize = 10_000;

/// The store on SQLite (a single file in WAL mode; one writer at a time).
pub type SqliteStore = SqlStore<Sqlite>;
/// The store on PostgreSQL (safe for several server instances).
pub type PostgresStore = SqlStore<Postgres>;

/// What differs between the backends.
pub trait Dialect: Database {
    /// `"sqlite"` or `"postgres"`.
    const BACKEND: &'static str;
    /// Appended to the sub-select of a claim: on Postgres, lock the chosen rows and skip rows
    /// another instance is claiming; SQLite has one writer at a time and needs nothing.
    const SKIP_LOCKED: &'static str;
    /// Appended to a read of a row whose change the statement must wait for and then see
    /// (a session's keeper, for a claim): Postgres locks it `FOR SHARE`; SQLite has one
    /// writer at a time and needs nothing.
    const FOR_SHARE: &'static str;
    /// Begins a transaction that reads before it writes. SQLite: `BEGIN IMMEDIATE`, taking
    /// the write lock at once (a deferred transaction that read first fails with
    /// `SQLITE_BUSY_SNAPSHOT` when another connection committed in between, which the busy
    /// timeout cannot wait out); Postgres: a plain `BEGIN`.
    const BEGIN_WRITE: &'static str;
    /// Applies this backend's migrations (`server/migrations/<backend>`), embedded at build,
    /// and the data conversions that go with them ([`legacy_tokens`], and sealing any secret
    /// an older version stored in plain text under `keys`: [`sealed_columns`]).
    fn migrate(pool: &Pool<Self>, keys: &KeyRing) -> impl Future<Output = StoreResult<()>> + Send;
    /// Rows a statement changed (sqlx has no backend-neutral accessor).
    fn rows_affected(result: &Self::QueryResult) -> u64;
    /// How this backend runs several writes atomically in one round trip ([`one_trip`]).
    const ONE_TRIP: one_trip::OneTrip;
    /// The condition "`id` is among the ids `pick` selects", for the outer statement of a
    /// claim. Postgres: `id = ANY(ARRAY(pick))`, which runs the pick once and fetches its rows
    /// by primary key whatever the statistics say; an `IN` was planned, after a burst of 5,000
    /// deliveries into a table analysed while empty, as a nested loop re-running the locking
    /// pick for every row (4 s a claim). SQLite: `id IN (pick)`, which it runs once.
    fn id_among(pick: &str) -> String;
    /// The condition "`column` is one of the integers listed in the text parameter `param`"
    /// (decimal, separated by commas: `1,2,3`). Postgres: `= ANY` of the list cast to an
    /// array; SQLite: `IN` the list read as a JSON array.
    fn among_listed(column: &str, param: &str) -> String;
    /// The condition "`column` is one of the strings of the JSON array in the text parameter
    /// `param`" (`["a","b"]`). Postgres: `IN` the array's elements; SQLite: `IN` `json_each`.
    fn among_json_texts(column: &str, param: &str) -> String;
    /// Where reading many rows costs more per row in the driver than building them into one
    /// value in the database: a statement whose one row and column is a JSON text, an array
    /// holding, for each row of the statement `rows` in the order `order`, the array of
    /// `values` (`[]` for no row). SQLite: `json_group_array(json_array(…) ORDER BY …)`
    /// (SQLite 3.44 or later, as bundled), a third of the CPU time of rows through sqlx.
    /// Postgres: `None`, read the rows (its driver decodes them cheaply, and `json_agg` cost
    /// the server more than it saved).
    fn json_rows(values: &str, order: &str, rows: &str) -> Option<String>;
    /// Said first in a transaction around each of the overview's reads of the rollup, or
    /// nothing. Postgres: 16 MB of `work_mem` and no parallel workers, for this transaction
    /// only. With the default 4 MB, 30 days at 1,000,000 payments were planned as a parallel
    /// sort spilling to disk (180-200 ms and three processes on a loaded 2-core machine); with
    /// 16 MB as a hash aggregate in one process (120 ms). The previous period's read runs beside
    /// it: in one process too, it leaves the days' read a core of its own. SQLite: none (its
    /// sorter gained nothing from more cache; it has no parallel plans).
    const ROLLUP_READ_SETTINGS: Option<&'static str>;
    /// Whether each connection counts in a shard of the rollup of its own (migration 0024):
    /// Postgres, where concurrent pays otherwise queue on one row's lock; not SQLite, whose
    /// one writer never waits on a row.
    const ROLLUP_SHARDS: bool;
    /// Where the card-testing check's counts are read from, when not from their statement
    /// itself (`risk::counts_sql`): a table function of the same parameters. Postgres: the
    /// function `risk_counts` (migration 0025, redefined by 0039), which runs that statement
    /// with the plan it made once per connection (as a prepared statement it was planned anew
    /// at every pay, about 1 ms), after taking the try's locks (`sql::counted_claim`).
    /// SQLite: `None`, it plans at preparation only, and its writers take turns anyway.
    const RISK_COUNTS_FUNCTION: Option<&'static str>;
}

static SQLITE_MIGRATIONS: Migrator = sqlx::migrate!("./migrations/sqlite");
static POSTGRES_MIGRATIONS: Migrator = sqlx::migrate!("./migrations/postgres");

impl Dialect for Sqlite {
    const BACKEND: &'static str = "sqlite";
    const SKIP_LOCKED: &'static str = "";
    const FOR_SHARE: &'static str = "";
    const BEGIN_WRITE: &'static str = "BEGIN IMMEDIATE";
    const ONE_TRIP: one_trip::OneTrip = one_trip::OneTrip::Transaction;
    const ROLLUP_READ_SETTINGS: Option<&'static str> = None;
    const ROLLUP_SHARDS: bool = false;
    const RISK_COUNTS_FUNCTION: Option<&'static str> = None;

    fn id_among(pick: &str) -> String {
        format!("id IN ({pick})")
    }

    fn among_listed(column: &str, param: &str) -> String {
        format!("{column} IN (SELECT value FROM json_each('[' || {param} || ']'))")
    }

    fn among_json_texts(column: &str, param: &str) -> String {
        format!("{column} IN (SELECT value FROM json_each({param}))")
    }

    fn json_rows(values: &str, order: &str, rows: &str) -> Option<String> {
        Some(format!(
            "SELECT json_group_array(json_array({values}) ORDER BY {order}) FROM ({rows})"
        ))
    }

    async fn migrate(pool: &Pool<Self>, keys: &KeyRing) -> StoreResult<()> {
        SQLITE_MIGRATIONS.run(pool).await?;
        legacy_tokens::hash_plain_webhook_tokens(pool)
            .await
            .map_err(MigrateError::from)?;
        sealed_columns::reseal(pool, keys, sealed_columns::Reseal::PlainOnly).await?;
        Ok(())
    }

    fn rows_affected(result: &Self::QueryResult) -> u64 {
        result.rows_affected()
    }
}

impl Dialect for Postgres {
    const BACKEND: &'static str = "postgres";
    const SKIP_LOCKED: &'static str = "FOR UPDATE SKIP LOCKED";
    const FOR_SHARE: &'static str = "FOR SHARE";
    const BEGIN_WRITE: &'static str = "BEGIN";
    const ONE_TRIP: one_trip::OneTrip = one_trip::OneTrip::Cte;
    const ROLLUP_SHARDS: bool = true;
    const RISK_COUNTS_FUNCTION: Option<&'static str> =
        Some("risk_counts($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)");
    const ROLLUP_READ_SETTINGS: Option<&'static str> = Some(
        "SELECT set_config('work_mem', '16MB', true), \
         set_config('max_parallel_workers_per_gather', '0', true)",
    );

    fn id_among(pick: &str) -> String {
        format!("id = ANY(ARRAY({pick}))")
    }

    fn among_listed(column: &str, param: &str) -> String {
        format!("{column} = ANY(CAST(string_to_array({param}, ',') AS BIGINT[]))")
    }

    fn among_json_texts(column: &str, param: &str) -> String {
        format!("{column} IN (SELECT jsonb_array_elements_text(CAST({param} AS JSONB)))")
    }

    fn json_rows(_values: &str, _order: &str, _rows: &str) -> Option<String> {
        None
    }

    async fn migrate(pool: &Pool<Self>, keys: &KeyRing) -> StoreResult<()> {
        POSTGRES_MIGRATIONS.run(pool).await?;
        legacy_tokens::hash_plain_webhook_tokens(pool)
            .await
            .map_err(MigrateError::from)?;
        sealed_columns::reseal(pool, keys, sealed_columns::Reseal::PlainOnly).await?;
        Ok(())
    }

    fn rows_affected(result: &Self::QueryResult) -> u64 {
        result.rows_affected()
    }
}

impl<DB: Dialect> SqlStore<DB> {
    /// Wraps a pool without touching the schema; call [`SqlStore::migrate`] before use.
    /// `keys` seal the secrets the store must read back ([`crate::store::sealed`]).
    pub fn from_pool(pool: Pool<DB>, keys: Arc<KeyRing>) -> Self {
        // A quarter of the pool at most, so other work always finds connections.
        let hot = hot::HotConnections::new(pool.options().get_max_connections() as usize / 4);
        Self {
            pool,
            hot,
            checkpointer: None,
            sessions: recent::Recent::new(RECENT_CAPACITY),
            cards: recent::Recent::new(RECENT_CAPACITY),
            keys,
        }
    }

    /// Applies the migrations not yet applied (a no-op when the schema is current), then seals
    /// any secret an older version left in plain text ([`sealed_columns`]).
    pub async fn migrate(&self) -> StoreResult<()> {
        DB::migrate(&self.pool, &self.keys).await
    }

    /// The connection pool (for tests and operational queries).
    pub fn pool(&self) -> &Pool<DB> {
        &self.pool
    }
}

#[async_trait]
impl<DB> Store for SqlStore<DB>
where
    DB: Dialect,
    Self: super::traits::SessionStore
        + super::traits::PaymentStore
        + super::traits::LeaseStore
        + super::traits::ActivityStore
        + super::traits::IdempotencyStore
        + super::traits::CustomerStore
        + super::traits::SubscriptionStore
        + super::events::EventStore
        + super::delivery_report::DeliveryReportStore
        + super::stats::StatsStore
        + super::analytics::AnalyticsStore
        + super::staff::StaffStore
        + super::staff::AuditStore
        + super::two_factor::TwoFactorStore
        + super::retry::RetryStore
        + super::key_rotation::KeyRotationStore
        + super::risk::RiskStore
        + super::blocks::BlockListStore
        + super::card_testing::CardTestingStore
        + super::risk_overrides::RiskOverrideStore
        + super::signups::SignupStore
        + super::gateway_list::GatewayListStore
        + super::links::PaymentLinkStore,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: sqlx::IntoArguments<'q, DB>,
{
    fn backend_name(&self) -> &'static str {
        DB::BACKEND
    }

    async fn ping(&self) -> StoreResult<()> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    async fn close(&self) {
        if let Some(checkpointer) = &self.checkpointer {
            checkpointer.stop();
        }
        self.hot.release_all();
        self.pool.close().await;
    }
}
