//! The deliveries' leases and log: claiming an endpoint's due deliveries under a lease (the
//! endpoint's secrets opened with them), giving a lease back, the attempts and deliveries the
//! API lists, and a redelivery. The outbox and its fan-out are `events.rs`.

use sqlx::{Encode, Executor, FromRow, IntoArguments, Pool, Type};
use time::{Duration, OffsetDateTime};

use super::Dialect;
use super::codec::{ms, time, unsigned};
use super::leases::lease_end;
use super::rows::{EVENT_COLUMNS, EventRow, SeqRow};
use crate::store::error::{StoreError, StoreResult};
use crate::store::model::page::effective_limit;
use crate::store::model::{Delivery, DeliveryAttempt, DeliveryState, DueDelivery};
use crate::store::sealed::{Binding, KeyRing};

/// A claimed delivery: the event, and the endpoint's address and secrets.
#[derive(FromRow)]
pub(crate) struct ClaimedRow {
    attempts: i64,
    delivery_created_at: i64,
    url: String,
    secret: String,
    previous_secret: Option<String>,
    previous_until: Option<i64>,
    failing_since: Option<i64>,
    endpoint_id: String,
    #[sqlx(flatten)]
    event: EventRow,
}

#[derive(FromRow)]
pub(crate) struct DeliveryRow {
    endpoint_id: String,
    event_id: String,
    event_kind: String,
    state: String,
    attempts: i64,
    next_attempt_at: i64,
    created_at: i64,
    updated_at: i64,
}

#[derive(FromRow)]
pub(crate) struct AttemptRow {
    id: i64,
    endpoint_id: String,
    event_id: String,
    attempted_at: i64,
    duration_us: i64,
    status_code: Option<i64>,
    error: Option<String>,
}

impl TryFrom<AttemptRow> for DeliveryAttempt {
    type Error = StoreError;

    fn try_from(row: AttemptRow) -> StoreResult<Self> {
        Ok(DeliveryAttempt {
            attempted_at: time(row.attempted_at, "attempted_at")?,
            status_code: row
                .status_code
                .map(|code| unsigned(code, "status_code"))
                .transpose()?,
            id: row.id,
            endpoint_id: row.endpoint_id,
            event_id: row.event_id,
            duration_us: row.duration_us,
            error: row.error,
        })
    }
}

fn delivery_state(name: &str) -> StoreResult<DeliveryState> {
    [
        DeliveryState::Pending,
        DeliveryState::Delivered,
        DeliveryState::Failed,
    ]
    .into_iter()
    .find(|state| state.as_str() == name)
    .ok_or(StoreError::Corrupt("delivery state"))
}

/// Pending deliveries to the endpoint `$5` that may go now: due, free of leases, to an enabled
/// endpoint, and the first pending one of their object for that endpoint (`$1` is now). Walks
/// `deliveries_due` (migration 0004) from the oldest and stops at the claim's limit; the
/// first-of-its-object test is a `MIN` over `deliveries_by_object`, one index probe a row
/// whatever the statistics (a `NOT EXISTS` was planned as a scan of the backlog per row).
const SENDABLE: &str = "d.endpoint_id = $5 AND d.state = 'pending' AND d.next_attempt_at <= $1 \
     AND (d.lease_until IS NULL OR d.lease_until <= $1) \
     AND EXISTS (SELECT 1 FROM webhook_endpoints WHERE id = $5 AND status = 'enabled') \
     AND d.event_seq = (SELECT MIN(p.event_seq) FROM event_deliveries AS p \
         WHERE p.endpoint_id = d.endpoint_id AND p.object_id = d.object_id \
         AND p.state = 'pending')";

