//! When the card-testing alerts of a run were raised and last seen, read straight from the
//! database (`card_testing_alerts`; the merchant API shows events, not when an alert was last
//! seen): whether a bot kept the alert seen after its own new traffic, or the block-listed
//! bot after everyone else's.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// One alert, its times in milliseconds since the Unix epoch.
pub struct AlertTimes {
    pub started_at: i64,
    pub last_seen_at: i64,
    pub ended_at: Option<i64>,
    pub cause: Option<String>,
}

/// Every alert in the database at `database_url`, oldest first.
pub async fn alerts(database_url: &str) -> Vec<AlertTimes> {
    const SQL: &str = "SELECT started_at, last_seen_at, ended_at, cause \
                       FROM card_testing_alerts ORDER BY started_at";
    type Row = (i64, i64, Option<i64>, Option<String>);
    let rows: Vec<Row> = if database_url.starts_with("sqlite:") {
        let Ok(pool) = sqlx::SqlitePool::connect(database_url).await else {
            return Vec::new();
        };
        let rows = sqlx::query_as(SQL)
            .fetch_all(&pool)
            .await
            .unwrap_or_default();
        pool.close().await;
        rows
    } else {
        let Ok(pool) = sqlx::PgPool::connect(database_url).await else {
            return Vec::new();
        };
        let rows = sqlx::query_as(SQL)
            .fetch_all(&pool)
            .await
            .unwrap_or_default();
        pool.close().await;
        rows
    };
    rows.into_iter()
        .map(|(started_at, last_seen_at, ended_at, cause)| AlertTimes {
            started_at,
            last_seen_at,
            ended_at,
            cause,
        })
        .collect()
}

/// Milliseconds since the Unix epoch now.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or(Duration::ZERO)
        .as_millis() as i64
}

/// `at` (ms since the epoch) as seconds after the run's start `start` (ms), e.g. `+12.3 s`.
pub fn offset(at: i64, start: i64) -> String {
    format!("{:+.1} s", (at - start) as f64 / 1e3)
}
