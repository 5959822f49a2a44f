//! Migrations are idempotent, and `connect` picks the backend from the URL.

use std::sync::Arc;

use checkout_server::store::sealed::KeyRing;
use checkout_server::store::{PostgresStore, SqliteStore, StoreError, connect};

use super::{Raw, TestDb, new_payment};

store_suite!(migrations_applied_twice_are_a_no_op);

async fn applied_migrations(raw: &Raw) -> i64 {
    let sql = "SELECT COUNT(*) FROM _sqlx_migrations WHERE success";
    match raw {
        Raw::Sqlite { pool, .. } => sqlx::query_scalar(sql).fetch_one(pool).await,
        Raw::Postgres { pool, .. } => sqlx::query_scalar(sql).fetch_one(pool).await,
    }
    .expect("migration table readable")
}

async fn migrations_applied_twice_are_a_no_op(db: &TestDb) {
    let payment = new_payment(db, 1000).await;
    let before = applied_migrations(&db.raw).await;
    assert!(before >= 1);
    match &db.raw {
        Raw::Sqlite { pool, .. } => {
            SqliteStore::from_pool(pool.clone(), db.keys.clone())
                .migrate()
                .await
        }
        Raw::Postgres { pool, .. } => {
            PostgresStore::from_pool(pool.clone(), db.keys.clone())
                .migrate()
                .await
        }
    }
    .expect("second migration run succeeds");
    let reopened = db.second_instance().await;
    assert_eq!(applied_migrations(&db.raw).await, before);
    let kept = reopened.get_payment(&payment.id).await.unwrap();
    assert_eq!(
        kept.map(|p| p.amount),
        Some(1000),
        "data survives re-opening"
    );
    reopened.ping().await.unwrap();
    reopened.close().await;
}

#[tokio::test]
async fn connect_picks_the_backend_from_the_url() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a").join("b").join("plain.db");
    let keys = Arc::new(KeyRing::generate());
    let store = connect(path.to_str().unwrap(), keys.clone())
        .await
        .expect("a plain path opens SQLite");
    assert_eq!(store.backend_name(), "sqlite");
    store.ping().await.unwrap();
    store.close().await;
    assert!(path.exists(), "file and directories created");
    let reopened = SqliteStore::connect(&format!("sqlite://{}", path.display()), keys.clone())
        .await
        .unwrap();
    let mode: String = sqlx::query_scalar("PRAGMA journal_mode")
        .fetch_one(reopened.pool())
        .await
        .unwrap();
    assert_eq!(mode, "wal");
    reopened.pool().close().await;

    let memory = connect("sqlite::memory:", keys.clone())
        .await
        .expect("in-memory SQLite opens");
    memory.upsert_customer("c", None).await.expect("usable");
    memory.close().await;

    for bad in ["mysql://localhost/x", "https://example.test/db"] {
        let refused = connect(bad, keys.clone()).await;
        assert!(matches!(refused, Err(StoreError::InvalidUrl(_))), "{bad}");
    }
    let unreachable = connect("postgres://nobody@127.0.0.1:1/none", keys).await;
    assert!(matches!(unreachable, Err(StoreError::Database(_))));
}
