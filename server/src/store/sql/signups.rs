//! [`SignupStore`]: subscription sign-ups, the same SQL on both backends. The refusal of a
//! second sign-up is the insert itself: the partial unique index of migration 0032 (one open
//! sign-up per customer and plan) and a `NOT EXISTS` on the customer's live subscriptions.

use async_trait::async_trait;
use serde::Deserialize;
use sqlx::{Encode, Executor, FromRow, IntoArguments, Pool, Type};
use time::{Duration, OffsetDateTime};

use super::codec::{ms, ms_opt, named, time, time_opt};
use super::leases::{claim_sql, take_due};
use super::rows::IdRow;
use super::{Dialect, SqlStore};
use crate::store::error::{StoreError, StoreResult};
use crate::store::signups::{
    NewSignup, Signup, SignupBlock, SignupEnd, SignupOpened, SignupState, SignupStore,
};

/// Columns of [`SignupRow`].
const SIGNUP_COLUMNS: &str = "id, session_id, customer_id, plan_id, state, called_at, \
     subscription_id, note, next_check_at, created_at, updated_at";

/// A live subscription of customer `$1` to plan `$2`.
const LIVE_SUBSCRIPTION: &str = "EXISTS (SELECT 1 FROM subscriptions WHERE customer_id = $1 \
     AND plan_id = $2 AND status IN ('active', 'paused'))";

#[derive(FromRow, Deserialize)]
pub(crate) struct SignupRow {
    id: String,
    session_id: String,
    customer_id: Option<String>,
    plan_id: String,
    state: String,
    called_at: i64,
    subscription_id: Option<String>,
    note: Option<String>,
    next_check_at: Option<i64>,
    created_at: i64,
    updated_at: i64,
}

impl TryFrom<SignupRow> for Signup {
    type Error = StoreError;

    fn try_from(row: SignupRow) -> StoreResult<Self> {
        Ok(Signup {
            state: named(&row.state, "state", SignupState::parse)?,
            called_at: time(row.called_at, "called_at")?,
            next_check_at: time_opt(row.next_check_at, "next_check_at")?,
            created_at: time(row.created_at, "created_at")?,
            updated_at: time(row.updated_at, "updated_at")?,
            id: row.id,
            session_id: row.session_id,
            customer_id: row.customer_id,
            plan_id: row.plan_id,
            subscription_id: row.subscription_id,
            note: row.note,
        })
    }
}

/// The statement that says what blocks customer `$1` from signing up to plan `$2`.
fn block_sql(several_per_plan: bool) -> String {
    let live = if several_per_plan {
        "FALSE".to_owned()
    } else {
        LIVE_SUBSCRIPTION.to_owned()
    };
    format!(
        "SELECT CASE WHEN EXISTS (SELECT 1 FROM subscription_signups WHERE customer_id = $1 \
         AND plan_id = $2 AND state = 'open') THEN 'pending' \
         WHEN {live} THEN 'live' ELSE 'none' END AS id"
    )
}

/// The insert of an open sign-up, refused (no row) by an open one of the same customer and
/// plan (the unique index) or, unless several are allowed, a live subscription.
fn open_sql(several_per_plan: bool) -> String {
    let allowed = if several_per_plan {
        "TRUE".to_owned()
    } else {
        format!("$1 IS NULL OR NOT {LIVE_SUBSCRIPTION}")
    };
    format!(
        "INSERT INTO subscription_signups (customer_id, plan_id, id, session_id, state, \
         called_at, next_check_at, created_at, updated_at) \
         SELECT $1, $2, $3, $4, 'open', $5, $6, $7, $7 WHERE {allowed} \
         ON CONFLICT DO NOTHING RETURNING {SIGNUP_COLUMNS}"
    )
}

