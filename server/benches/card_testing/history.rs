//! The shop's yesterday: a quarter hour a day before the attack at the pace of the bench's
//! ordinary shoppers, so the surge trigger (`RISK_ALERT_SURGE_*`) measures the attack against
//! the shop's own busiest pace, as it would in a shop that has lived, and not against an empty
//! day. Written straight into the database (captured payments of one session, spread over the
//! quarter hour), so the rollup's triggers count them as they count every payment.

use std::fmt::Write as _;

/// A day and a quarter hour, in milliseconds.
const DAY_MS: i64 = 86_400_000;
const QUARTER_HOUR_MS: i64 = 900_000;

/// Writes `tries` captured payments spread over the quarter hour that starts a day ago.
pub async fn seed_yesterday(database_url: &str, tries: u64) {
    let statements = statements(tries);
    if database_url.starts_with("sqlite:") {
        let pool = sqlx::SqlitePool::connect(database_url)
            .await
            .expect("sqlite");
        for sql in &statements {
            sqlx::query(sql).execute(&pool).await.expect("history");
        }
        pool.close().await;
    } else {
        let pool = sqlx::PgPool::connect(database_url).await.expect("postgres");
        for sql in &statements {
            sqlx::query(sql).execute(&pool).await.expect("history");
        }
        pool.close().await;
    }
}

/// One session, then the payments in statements of 1,000 rows.
fn statements(tries: u64) -> Vec<String> {
    let now = time::OffsetDateTime::now_utc().unix_timestamp() * 1_000;
    let start = now - DAY_MS;
    let mut statements = vec![format!(
        "INSERT INTO checkout_sessions (id, client_secret_hash, amount, currency, reference, \
         capture_mode, created_at, expires_at) VALUES ('yesterday', '{}', 1000, 'EUR', \
         'yesterday', 'capture', {start}, {start})",
        "0".repeat(64)
    )];
    let rows: Vec<u64> = (0..tries).collect();
    for chunk in rows.chunks(1_000) {
        let mut sql = String::from(
            "INSERT INTO payments (id, session_id, kind, state, amount, currency, \
             merchant_txn_ref, card_brand, card_bin, card_last4, card_expiry_month, \
             card_expiry_year, captured_amount, refunded_amount, webhook_token_hash, \
             review_deadline, created_at, updated_at) VALUES ",
        );
        for (i, n) in chunk.iter().enumerate() {
            let at = start
                + QUARTER_HOUR_MS * i64::try_from(*n).unwrap_or(0)
                    / i64::try_from(tries.max(1)).unwrap_or(1);
            let _ = write!(
                sql,
                "{comma}('{id}', 'yesterday', 'payment_v2', 'captured', 1000, 'EUR', \
                 'yesterday-{n}', 'visa', '424242', '{last4:04}', 12, 2030, 1000, 0, '{hash}', \
                 {deadline}, {at}, {at})",
                comma = if i == 0 { "" } else { "," },
                id = uuid::Uuid::new_v4(),
                last4 = n % 10_000,
                hash = "0".repeat(64),
                deadline = at + 1_800_000,
            );
        }
        statements.push(sql);
    }
    statements
}
