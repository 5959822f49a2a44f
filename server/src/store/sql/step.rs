//! The compare-and-set state step of a payment: the statement, its binds, and the check of a
//! requested step against the state machine. The payment store steps with it alone
//! ([`cas_step`]), and the logged step embeds it beside the gateway call's log row
//! (logged_step.rs).

use checkout::contract::PaymentState;
use sqlx::query::QueryAs;
use sqlx::{Encode, Executor, FromRow, IntoArguments, Type};
use time::OffsetDateTime;

use super::Dialect;
use super::codec::{decline_name, int_opt, ms, ms_opt};
use super::rows::{PAYMENT_COLUMNS, PaymentRow};
use crate::store::error::{StoreError, StoreResult};
use crate::store::model::{Payment, PaymentChanges};
use crate::store::transitions::{can_advance, state_name};

/// Parameters of [`ADVANCE_SQL`] holding the expected states (`$12..$21`). More than any
/// state has predecessors: the state machine's test checks it.
pub const EXPECTED_SLOTS: usize = 10;

/// The compare-and-set. `$12..$21` are the expected states (padded by repetition); `$22` is
/// added to the attempt counter (1 when the step logs the gateway call that led to it); `$23`
/// is the review reason of a step to `needs_review`; the guards are documented on
/// `PaymentChanges`. A first step to `authorized`/`captured` stamps `paid_at` (which makes it
/// the session's keeper if it has none: migration 0026's triggers), marks it surplus of the
/// keeper when the session already has one (SQLite reads it here, with the write lock held;
/// on PostgreSQL the trigger that takes the session row corrects a keeper written
/// concurrently), and, when the session has another payment, makes the surplus rule due in
/// the same statement (`payments::surplus`), so a crash right after it leaves the work to the
/// reconciler.
const ADVANCE_SQL: &str = "UPDATE payments SET \
    state = $1, \
    gateway_transaction_id = COALESCE(gateway_transaction_id, $2), \
    gateway_ref = COALESCE($3, gateway_ref), \
    response_code = COALESCE($4, response_code), \
    decline_code = COALESCE($5, decline_code), \
    captured_amount = CASE WHEN $1 = 'captured' THEN COALESCE($6, amount) \
        ELSE captured_amount END, \
    refunded_amount = refunded_amount + COALESCE($7, 0), \
    subscription_id = COALESCE(subscription_id, $8), \
    pending_since = CASE WHEN $1 = 'pending' THEN COALESCE(pending_since, $9) \
        ELSE pending_since END, \
    next_check_at = CASE WHEN $1 IN ('created', 'pending') THEN COALESCE($10, next_check_at) \
        ELSE $10 END, \
    attempts = attempts + $22, \
    paid_at = CASE WHEN $1 IN ('authorized', 'captured') THEN COALESCE(paid_at, $9) \
        ELSE paid_at END, \
    surplus_due_at = CASE WHEN $1 IN ('authorized', 'captured') AND paid_at IS NULL \
        AND kind <> 'subscription' AND EXISTS (SELECT 1 FROM payments AS other \
            WHERE other.session_id = payments.session_id AND other.id <> payments.id) \
        THEN $9 ELSE surplus_due_at END, \
    surplus_of = CASE WHEN $1 IN ('authorized', 'captured') AND paid_at IS NULL \
        AND kind <> 'subscription' THEN (SELECT s.paid_by FROM checkout_sessions AS s \
            WHERE s.id = payments.session_id) ELSE surplus_of END, \
    review_reason = CASE WHEN $1 = 'needs_review' THEN COALESCE($23, review_reason) \
        ELSE review_reason END, \
    updated_at = $9 \
    WHERE id = $11 \
    AND state IN ($12, $13, $14, $15, $16, $17, $18, $19, $20, $21) \
    AND ($2 IS NULL OR gateway_transaction_id IS NULL OR gateway_transaction_id = $2) \
    AND ($6 IS NULL OR $6 <= amount) \
    AND ($7 IS NULL OR refunded_amount + $7 <= captured_amount) \
    AND ($1 <> 'refunded' OR refunded_amount + COALESCE($7, 0) = captured_amount) \
    AND ($1 <> 'partially_refunded' OR refunded_amount + COALESCE($7, 0) < captured_amount) \
    RETURNING ";

