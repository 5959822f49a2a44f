//! The overview's store reads: the rollup the triggers keep equals a recount of the payments
//! after every kind of change (insert, each state step, refunds, a decline with its reason,
//! a moved creation time, a rolled-back change), and the per-day outcomes follow the
//! merchant's time zone across a daylight-saving day, counted and summed per currency. On
//! PostgreSQL, folding the shards that connections count in leaves one row a group of a past
//! slot and every sum as it was.

use checkout::contract::{DeclineCode, PaymentState};
use checkout_server::dashboard::overview::range::{RangeForm, epoch_day};
use checkout_server::store::analytics::DayOutcome;
use checkout_server::store::prelude::*;

use super::{Raw, TestDb, new_payment, step};

store_suite!(
    rollup_follows_every_change,
    folding_the_shards_changes_no_sum,
    days_follow_the_time_zone
);

type RollupRow = (i64, String, String, i64, String, i64, i64, i64, i64);

/// The rollup as its readers see it: on PostgreSQL each connection counts in a shard of its
/// own (migration 0024), summed here as the dashboard sums them.
const FROM_ROLLUP: &str = "SELECT slot, currency, state, three_ds, decline_code, \
    CAST(SUM(n) AS BIGINT), CAST(SUM(amount) AS BIGINT), CAST(SUM(captured) AS BIGINT), \
    CAST(SUM(refunded) AS BIGINT) FROM payment_rollup \
    GROUP BY slot, currency, state, three_ds, decline_code HAVING SUM(n) <> 0 \
    ORDER BY slot, currency, state, three_ds, decline_code";

const RECOUNT: &str = "SELECT created_at / 900000 AS slot, currency, state, \
    CAST(CASE WHEN kind IN ('payment_v2', 'authorization_v2') THEN 1 ELSE 0 END AS BIGINT) AS three_ds, \
    COALESCE(decline_code, '') AS decline_code, COUNT(*) AS n, \
    CAST(SUM(amount) AS BIGINT) AS amount, CAST(SUM(captured_amount) AS BIGINT) AS captured, \
    CAST(SUM(refunded_amount) AS BIGINT) AS refunded FROM payments \
    GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5";

/// The rows `sql` reads, on either backend.
async fn rows<T>(db: &TestDb, sql: &str) -> Vec<T>
where
    T: for<'r> sqlx::FromRow<'r, sqlx::sqlite::SqliteRow>
        + for<'r> sqlx::FromRow<'r, sqlx::postgres::PgRow>
        + Send
        + Unpin,
{
    match &db.raw {
        Raw::Sqlite { pool, .. } => sqlx::query_as(sql).fetch_all(pool).await,
        Raw::Postgres { pool, .. } => sqlx::query_as(sql).fetch_all(pool).await,
    }
    .expect("rows read")
}

async fn assert_in_step(db: &TestDb, after: &str) {
    let rollup: Vec<RollupRow> = rows(db, FROM_ROLLUP).await;
    let recount: Vec<RollupRow> = rows(db, RECOUNT).await;
    assert!(!recount.is_empty(), "{after}: payments exist");
    assert_eq!(rollup, recount, "the rollup after {after}");
}

fn refund(amount: u64) -> PaymentChanges {
    PaymentChanges {
        refund: Some(amount),
        ..PaymentChanges::default()
    }
}

async fn rollup_follows_every_change(db: &TestDb) {
    use PaymentState::*;
    let a = new_payment(db, 1000).await;
    let b = new_payment(db, 2500).await;
    let c = new_payment(db, 700).await;
    assert_in_step(db, "inserts").await;
    let a = step(db, &a, Pending, PaymentChanges::default()).await;
    let b = step(db, &b, Pending, PaymentChanges::default()).await;
    let c = step(db, &c, Pending, PaymentChanges::default()).await;
    assert_in_step(db, "pending").await;
    let a = step(db, &a, Captured, PaymentChanges::default()).await;
    let a = step(db, &a, PartiallyRefunded, refund(300)).await;
    assert_in_step(db, "a partial refund").await;
    step(db, &a, Refunded, refund(700)).await;
    let declined = PaymentChanges {
        decline_code: Some(DeclineCode::InsufficientFunds),
        response_code: Some(51),
        ..PaymentChanges::default()
    };
    step(db, &b, Declined, declined).await;
    assert_in_step(db, "a refund and a decline").await;
    // A step that does not happen changes nothing.
    let refused = db
        .store
        .advance_payment(&c.id, &[Captured], Refunded, refund(1))
        .await
        .expect("asked");
    assert!(!refused.moved());
    // Moved to another slot, another currency (as a data fix would).
    db.raw.execute(&format!(
            "UPDATE payments SET created_at = created_at - 86400000, currency = 'JPY' WHERE id = '{}'",
            c.id
        ),
    )
    .await;
    assert_in_step(db, "a moved creation time").await;
    // A change rolled back leaves the rollup as it was.
    let before: Vec<RollupRow> = rows(db, FROM_ROLLUP).await;
    let sql = format!(
        "UPDATE payments SET state = 'captured', captured_amount = amount WHERE id = '{}'",
        c.id
    );
    match &db.raw {
        Raw::Sqlite { pool, .. } => {
            let mut tx = pool.begin().await.expect("begin");
            sqlx::query(&sql).execute(&mut *tx).await.expect("update");
            tx.rollback().await.expect("rollback");
        }
        Raw::Postgres { pool, .. } => {
            let mut tx = pool.begin().await.expect("begin");
            sqlx::query(&sql).execute(&mut *tx).await.expect("update");
            tx.rollback().await.expect("rollback");
        }
    }
    assert_eq!(
        rows::<RollupRow>(db, FROM_ROLLUP).await,
        before,
        "after a rollback"
    );
    step(db, &c, Captured, PaymentChanges::default()).await;
    assert_in_step(db, "a capture").await;
}

