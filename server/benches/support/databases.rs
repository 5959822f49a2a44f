//! Throwaway databases for the benchmarks: a SQLite file or a fresh PostgreSQL schema
//! ([`Database`]), and dropping the triggers a benchmark compares with and without
//! ([`drop_triggers`]). Included by `webhooks.rs`, `pay_latency.rs`, `dashboard.rs` and
//! `start_up.rs` (`#[path]`); not a benchmark of its own.

/// A database for one measurement: a SQLite file or a fresh Postgres schema.
pub struct Database {
    pub url: String,
    cleanup: Option<(String, String)>,
}

impl Database {
    /// A SQLite file `name.db` in `dir`, or with `postgres` (a server's URL) a new schema in it.
    pub async fn new(dir: &std::path::Path, name: &str, postgres: Option<&str>) -> Self {
        match postgres {
            None => Self {
                url: format!("sqlite://{}", dir.join(format!("{name}.db")).display()),
                cleanup: None,
            },
            Some(url) => {
                let schema = format!("bench_{name}_{}", uuid::Uuid::new_v4().simple());
                let admin = sqlx::PgPool::connect(url)
                    .await
                    .expect("postgres reachable");
                sqlx::query(&format!("CREATE SCHEMA {schema}"))
                    .execute(&admin)
                    .await
                    .expect("schema");
                admin.close().await;
                let separator = if url.contains('?') { '&' } else { '?' };
                Self {
                    url: format!("{url}{separator}options[search_path]={schema}"),
                    cleanup: Some((url.to_owned(), schema)),
                }
            }
        }
    }

    /// Drops the Postgres schema (a SQLite file goes with its directory).
    pub async fn drop(self) {
        if let Some((url, schema)) = self.cleanup {
            let admin = sqlx::PgPool::connect(&url)
                .await
                .expect("postgres reachable");
            sqlx::query(&format!("DROP SCHEMA {schema} CASCADE"))
                .execute(&admin)
                .await
                .expect("drop schema");
            admin.close().await;
        }
    }
}

/// Migrates the database at `url`, then drops every trigger whose name `dropped` accepts;
/// `expected` must be among them (a renamed trigger fails the benchmark instead of
/// measuring nothing). Returns the names dropped.
pub async fn drop_triggers(
    url: &str,
    expected: &str,
    dropped: impl Fn(&str) -> bool,
) -> Vec<String> {
    let migrated = checkout_server::store::connect(
        url,
        std::sync::Arc::new(checkout_server::store::sealed::KeyRing::generate()),
    )
    .await
    .expect("store opens");
    migrated.close().await;
    let mut names = Vec::new();
    if url.starts_with("sqlite") {
        let pool = sqlx::SqlitePool::connect(url).await.expect("sqlite");
        let triggers: Vec<(String,)> =
            sqlx::query_as("SELECT name FROM sqlite_master WHERE type = 'trigger'")
                .fetch_all(&pool)
                .await
                .expect("triggers");
        for (name,) in triggers.into_iter().filter(|(name,)| dropped(name)) {
            sqlx::query(&format!("DROP TRIGGER {name}"))
                .execute(&pool)
                .await
                .expect("dropped");
            names.push(name);
        }
        pool.close().await;
    } else {
        let pool = sqlx::PgPool::connect(url).await.expect("postgres");
        let triggers: Vec<(String, String)> = sqlx::query_as(
            "SELECT t.tgname::TEXT, c.relname::TEXT FROM pg_trigger AS t \
             JOIN pg_class AS c ON c.oid = t.tgrelid \
             JOIN pg_namespace AS n ON n.oid = c.relnamespace \
             WHERE NOT t.tgisinternal AND n.nspname = current_schema()",
        )
        .fetch_all(&pool)
        .await
        .expect("triggers");
        for (name, table) in triggers.into_iter().filter(|(name, _)| dropped(name)) {
            sqlx::query(&format!("DROP TRIGGER {name} ON {table}"))
                .execute(&pool)
                .await
                .expect("dropped");
            names.push(name);
        }
        pool.close().await;
    }
    assert!(
        names.iter().any(|name| name == expected),
        "{expected} among the triggers dropped: {names:?}"
    );
    names
}
