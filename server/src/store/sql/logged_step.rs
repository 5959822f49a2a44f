//! A payment's state step and the log of the gateway call that led to it, in one transaction.
//!
//! The pay path used to log the call (its own transaction: insert + counter update) and then
//! step the payment: five round trips on Postgres after the gateway answered. Here the counter
//! rides on the compare-and-set itself, and the log row is written in the same transaction, so
//! the call is logged exactly when the outcome is recorded (both or neither) in four.

use checkout::contract::PaymentState;
use sqlx::{Encode, Executor, FromRow, IntoArguments, Pool, Type};

use super::Dialect;
use super::activity::{INSERT_ATTEMPT, latency_us};
use super::codec::ms;
use super::payments::{cas_step, expected_states};
use super::rows::{PAYMENT_COLUMNS, PaymentRow};
use crate::store::error::{StoreError, StoreResult};
use crate::store::model::{Advance, NewAttempt, Payment, PaymentChanges};

/// [`PaymentStore::advance_payment_logged`](crate::store::traits::PaymentStore::advance_payment_logged).
pub(crate) async fn advance_logged<DB>(
    pool: &Pool<DB>,
    id: &str,
    from: &[PaymentState],
    to: PaymentState,
    changes: PaymentChanges,
    attempt: NewAttempt,
) -> StoreResult<Advance>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'q> Option<i64>: Encode<'q, DB>,
    for<'q> Option<String>: Encode<'q, DB>,
    for<'r> PaymentRow: FromRow<'r, DB::Row>,
{
    if attempt.payment_id.as_deref() != Some(id) {
        return Err(StoreError::Invalid {
            field: "payment_id",
            reason: "the logged attempt must be this payment's",
        });
    }
    let latency_us = latency_us(&attempt)?;
    let expected = expected_states(from, to, &changes)?;
    let mut tx = pool.begin().await?;
    let advance = match cas_step::<DB>(&mut tx, id, &expected, to, changes, 1).await? {
        Some(payment) => Advance::Moved(payment),
        // Not moved: the call is still counted and logged.
        None => {
            let sql = format!(
                "UPDATE payments SET attempts = attempts + 1 WHERE id = $1 \
                 RETURNING {PAYMENT_COLUMNS}"
            );
            let row = sqlx::query_as::<DB, PaymentRow>(&sql)
                .bind(id.to_owned())
                .fetch_optional(&mut *tx)
                .await?
                .ok_or(StoreError::NotFound("payment"))?;
            Advance::Unchanged(Payment::try_from(row)?)
        }
    };
    sqlx::query(INSERT_ATTEMPT)
        .bind(attempt.payment_id)
        .bind(attempt.subscription_id)
        .bind(attempt.endpoint)
        .bind(ms(attempt.started_at))
        .bind(ms(attempt.finished_at))
        .bind(latency_us)
        .bind(attempt.outcome.as_str().to_owned())
        .bind(attempt.http_status.map(i64::from))
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(advance)
}