/// Stored rows of the rollup per slot and state: `(slot, state, shard, n)`.
async fn stored_rows(db: &TestDb) -> Vec<(i64, String, i64, i64)> {
    let shard = match &db.raw {
        Raw::Sqlite { .. } => "0",
        Raw::Postgres { .. } => "CAST(shard AS BIGINT)",
    };
    let sql = format!("SELECT slot, state, {shard}, n FROM payment_rollup ORDER BY 1, 2, 3");
    rows(db, &sql).await
}

/// Runs `updates` behind the store's back, on PostgreSQL each on a connection of its own
/// whose shard (its backend's process id modulo 16) is neither 0 nor another's.
async fn on_own_shards(db: &TestDb, updates: &[String]) {
    let Raw::Postgres { pool, .. } = &db.raw else {
        for sql in updates {
            db.raw.execute(sql).await;
        }
        return;
    };
    let mut held = Vec::new();
    let mut chosen = Vec::new();
    let mut shards = Vec::new();
    while chosen.len() < updates.len() {
        assert!(
            held.len() < 64,
            "connections with {} distinct shards",
            updates.len()
        );
        let mut connection = pool.acquire().await.expect("connection");
        let (shard,): (i32,) = sqlx::query_as("SELECT pg_backend_pid() % 16")
            .fetch_one(&mut *connection)
            .await
            .expect("pid");
        if shard == 0 || shards.contains(&shard) {
            held.push(connection.detach());
        } else {
            shards.push(shard);
            chosen.push(connection);
        }
    }
    for (connection, sql) in chosen.iter_mut().zip(updates) {
        sqlx::query(sql)
            .execute(&mut **connection)
            .await
            .unwrap_or_else(|error| panic!("{sql}: {error}"));
    }
}

async fn folding_the_shards_changes_no_sum(db: &TestDb) {
    use PaymentState::*;
    let now = time::OffsetDateTime::now_utc();
    let two_hours_ago = (now - time::Duration::hours(2)).unix_timestamp() * 1000;
    let old_slot = two_hours_ago.div_euclid(900_000);
    // Three captured payments and a pending one moved two hours back, each by its own
    // connection; then the pending one is captured there (by the store's own connection).
    let mut moved = Vec::new();
    for amount in [1000, 2500, 700] {
        let p = new_payment(db, amount).await;
        let p = step(db, &p, Pending, PaymentChanges::default()).await;
        moved.push(step(db, &p, Captured, PaymentChanges::default()).await);
    }
    let late = step(
        db,
        &new_payment(db, 40).await,
        Pending,
        PaymentChanges::default(),
    )
    .await;
    let fresh = step(
        db,
        &new_payment(db, 5).await,
        Pending,
        PaymentChanges::default(),
    )
    .await;
    let updates: Vec<String> = moved
        .iter()
        .chain([&late])
        .map(|p| {
            format!(
                "UPDATE payments SET created_at = {two_hours_ago} WHERE id = '{}'",
                p.id
            )
        })
        .collect();
    on_own_shards(db, &updates).await;
    step(db, &late, Captured, PaymentChanges::default()).await;
    assert_in_step(db, "payments moved back by four connections").await;
    let before = stored_rows(db).await;
    let fresh_slot = fresh.created_at.unix_timestamp() * 1000 / 900_000;
    let in_slot = |rows: &[(i64, String, i64, i64)], slot: i64| -> Vec<(String, i64, i64)> {
        rows.iter()
            .filter(|row| row.0 == slot)
            .map(|row| (row.1.clone(), row.2, row.3))
            .collect()
    };

    let folded = db
        .store
        .fold_rollup(now - time::Duration::minutes(15))
        .await
        .expect("folded");

    assert_in_step(db, "the fold").await;
    let after = stored_rows(db).await;
    assert_eq!(
        in_slot(&after, fresh_slot),
        in_slot(&before, fresh_slot),
        "the present slot is left alone"
    );
    match &db.raw {
        Raw::Sqlite { .. } => {
            assert_eq!(folded, 0, "one writer, no shards");
            assert_eq!(after, before);
        }
        Raw::Postgres { .. } => {
            // Four connections' +1 captured (and one -1 pending +1 pending) were shards.
            assert!(folded >= 4, "{folded} shard rows folded: {before:?}");
            assert_eq!(
                in_slot(&after, old_slot),
                vec![("captured".to_owned(), 0, 4)],
                "one row a group of the past slot, its settled pending row gone: {before:?}"
            );
        }
    }
}