/// Leases up to `limit` of `endpoint_id`'s sendable deliveries to `owner` until `now + lease`.
pub(super) async fn claim<DB>(
    pool: &Pool<DB>,
    keys: &KeyRing,
    owner: &str,
    endpoint_id: &str,
    now: OffsetDateTime,
    lease: Duration,
    limit: u32,
) -> StoreResult<Vec<DueDelivery>>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'r> SeqRow: FromRow<'r, DB::Row>,
    for<'r> ClaimedRow: FromRow<'r, DB::Row>,
{
    // The pick's conditions are not repeated outside it: Postgres locks what it picks
    // (re-checking a row another instance changed meanwhile), SQLite has one writer.
    let picked = DB::id_among(&format!(
        "SELECT d.id FROM event_deliveries AS d WHERE {SENDABLE} \
         ORDER BY d.next_attempt_at, d.id LIMIT $4 {skip}",
        skip = DB::SKIP_LOCKED,
    ));
    let sql = format!(
        "UPDATE event_deliveries SET lease_owner = $2, lease_until = $3 WHERE {picked} \
         RETURNING id AS seq"
    );
    let query = sqlx::query_as::<DB, SeqRow>(&sql)
        .bind(ms(now))
        .bind(owner.to_owned())
        .bind(lease_end(now, lease)?)
        .bind(i64::from(limit))
        .bind(endpoint_id.to_owned());
    let claimed = query.fetch_all(pool).await?;
    if claimed.is_empty() {
        return Ok(Vec::new());
    }
    let ids = (2..claimed.len() + 2)
        .map(|n| format!("${n}"))
        .collect::<Vec<_>>()
        .join(", ");
    let event_columns = EVENT_COLUMNS
        .split(", ")
        .map(|c| format!("e.{c}"))
        .collect::<Vec<_>>()
        .join(", ");
    let sql = format!(
        "SELECT d.attempts, d.created_at AS delivery_created_at, w.url, w.secret, w.previous_secret, w.previous_until, \
         w.failing_since, d.endpoint_id, {event_columns} \
         FROM event_deliveries AS d JOIN webhook_endpoints AS w ON w.id = d.endpoint_id \
         JOIN events AS e ON e.seq = d.event_seq \
         WHERE d.lease_owner = $1 AND d.id IN ({ids}) ORDER BY e.seq"
    );
    let mut query = sqlx::query_as::<DB, ClaimedRow>(&sql).bind(owner.to_owned());
    for row in &claimed {
        query = query.bind(row.seq);
    }
    let rows = query.fetch_all(pool).await?;
    rows.into_iter()
        .map(|row| {
            let binding = Binding::endpoint_secret(&row.endpoint_id);
            let open = |stored: &str, column| {
                keys.open(stored, &binding)
                    .map_err(|source| StoreError::Sealed { column, source })
            };
            let mut secrets = vec![open(&row.secret, "webhook_endpoints.secret")?];
            let overlapping = row.previous_until.is_some_and(|until| until > ms(now));
            if let (Some(previous), true) = (&row.previous_secret, overlapping) {
                secrets.push(open(previous, "webhook_endpoints.previous_secret")?);
            }
            Ok(DueDelivery {
                attempts: unsigned(row.attempts, "attempts")?,
                created_at: time(row.delivery_created_at, "created_at")?,
                failing_since: row
                    .failing_since
                    .map(|at| time(at, "failing_since"))
                    .transpose()?,
                event: row.event.try_into()?,
                endpoint_id: row.endpoint_id,
                url: row.url,
                secrets,
            })
        })
        .collect()
}

/// Gives `owner`'s lease on a still pending delivery back; whether it held one.
pub(super) async fn release<DB>(
    pool: &Pool<DB>,
    owner: &str,
    endpoint_id: &str,
    event_seq: i64,
) -> StoreResult<bool>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
{
    let released = sqlx::query::<DB>(
        "UPDATE event_deliveries SET lease_owner = NULL, lease_until = NULL \
         WHERE endpoint_id = $1 AND event_seq = $2 AND lease_owner = $3 \
         AND state = 'pending'",
    )
    .bind(endpoint_id.to_owned())
    .bind(event_seq)
    .bind(owner.to_owned())
    .execute(pool)
    .await?;
    Ok(DB::rows_affected(&released) == 1)
}

