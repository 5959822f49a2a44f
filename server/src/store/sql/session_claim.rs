//! Taking a session's pay claim on its own (the waits and take-overs of
//! `payments::claim`), in one statement that refuses a paid session: the same rule as the
//! pay call's claim-and-insert (`new_payment`), so no way of claiming lets a paid session be
//! charged again.

use sqlx::{Encode, Executor, FromRow, IntoArguments, Type};
use time::OffsetDateTime;

use super::codec::{ms, time};
use super::rows::IdRow;
use super::{Dialect, SqlStore};
use crate::store::error::StoreResult;
use crate::store::model::IdempotencyKey;
use crate::store::retry::SessionClaim;
use crate::store::secret::BodyDigest;

/// What a claim that was not taken found: the session's keeper and the claim's start.
#[derive(FromRow)]
pub(crate) struct ClaimLookRow {
    paid_by: Option<String>,
    since: Option<i64>,
}

/// Looks this many times when the claim is released between the insert and the look.
const TRIES: u32 = 3;

/// [`RetryStore::begin_session_claim`](crate::store::retry::RetryStore::begin_session_claim).
pub(crate) async fn begin<DB>(
    store: &SqlStore<DB>,
    claim: &IdempotencyKey,
    session_id: &str,
    digest: &BodyDigest,
    now: OffsetDateTime,
) -> StoreResult<SessionClaim>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'r> IdRow: FromRow<'r, DB::Row>,
    for<'r> ClaimLookRow: FromRow<'r, DB::Row>,
{
    // The session row is read FOR SHARE on PostgreSQL: a keeper being written waits us out,
    // or we wait for it and then see it.
    let insert = format!(
        "INSERT INTO idempotency_records (scope, key, request_digest, status, created_at) \
         SELECT $1, $2, $3, 'in_progress', $4 FROM checkout_sessions \
         WHERE id = $5 AND paid_by IS NULL {} \
         ON CONFLICT (scope, key) DO NOTHING RETURNING key AS id",
        DB::FOR_SHARE
    );
    for _ in 0..TRIES {
        let taken = sqlx::query_as::<DB, IdRow>(&insert)
            .bind(claim.scope().to_owned())
            .bind(claim.key().to_owned())
            .bind(digest.as_hex().to_owned())
            .bind(ms(now))
            .bind(session_id.to_owned())
            .fetch_optional(&store.pool)
            .await?;
        if taken.is_some() {
            return Ok(SessionClaim::Taken);
        }
        let look = sqlx::query_as::<DB, ClaimLookRow>(
            "SELECT s.paid_by AS paid_by, r.created_at AS since FROM checkout_sessions AS s \
             LEFT JOIN idempotency_records AS r ON r.scope = $1 AND r.key = $2 \
             WHERE s.id = $3",
        )
        .bind(claim.scope().to_owned())
        .bind(claim.key().to_owned())
        .bind(session_id.to_owned())
        .fetch_optional(&store.pool)
        .await?;
        match look {
            Some(ClaimLookRow {
                paid_by: Some(_), ..
            }) => return Ok(SessionClaim::Paid),
            Some(ClaimLookRow {
                since: Some(since), ..
            }) => {
                return Ok(SessionClaim::Held {
                    since: time(since, "created_at")?,
                });
            }
            // Released meanwhile: try again.
            Some(_) => {}
            None => return Err(crate::store::error::StoreError::NotFound("session")),
        }
    }
    Err(crate::store::error::StoreError::Conflict(
        "the session's pay claim kept changing",
    ))
}
