//! A busy shop's data for the benchmarks that need one: `rows` payments spread over the last
//! [`DAYS`] days (mixed states, currencies, kinds, decline reasons and refunds) and 2,000
//! subscriptions, as multi-row INSERTs run in one transaction, so the rollup's triggers run
//! for every row as they would in production. Included by each benchmark with `#[path]`; not a
//! benchmark of its own.

use std::fmt::Write as _;
use std::time::Instant;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Days the payments are spread over, ending now.
pub const DAYS: i64 = 90;
const DAY_MS: i64 = 86_400_000;

/// Runs the [`seed`] in one transaction on `pool`, then `analyze` (fresh statistics, as a
/// database that has lived would have).
pub async fn seed_into<DB: sqlx::Database>(
    backend: &str,
    pool: &sqlx::Pool<DB>,
    rows: u64,
    analyze: &str,
) where
    for<'c> &'c mut DB::Connection: sqlx::Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: sqlx::IntoArguments<'q, DB>,
{
    let started = Instant::now();
    let mut tx = pool.begin().await.expect("begin");
    for statement in seed(rows) {
        sqlx::query::<DB>(&statement)
            .execute(&mut *tx)
            .await
            .expect("seed");
    }
    tx.commit().await.expect("commit");
    sqlx::query::<DB>(analyze)
        .execute(pool)
        .await
        .expect("analyze");
    println!(
        "{backend:<10} seeded in {:.1} s",
        started.elapsed().as_secs_f64()
    );
}

/// The seed as statements of 1,000 rows each: one session, the payments, the subscriptions.
pub fn seed(rows: u64) -> Vec<String> {
    let mut rng = StdRng::seed_from_u64(23);
    let now = now_ms();
    let mut statements = vec![format!(
        "INSERT INTO checkout_sessions (id, client_secret_hash, amount, currency, reference, \
         capture_mode, created_at, expires_at) VALUES ('bench-session', '{}', 1000, 'EUR', \
         'bench', 'capture', {now}, {now})",
        "0".repeat(64)
    )];
    let declines = [
        "do_not_honour",
        "insufficient_funds",
        "insufficient_funds",
        "expired_card",
        "lost_or_stolen",
        "issuer_unavailable",
        "risk_rejected",
        "authentication_failed",
    ];
    let mut sql = String::new();
    for i in 0..rows {
        if i % 1_000 == 0 {
            if !sql.is_empty() {
                statements.push(std::mem::take(&mut sql));
            }
            sql.push_str(
                "INSERT INTO payments (id, session_id, customer_id, kind, state, amount, currency, \
                 merchant_txn_ref, decline_code, card_brand, card_bin, card_last4, \
                 card_expiry_month, card_expiry_year, captured_amount, refunded_amount, \
                 webhook_token_hash, review_deadline, created_at, updated_at) VALUES ",
            );
        } else {
            sql.push(',');
        }
        let created = now - rng.random_range(0..DAYS * DAY_MS);
        let currency = match rng.random_range(0..100) {
            0..50 => "EUR",
            50..75 => "USD",
            75..90 => "GBP",
            _ => "JPY",
        };
        let amount: u64 = if currency == "JPY" {
            rng.random_range(100..50_000)
        } else {
            rng.random_range(100..30_000)
        };
        let kind = match rng.random_range(0..100) {
            0..70 => "payment_v2",
            70..90 => "token_payment",
            90..95 => "authorization_v2",
            _ => "subscription",
        };
        let roll = rng.random_range(0..1_000);
        let (state, captured, refunded, decline) = match roll {
            0..700 => ("captured", amount, 0, None),
            700..820 => (
                "declined",
                0,
                0,
                Some(declines[rng.random_range(0..declines.len())]),
            ),
            820..850 => ("partially_refunded", amount, amount / 3, None),
            850..880 => ("refunded", amount, amount, None),
            880..910 => ("authorized", 0, 0, None),
            910..920 => ("voided", 0, 0, None),
            920..940 => ("failed", 0, 0, None),
            940..995 => ("pending", 0, 0, None),
            _ => ("needs_review", 0, 0, None),
        };
        let (brand, bin) = if i % 3 == 0 {
            ("mastercard", "520000")
        } else {
            ("visa", "424242")
        };
        let _ = write!(
            sql,
            "('{id}', 'bench-session', 'cust-{customer}', '{kind}', '{state}', {amount}, \
             '{currency}', 'order-{i}', {decline}, '{brand}', '{bin}', '{last4:04}', 12, 2030, \
             {captured}, {refunded}, '{hash}', {deadline}, {created}, {created})",
            id = uuid::Uuid::from_u128(rng.random()),
            customer = i % 50_000,
            decline = decline.map_or("NULL".to_owned(), |d| format!("'{d}'")),
            last4 = i % 10_000,
            hash = "0".repeat(64),
            deadline = created + 1_800_000,
        );
    }
    if !sql.is_empty() {
        statements.push(sql);
    }
    let mut subs = String::from(
        "INSERT INTO subscriptions (id, gateway_subscription_id, customer_id, plan_id, amount, \
         currency, status, completed_cycles, created_at, updated_at) VALUES ",
    );
    for i in 0..2_000 {
        let status = match i % 10 {
            0 => "cancelled",
            1 => "paused",
            _ => "active",
        };
        let created = now - rng.random_range(0..DAYS * DAY_MS);
        let _ = write!(
            subs,
            "{}('sub-{i}', 'gw-sub-{i}', 'cust-{i}', 'monthly', 990, 'EUR', '{status}', 1, {created}, {created})",
            if i == 0 { "" } else { "," }
        );
    }
    statements.push(subs);
    statements
}

/// Now in Unix milliseconds.
pub fn now_ms() -> i64 {
    i64::try_from(time::OffsetDateTime::now_utc().unix_timestamp_nanos() / 1_000_000)
        .expect("now fits")
}
