//! A payment's state step and the log of the gateway call that led to it, together.
//!
//! One round trip ([`super::one_trip`]) does all of it, atomically: the compare-and-set (which
//! also counts the call), or, when the payment does not move, only the count; and the log row.
//! So the call is logged exactly when its outcome is recorded (both or neither), and the pay
//! call records its result with one database exchange after the gateway answers.

use checkout::contract::PaymentState;
use sqlx::{Encode, Executor, FromRow, IntoArguments, Type};

use super::activity::{NEW_ATTEMPT_COLUMNS, bind_attempt, latency_us};
use super::one_trip::{OneTrip, fetch_atomic, transaction_script};
use super::rows::{PAYMENT_COLUMNS, PaymentRow};
use super::step::{bind_step, expected_states, step_sql};
use super::{Dialect, SqlStore};
use crate::store::error::{StoreError, StoreResult};
use crate::store::model::{Advance, NewAttempt, Payment, PaymentChanges};

/// The attempt's insert; its values are `$24..$31`, after the step's `$1..$23`.
fn attempt_insert() -> String {
    format!(
        "INSERT INTO gateway_attempts ({NEW_ATTEMPT_COLUMNS}) \
         SELECT $24, $25, $26, $27, $28, $29, $30, $31"
    )
}

/// The payment after the step, and whether the step moved it (1) or only counted the call (0).
#[derive(FromRow)]
pub(crate) struct SteppedRow {
    moved: i64,
    #[sqlx(flatten)]
    payment: PaymentRow,
}

/// [`PaymentStore::advance_payment_logged`](crate::store::traits::PaymentStore::advance_payment_logged).
pub(crate) async fn advance_logged<DB>(
    store: &SqlStore<DB>,
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
    for<'r> SteppedRow: FromRow<'r, DB::Row>,
{
    if attempt.payment_id.as_deref() != Some(id) {
        return Err(StoreError::Invalid {
            field: "payment_id",
            reason: "the logged attempt must be this payment's",
        });
    }
    let latency_us = latency_us(&attempt)?;
    let expected = expected_states(from, to, &changes)?;
    let sql = logged_step_sql::<DB>();
    let query = bind_step(
        sqlx::query_as::<DB, SteppedRow>(&sql),
        id,
        &expected,
        to,
        changes,
        1,
    )?;
    let query = bind_attempt(query, attempt, latency_us);
    let row = fetch_atomic(store, query)
        .await
        .map_err(|e| StoreError::on_unique(e, "gateway transaction id"))?
        .into_iter()
        .next()
        // Neither update found the payment, and nothing was logged.
        .ok_or(StoreError::NotFound("payment"))?;
    let payment = Payment::try_from(row.payment)?;
    Ok(if row.moved == 1 {
        Advance::Moved(payment)
    } else {
        Advance::Unchanged(payment)
    })
}

/// The step (`$1..$23`, see `step::ADVANCE_SQL`), the count when it does not move
/// (`$11` is the payment id), and the log row (`$24..$31`) when the payment exists.
fn logged_step_sql<DB: Dialect>() -> String {
    match DB::ONE_TRIP {
        // Every part sees the same snapshot; `counted` and `logged` learn what `stepped` did
        // from its RETURNING, so the row is updated once.
        OneTrip::Cte => format!(
            "WITH stepped AS ({step}), \
             counted AS (UPDATE payments SET attempts = attempts + 1 \
                 WHERE id = $11 AND NOT EXISTS (SELECT 1 FROM stepped) \
                 RETURNING {PAYMENT_COLUMNS}), \
             logged AS ({attempt} \
                 FROM (SELECT id FROM stepped UNION ALL SELECT id FROM counted) AS found) \
             SELECT 1::BIGINT AS moved, {PAYMENT_COLUMNS} FROM stepped \
             UNION ALL SELECT 0::BIGINT AS moved, {PAYMENT_COLUMNS} FROM counted",
            step = step_sql(PAYMENT_COLUMNS),
            attempt = attempt_insert(),
        ),
        // `changes()` is what the previous statement changed: 1 when the step moved.
        OneTrip::Transaction => transaction_script(&[
            &step_sql(&format!("1 AS moved, {PAYMENT_COLUMNS}")),
            &format!(
                "UPDATE payments SET attempts = attempts + 1 WHERE id = $11 AND changes() = 0 \
                 RETURNING 0 AS moved, {PAYMENT_COLUMNS}"
            ),
            &format!(
                "{} WHERE EXISTS (SELECT 1 FROM payments WHERE id = $11)",
                attempt_insert()
            ),
        ]),
    }
}