/// An endpoint's attempts, newest first, before the attempt id `before`.
pub(super) async fn attempts<DB>(
    pool: &Pool<DB>,
    endpoint_id: &str,
    limit: u32,
    before: Option<i64>,
) -> StoreResult<Vec<DeliveryAttempt>>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'q> Option<i64>: Encode<'q, DB>,
    for<'r> AttemptRow: FromRow<'r, DB::Row>,
{
    let rows = sqlx::query_as::<DB, AttemptRow>(
        "SELECT a.id, a.endpoint_id, e.id AS event_id, a.attempted_at, a.duration_us, \
         a.status_code, a.error FROM delivery_attempts AS a \
         JOIN events AS e ON e.seq = a.event_seq \
         WHERE a.endpoint_id = $1 AND ($2 IS NULL OR a.id < $2) ORDER BY a.id DESC LIMIT $3",
    )
    .bind(endpoint_id.to_owned())
    .bind(before)
    .bind(i64::from(effective_limit(limit)))
    .fetch_all(pool)
    .await?;
    rows.into_iter().map(DeliveryAttempt::try_from).collect()
}

/// An event's deliveries, one per endpoint.
pub(super) async fn of_event<DB>(pool: &Pool<DB>, event_id: &str) -> StoreResult<Vec<Delivery>>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'r> DeliveryRow: FromRow<'r, DB::Row>,
{
    let rows = sqlx::query_as::<DB, DeliveryRow>(
        "SELECT d.endpoint_id, e.id AS event_id, e.type AS event_kind, d.state, d.attempts, \
         d.next_attempt_at, d.created_at, d.updated_at FROM event_deliveries AS d \
         JOIN events AS e ON e.seq = d.event_seq WHERE e.id = $1 ORDER BY d.endpoint_id",
    )
    .bind(event_id.to_owned())
    .fetch_all(pool)
    .await?;
    rows.into_iter()
        .map(|row| {
            Ok(Delivery {
                state: delivery_state(&row.state)?,
                attempts: unsigned(row.attempts, "attempts")?,
                next_attempt_at: time(row.next_attempt_at, "next_attempt_at")?,
                created_at: time(row.created_at, "created_at")?,
                updated_at: time(row.updated_at, "updated_at")?,
                endpoint_id: row.endpoint_id,
                event_id: row.event_id,
                event_kind: row.event_kind,
            })
        })
        .collect()
}

/// Makes an event's deliveries (to `endpoint_id`, or to all) pending now; how many are.
pub(super) async fn redeliver<DB>(
    pool: &Pool<DB>,
    event_id: &str,
    endpoint_id: Option<&str>,
    now: OffsetDateTime,
) -> StoreResult<u64>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'q> Option<String>: Encode<'q, DB>,
    for<'r> SeqRow: FromRow<'r, DB::Row>,
{
    let now = ms(now);
    let mut tx = pool.begin().await?;
    // A named endpoint gets the event even if it was created after it.
    if let Some(endpoint_id) = endpoint_id {
        sqlx::query::<DB>(
            "INSERT INTO event_deliveries (endpoint_id, event_seq, object_id, state, \
             attempts, next_attempt_at, created_at, updated_at) \
             SELECT w.id, e.seq, e.object_id, 'pending', 0, $3, $3, $3 \
             FROM events AS e CROSS JOIN webhook_endpoints AS w WHERE e.id = $1 AND w.id = $2 \
             ON CONFLICT (endpoint_id, event_seq) DO NOTHING",
        )
        .bind(event_id.to_owned())
        .bind(endpoint_id.to_owned())
        .bind(now)
        .execute(&mut *tx)
        .await?;
    }
    sqlx::query::<DB>(
        "UPDATE event_deliveries SET state = 'pending', next_attempt_at = $3, updated_at = $3 \
         WHERE event_seq = (SELECT seq FROM events WHERE id = $1) \
         AND ($2 IS NULL OR endpoint_id = $2) \
         AND (state <> 'pending' OR next_attempt_at > $3)",
    )
    .bind(event_id.to_owned())
    .bind(endpoint_id.map(str::to_owned))
    .bind(now)
    .execute(&mut *tx)
    .await?;
    let pending = sqlx::query_as::<DB, SeqRow>(
        "SELECT COUNT(*) AS seq FROM event_deliveries \
         WHERE event_seq = (SELECT seq FROM events WHERE id = $1) \
         AND ($2 IS NULL OR endpoint_id = $2) AND state = 'pending'",
    )
    .bind(event_id.to_owned())
    .bind(endpoint_id.map(str::to_owned))
    .fetch_one(&mut *tx)
    .await?;
    tx.commit().await?;
    unsigned(pending.seq, "count")
}
