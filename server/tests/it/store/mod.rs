//! The store's behaviour suite. Every behaviour is one `async fn(&TestDb)` run against both
//! backends: SQLite always (a temp file), Postgres when `TEST_DATABASE_URL_POSTGRES` is set
//! (each test in its own schema); otherwise the Postgres half prints a loud SKIPPED line.

use std::path::PathBuf;
use std::str::FromStr;
use std::sync::{Arc, Once};

use checkout::card::{CardNumber, Expiry, YearMonth};
use checkout::contract::PaymentState;
use checkout_server::store::prelude::*;
use checkout_server::store::sealed::KeyRing;
use checkout_server::store::{PostgresStore, SqliteStore};
use sqlx::postgres::{PgConnectOptions, PgPool};
use sqlx::sqlite::SqlitePool;
use time::{Duration, OffsetDateTime};

/// Runs each named behaviour as two tests, `sqlite::<name>` and `postgres::<name>`.
macro_rules! store_suite {
    ($($name:ident),+ $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
                async fn $name() {
                    let db = crate::store::TestDb::sqlite().await;
                    super::$name(&db).await;
                    db.finish().await;
                }
            )+
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
                async fn $name() {
                    let Some(db) = crate::store::TestDb::postgres().await else { return };
                    super::$name(&db).await;
                    db.finish().await;
                }
            )+
        }
    };
}

mod analytics;
mod card_data;
mod event_fan_out;
mod events;
mod gateway_list;
mod idempotency;
mod leases;
mod login_attempts;
mod pay_path;
mod pay_path_logged_steps;
mod pay_path_saved_cards;
mod payment_pages;
mod records;
mod records_logs_and_lists;
mod saved_card_backfill;
mod schema;
mod sealed_card_tokens;
mod sealed_secrets;
mod sealed_secrets_rotation;
mod secrets_at_rest;
mod signups;
mod start_up;
mod state_machine;
mod subscription_writes;
mod subscriptions;
mod try_pace;

/// The environment variable naming the Postgres database for the tests.
pub const POSTGRES_ENV: &str = "TEST_DATABASE_URL_POSTGRES";

/// The card the suite derives its data from (the vendor's 3DS sample card).
pub const TEST_CARD: &str = "4000002500003155";
/// Its security code in the suite's pay requests.
pub const TEST_CVC: &str = "737";

/// Direct access to the database under a store, for what the trait does not show.
pub enum Raw {
    /// A SQLite file.
    Sqlite { pool: SqlitePool, path: PathBuf },
    /// A Postgres schema.
    Postgres {
        pool: PgPool,
        url: String,
        schema: String,
    },
}

impl Raw {
    /// Runs `sql` behind the store's back (its triggers still run), which must succeed.
    pub async fn execute(&self, sql: &str) {
        match self {
            Raw::Sqlite { pool, .. } => sqlx::query(sql).execute(pool).await.map(drop),
            Raw::Postgres { pool, .. } => sqlx::query(sql).execute(pool).await.map(drop),
        }
        .unwrap_or_else(|error| panic!("{sql}: {error}"));
    }
}

/// A fresh, migrated store on one backend.
pub struct TestDb {
    pub store: Arc<dyn Store>,
    pub raw: Raw,
    /// The keys the store seals secrets at rest with.
    pub keys: Arc<KeyRing>,
    _dir: Option<tempfile::TempDir>,
}

impl TestDb {
    /// A new SQLite file in a directory that does not exist yet (the store creates it).
    pub async fn sqlite() -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("not-yet").join("store.db");
        let url = format!("sqlite://{}", path.display());
        let keys = Arc::new(KeyRing::generate());
        let store = SqliteStore::connect(&url, keys.clone())
            .await
            .expect("sqlite store opens");
        let pool = store.pool().clone();
        Self {
            store: Arc::new(store),
            raw: Raw::Sqlite { pool, path },
            keys,
            _dir: Some(dir),
        }
    }

    /// A new schema in the configured Postgres database, or `None` (with a loud notice) when
    /// none is configured.
    pub async fn postgres() -> Option<Self> {
        let Ok(url) = std::env::var(POSTGRES_ENV) else {
            announce_postgres_skipped();
            return None;
        };
        let schema = format!("store_test_{}", uuid::Uuid::new_v4().simple());
        let admin = PgPool::connect(&url).await.expect("postgres reachable");
        sqlx::query(&format!("CREATE SCHEMA {schema}"))
            .execute(&admin)
            .await
            .expect("schema created");
        admin.close().await;
        let keys = Arc::new(KeyRing::generate());
        let store = Self::postgres_instance(&url, &schema, keys.clone()).await;
        let pool = store.pool().clone();
        Some(Self {
            store: Arc::new(store),
            raw: Raw::Postgres { pool, url, schema },
            keys,
            _dir: None,
        })
    }

    async fn postgres_instance(url: &str, schema: &str, keys: Arc<KeyRing>) -> PostgresStore {
        let options = PgConnectOptions::from_str(url)
            .expect("postgres url parses")
            .options([("search_path", schema)]);
        PostgresStore::connect_with(options, keys)
            .await
            .expect("postgres store opens")
    }

    /// Another store on the same database, as a second server instance would open it.
    pub async fn second_instance(&self) -> Arc<dyn Store> {
        self.instance_with(self.keys.clone()).await
    }

    /// Another store on the same database, opened with `keys`.
    pub async fn instance_with(&self, keys: Arc<KeyRing>) -> Arc<dyn Store> {
        match &self.raw {
            Raw::Sqlite { path, .. } => Arc::new(
                SqliteStore::connect(path.to_str().expect("utf-8 path"), keys)
                    .await
                    .expect("second sqlite instance"),
            ),
            Raw::Postgres { url, schema, .. } => {
                Arc::new(Self::postgres_instance(url, schema, keys).await)
            }
        }
    }

    /// Closes the store and drops what the test created.
    pub async fn finish(self) {
        self.store.close().await;
        if let Raw::Postgres { url, schema, .. } = &self.raw {
            let admin = PgPool::connect(url).await.expect("postgres reachable");
            sqlx::query(&format!("DROP SCHEMA {schema} CASCADE"))
                .execute(&admin)
                .await
                .expect("schema dropped");
            admin.close().await;
        }
    }
}

