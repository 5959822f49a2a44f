//! A payment's state step and the log of the gateway call that led to it, in one transaction.
//!
//! The pay path used to log the call (its own transaction: insert + counter update) and then
//! step the payment: five round trips on Postgres after the gateway answered. Here the counter
//! rides on the compare-and-set itself, and the log row is written in the same transaction, so
//! the call is logged exactly when the outcome is recorded (both or neither) in four.

use checkout::contract::PaymentState;
use sqlx::{Encode, Executor, FromRow, IntoArguments, Pool, Type};

use super::Dialect;
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
    sqlx::query(
        "INSERT INTO gateway_attempts (payment_id, subscription_id, endpoint, started_at, \
         finished_at, latency_us, outcome, http_status) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
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

/// The call's duration in microseconds; an end before the start is refused.
fn latency_us(attempt: &NewAttempt) -> StoreResult<i64> {
    if attempt.finished_at < attempt.started_at {
        return Err(StoreError::Invalid {
            field: "finished_at",
            reason: "is before started_at",
        });
    }
    let latency = (attempt.finished_at - attempt.started_at).whole_microseconds();
    Ok(i64::try_from(latency).unwrap_or(i64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::model::AttemptOutcome;
    use time::OffsetDateTime;

    #[test]
    fn a_call_cannot_end_before_it_starts() {
        let at = OffsetDateTime::UNIX_EPOCH + time::Duration::seconds(10);
        let mut attempt = NewAttempt {
            payment_id: Some("p".into()),
            subscription_id: None,
            endpoint: "payment".into(),
            started_at: at,
            finished_at: at + time::Duration::microseconds(1500),
            outcome: AttemptOutcome::Succeeded,
            http_status: None,
        };
        assert_eq!(latency_us(&attempt).ok(), Some(1500));
        attempt.finished_at = at - time::Duration::seconds(1);
        assert!(latency_us(&attempt).is_err());
    }
}