/// The compare-and-set step on `conn`, adding `attempts` to the attempt counter when it moves;
/// `None` when the payment was not in an `expected` state or a guard failed.
pub(crate) async fn cas_step<DB>(
    conn: &mut DB::Connection,
    id: &str,
    expected: &[PaymentState],
    to: PaymentState,
    changes: PaymentChanges,
    attempts: i64,
) -> StoreResult<Option<Payment>>
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
    let sql = step_sql(PAYMENT_COLUMNS);
    let query = sqlx::query_as::<DB, PaymentRow>(&sql);
    bind_step(query, id, expected, to, changes, attempts)?
        .fetch_optional(conn)
        .await
        .map_err(|e| StoreError::on_unique(e, "gateway transaction id"))?
        .map(Payment::try_from)
        .transpose()
}

/// [`ADVANCE_SQL`] followed by `returning` (the `RETURNING` list), for statements that embed
/// the compare-and-set; bind it with [`bind_step`].
pub(crate) fn step_sql(returning: &str) -> String {
    format!("{ADVANCE_SQL}{returning}")
}

/// Binds `$1..$23` of [`ADVANCE_SQL`] for the step of payment `id` from one of `expected` to
/// `to`, adding `attempts` to the counter when it moves.
pub(crate) fn bind_step<'q, DB, R>(
    query: QueryAs<'q, DB, R, <DB as sqlx::Database>::Arguments<'q>>,
    id: &str,
    expected: &[PaymentState],
    to: PaymentState,
    changes: PaymentChanges,
    attempts: i64,
) -> StoreResult<QueryAs<'q, DB, R, <DB as sqlx::Database>::Arguments<'q>>>
where
    DB: Dialect,
    for<'a> i64: Encode<'a, DB> + Type<DB>,
    for<'a> String: Encode<'a, DB> + Type<DB>,
    for<'a> Option<i64>: Encode<'a, DB>,
    for<'a> Option<String>: Encode<'a, DB>,
{
    let first = *expected.first().ok_or(StoreError::Invalid {
        field: "from",
        reason: "names no state",
    })?;
    let mut query = query
        .bind(state_name(to).to_owned())
        .bind(changes.gateway_transaction_id)
        .bind(changes.gateway_ref)
        .bind(changes.response_code)
        .bind(changes.decline_code.map(|c| decline_name(c).to_owned()))
        .bind(int_opt(changes.captured_amount, "captured_amount")?)
        .bind(int_opt(changes.refund, "refund")?)
        .bind(changes.subscription_id)
        .bind(ms(OffsetDateTime::now_utc()))
        .bind(ms_opt(changes.next_check_at))
        .bind(id.to_owned());
    if expected.len() > EXPECTED_SLOTS {
        return Err(StoreError::Invalid {
            field: "from",
            reason: "names more states than a step can expect",
        });
    }
    for slot in 0..EXPECTED_SLOTS {
        let state = expected.get(slot).unwrap_or(&first);
        query = query.bind(state_name(*state).to_owned());
    }
    Ok(query
        .bind(attempts)
        .bind(changes.review_reason.map(|r| r.as_str().to_owned())))
}

/// Checks a requested step against the state machine and the changes it carries, and returns
/// the distinct expected states.
pub(crate) fn expected_states(
    from: &[PaymentState],
    to: PaymentState,
    changes: &PaymentChanges,
) -> StoreResult<Vec<PaymentState>> {
    let mut expected: Vec<PaymentState> = Vec::with_capacity(from.len());
    for state in from {
        if !can_advance(*state, to) {
            return Err(StoreError::IllegalTransition { from: *state, to });
        }
        if !expected.contains(state) {
            expected.push(*state);
        }
    }
    if expected.is_empty() {
        return Err(StoreError::Invalid {
            field: "from",
            reason: "names no state",
        });
    }
    let refund_step = matches!(to, PaymentState::PartiallyRefunded | PaymentState::Refunded);
    if refund_step != matches!(changes.refund, Some(n) if n > 0) {
        return Err(StoreError::Invalid {
            field: "refund",
            reason: "a positive refund goes with, and only with, a step to a refunded state",
        });
    }
    if changes.captured_amount.is_some() && to != PaymentState::Captured {
        return Err(StoreError::Invalid {
            field: "captured_amount",
            reason: "only a step to captured sets it",
        });
    }
    Ok(expected)
}