/// Creates a payment at `at` (RFC 3339) in `currency`, driven to `state`.
async fn placed(db: &TestDb, at: &str, currency: &str, amount: u64, state: PaymentState) {
    use PaymentState::*;
    let p = new_payment(db, amount).await;
    let p = step(db, &p, Pending, PaymentChanges::default()).await;
    match state {
        Captured => {
            step(db, &p, Captured, PaymentChanges::default()).await;
        }
        Declined => {
            let changes = PaymentChanges {
                decline_code: Some(DeclineCode::ExpiredCard),
                ..PaymentChanges::default()
            };
            step(db, &p, Declined, changes).await;
        }
        _ => {}
    }
    let ms = at
        .parse::<jiff::Timestamp>()
        .expect("time")
        .as_millisecond();
    db.raw
        .execute(&format!(
            "UPDATE payments SET created_at = {ms}, currency = '{currency}' WHERE id = '{}'",
            p.id
        ))
        .await;
}

async fn days_follow_the_time_zone(db: &TestDb) {
    use PaymentState::*;
    // Berlin moves to summer time on 2025-03-30: that day runs 23:00Z (29th) to 22:00Z (30th).
    placed(db, "2025-03-29T22:59:59.999Z", "EUR", 100, Captured).await; // 29th
    placed(db, "2025-03-29T23:00:00Z", "EUR", 1000, Captured).await; // 30th
    placed(db, "2025-03-30T00:30:00Z", "JPY", 500, Captured).await; // 30th
    placed(db, "2025-03-30T12:00:00Z", "EUR", 999, Declined).await; // 30th
    placed(db, "2025-03-30T21:59:59.999Z", "EUR", 2000, Captured).await; // 30th
    placed(db, "2025-03-30T22:00:00Z", "EUR", 5, Captured).await; // 31st
    placed(db, "2025-03-30T23:00:00Z", "EUR", 7, Pending).await; // 31st
    let range = RangeForm {
        range: "custom".into(),
        from: "2025-03-30".into(),
        to: "2025-03-31".into(),
        tz: "Europe/Berlin".into(),
    }
    .resolve(jiff::Timestamp::now(), "UTC")
    .expect("range");
    let outcomes = db
        .store
        .day_outcomes(&range.local_span().expect("span"))
        .await
        .expect("read");
    let day = |d: &str| epoch_day(d.parse().expect("date"));
    let find = |day: i64, currency: &str, state: PaymentState| -> Vec<&DayOutcome> {
        outcomes
            .iter()
            .filter(|o| o.day == day && o.currency == currency && o.state == state)
            .collect()
    };
    let (d30, d31) = (day("2025-03-30"), day("2025-03-31"));
    assert!(
        outcomes.iter().all(|o| o.day == d30 || o.day == d31),
        "{outcomes:?}"
    );
    let eur30 = find(d30, "EUR", Captured);
    assert_eq!(eur30.len(), 1, "{outcomes:?}");
    assert_eq!((eur30[0].payments, eur30[0].captured), (2, 3000));
    let jpy30 = find(d30, "JPY", Captured);
    assert_eq!((jpy30[0].payments, jpy30[0].captured), (1, 500));
    let declined = find(d30, "EUR", Declined);
    assert_eq!(declined[0].decline_code, Some(DeclineCode::ExpiredCard));
    assert_eq!((declined[0].payments, declined[0].captured), (1, 0));
    let eur31 = find(d31, "EUR", Captured);
    assert_eq!((eur31[0].payments, eur31[0].captured), (1, 5));
    assert_eq!(find(d31, "EUR", Pending)[0].payments, 1);
    assert!(outcomes.iter().all(|o| o.three_ds));
    // In UTC the same payments fall on other days: the 23:00Z ones move a day back.
    let utc = RangeForm {
        range: "custom".into(),
        from: "2025-03-30".into(),
        to: "2025-03-30".into(),
        tz: "UTC".into(),
    }
    .resolve(jiff::Timestamp::now(), "UTC")
    .expect("range");
    let in_utc = db
        .store
        .day_outcomes(&utc.local_span().expect("span"))
        .await
        .expect("read");
    let eur: u64 = in_utc
        .iter()
        .filter(|o| o.currency == "EUR" && o.state == Captured)
        .map(|o| o.captured)
        .sum();
    assert_eq!(eur, 2000 + 5, "{in_utc:?}");
}