#[async_trait]
impl<DB> SignupStore for SqlStore<DB>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'q> Option<i64>: Encode<'q, DB>,
    for<'q> Option<String>: Encode<'q, DB>,
    for<'r> SignupRow: FromRow<'r, DB::Row>,
    for<'r> IdRow: FromRow<'r, DB::Row>,
{
    async fn signup_block(
        &self,
        customer_id: &str,
        plan_id: &str,
        several_per_plan: bool,
    ) -> StoreResult<Option<SignupBlock>> {
        let found = sqlx::query_as::<DB, IdRow>(&block_sql(several_per_plan))
            .bind(customer_id.to_owned())
            .bind(plan_id.to_owned())
            .fetch_one(&self.pool)
            .await?;
        Ok(match found.id.as_str() {
            "pending" => Some(SignupBlock::Pending),
            "live" => Some(SignupBlock::Live),
            _ => None,
        })
    }

    async fn open_signup(&self, new: NewSignup) -> StoreResult<SignupOpened> {
        let now = ms(OffsetDateTime::now_utc());
        let opened = sqlx::query_as::<DB, SignupRow>(&open_sql(new.several_per_plan))
            .bind(new.customer_id.clone())
            .bind(new.plan_id.clone())
            .bind(new.payment_id)
            .bind(new.session_id)
            .bind(ms(new.called_at))
            .bind(ms(new.check_at))
            .bind(now)
            .fetch_optional(&self.pool)
            .await?;
        if let Some(row) = opened {
            return Ok(SignupOpened::Opened(Box::new(row.try_into()?)));
        }
        let Some(customer_id) = new.customer_id else {
            return Err(StoreError::Conflict("sign-up"));
        };
        // Refused: say why. Should the obstacle be gone already (the other sign-up ended in
        // between), it was still there when this one was refused: pending is what it was.
        let block = self
            .signup_block(&customer_id, &new.plan_id, new.several_per_plan)
            .await?;
        Ok(SignupOpened::Refused(block.unwrap_or(SignupBlock::Pending)))
    }

    async fn signup_outcome_unknown(&self, id: &str, due: OffsetDateTime) -> StoreResult<bool> {
        let marked = sqlx::query_as::<DB, IdRow>(
            "UPDATE subscription_signups SET next_check_at = $2, updated_at = $3 \
             WHERE id = $1 AND state = 'open' RETURNING id",
        )
        .bind(id.to_owned())
        .bind(ms(due))
        .bind(ms(OffsetDateTime::now_utc()))
        .fetch_optional(&self.pool)
        .await?;
        Ok(marked.is_some())
    }

    async fn end_signup(&self, id: &str, end: SignupEnd) -> StoreResult<bool> {
        let (state, subscription_id, note) = match end {
            SignupEnd::Recorded(subscription_id) => {
                (SignupState::Recorded, Some(subscription_id), None)
            }
            SignupEnd::Failed(note) => (SignupState::Failed, None, Some(note)),
            SignupEnd::Review(note) => (SignupState::Review, None, Some(note)),
        };
        let ended = sqlx::query_as::<DB, IdRow>(
            "UPDATE subscription_signups SET state = $2, subscription_id = $3, note = $4, \
             next_check_at = NULL, lease_owner = NULL, lease_until = NULL, updated_at = $5 \
             WHERE id = $1 AND state = 'open' RETURNING id",
        )
        .bind(id.to_owned())
        .bind(state.as_str().to_owned())
        .bind(subscription_id)
        .bind(note)
        .bind(ms(OffsetDateTime::now_utc()))
        .fetch_optional(&self.pool)
        .await?;
        Ok(ended.is_some())
    }

    async fn get_signup(&self, id: &str) -> StoreResult<Option<Signup>> {
        let sql = format!("SELECT {SIGNUP_COLUMNS} FROM subscription_signups WHERE id = $1");
        super::fetch::optional_by_key::<DB, SignupRow, _>(&self.pool, &sql, id).await
    }

    async fn claim_due_signups(
        &self,
        now: OffsetDateTime,
        owner: &str,
        lease: Duration,
        limit: u32,
    ) -> StoreResult<Vec<Signup>> {
        let sql = claim_sql::<DB>(
            "subscription_signups",
            "next_check_at",
            "state = 'open'",
            SIGNUP_COLUMNS,
        );
        take_due::<DB, SignupRow, Signup>(
            &self.pool,
            &sql,
            (now, lease, limit),
            Some(owner),
            |a, b| (a.next_check_at, &a.id).cmp(&(b.next_check_at, &b.id)),
        )
        .await
    }

    async fn release_signup(
        &self,
        id: &str,
        owner: &str,
        next_check_at: Option<OffsetDateTime>,
    ) -> StoreResult<bool> {
        let released = sqlx::query_as::<DB, IdRow>(
            "UPDATE subscription_signups SET lease_owner = NULL, lease_until = NULL, \
             next_check_at = CASE WHEN state = 'open' THEN COALESCE($3, next_check_at) \
             ELSE next_check_at END \
             WHERE id = $1 AND lease_owner = $2 RETURNING id",
        )
        .bind(id.to_owned())
        .bind(owner.to_owned())
        .bind(ms_opt(next_check_at))
        .fetch_optional(&self.pool)
        .await?;
        Ok(released.is_some())
    }

    async fn open_signups(&self, limit: u32) -> StoreResult<Vec<Signup>> {
        signups_in(&self.pool, "open", limit).await
    }

    async fn signups_in_review(&self, limit: u32) -> StoreResult<Vec<Signup>> {
        signups_in(&self.pool, "review", limit).await
    }
}

/// Sign-ups in `state`, oldest first, at most `limit`.
async fn signups_in<DB>(pool: &Pool<DB>, state: &str, limit: u32) -> StoreResult<Vec<Signup>>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'r> SignupRow: FromRow<'r, DB::Row>,
{
    let sql = format!(
        "SELECT {SIGNUP_COLUMNS} FROM subscription_signups WHERE state = $1 \
         ORDER BY created_at, id LIMIT $2"
    );
    sqlx::query_as::<DB, SignupRow>(&sql)
        .bind(state.to_owned())
        .bind(i64::from(limit))
        .fetch_all(pool)
        .await?
        .into_iter()
        .map(Signup::try_from)
        .collect()
}