fn announce_postgres_skipped() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        use std::io::Write as _;
        // Written past the test harness's output capture so it shows in every run.
        let _ = writeln!(
            std::io::stderr(),
            "\n********************************************************************\n\
             SKIPPED: Postgres not configured: the store suite ran on SQLite only.\n\
             Set {POSTGRES_ENV} (scripts/postgres.sh prints a URL) to run it on Postgres.\n\
             ********************************************************************"
        );
    });
}

/// Now, to the millisecond (what the store keeps).
pub fn now() -> OffsetDateTime {
    let at = OffsetDateTime::now_utc();
    at.replace_nanosecond(at.millisecond() as u32 * 1_000_000)
        .expect("valid nanosecond")
}

/// The suite's card, as the store may keep it.
pub fn test_card() -> CardSummary {
    let number = CardNumber::parse(TEST_CARD).expect("test card parses");
    let today = YearMonth::new(2025, 1).expect("month");
    let expiry = Expiry::parse("12", "2030", today).expect("expiry parses");
    CardSummary::from_card(&number, expiry)
}

/// A session for `customer_id`, 1000 minor units of EUR.
pub async fn new_session(db: &TestDb, customer_id: Option<&str>) -> Session {
    db.store
        .create_session(NewSession {
            id: new_session_id(),
            client_secret_hash: SecretHash::of("cs_test_secret"),
            amount: 1000,
            currency: "EUR".into(),
            reference: "order-42".into(),
            capture_mode: CaptureMode::Capture,
            customer_id: customer_id.map(str::to_owned),
            email: customer_id.map(|c| format!("{c}@example.test")),
            plan_id: None,
            description: Some("Two books".into()),
            expires_at: now() + Duration::hours(1),
            link: None,
        })
        .await
        .expect("session stored")
}

/// A payment of `amount` in `created` for a new session, due for the reconciler at `due`.
pub async fn new_payment_due(db: &TestDb, amount: u64, due: OffsetDateTime) -> Payment {
    let session = new_session(db, Some("cust-1")).await;
    db.store
        .create_payment(NewPayment {
            session_id: session.id,
            customer_id: session.customer_id,
            kind: PaymentKind::PaymentV2,
            amount,
            currency: "EUR".into(),
            merchant_txn_ref: session.reference,
            card: Some(test_card()),
            saved_card_id: None,
            save_card: false,
            save_card_billing: None,
            next_check_at: due,
            review_deadline: due + Duration::minutes(30),
            risk: RiskFacts::default(),
        })
        .await
        .expect("payment stored")
}

/// A payment of `amount` in `created`, first due in a minute.
pub async fn new_payment(db: &TestDb, amount: u64) -> Payment {
    new_payment_due(db, amount, now() + Duration::minutes(1)).await
}

/// Moves `payment` one step, which must succeed.
pub async fn step(
    db: &TestDb,
    payment: &Payment,
    to: PaymentState,
    changes: PaymentChanges,
) -> Payment {
    let advance = db
        .store
        .advance_payment(&payment.id, &[payment.state], to, changes)
        .await
        .expect("step allowed");
    assert!(
        advance.moved(),
        "{:?} -> {to:?} did not move",
        payment.state
    );
    advance.into_payment()
}

/// A payment of `amount` driven to `pending`.
pub async fn pending_payment(db: &TestDb, amount: u64) -> Payment {
    let created = new_payment(db, amount).await;
    step(
        db,
        &created,
        PaymentState::Pending,
        PaymentChanges::default(),
    )
    .await
}
