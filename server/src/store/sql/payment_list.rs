//! The payments list's statement, built from the filters actually given: each is a plain
//! condition the planner can match to an index, and the page cursor is a row-value comparison
//! `(created_at, id) < (…)`, so every page (the 500th as the first, and each batch of an
//! export) starts at its place in `payments_newest` or `payments_by_state` instead of scanning
//! from the newest payment. (`$n IS NULL OR …` placeholders for absent filters hide the range
//! from both planners once a statement is prepared.) The export's batches
//! ([`super::payment_lines`]) select other columns with the same conditions.

use std::fmt::Write as _;

use sqlx::query::QueryAs;
use sqlx::{Database, Encode, Executor, FromRow, IntoArguments, Pool, Type};

use super::Dialect;
use super::codec::{int, ms};
use super::rows::{PAYMENT_COLUMNS, PaymentRow};
use crate::store::error::StoreResult;
use crate::store::model::PaymentQuery;
use crate::store::transitions::state_name;

/// The rows `query` selects, newest first, one more than `limit` (to learn whether another
/// page follows).
pub(crate) async fn rows<DB>(
    pool: &Pool<DB>,
    query: PaymentQuery,
    limit: u32,
) -> StoreResult<Vec<PaymentRow>>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'r> PaymentRow: FromRow<'r, DB::Row>,
{
    let (sql, values) = statement(PAYMENT_COLUMNS, query, limit)?;
    let statement = bind_all(sqlx::query_as::<DB, PaymentRow>(&sql), values);
    Ok(statement.fetch_all(pool).await?)
}

/// `SELECT columns FROM payments WHERE <query's filters and cursor> ORDER BY created_at DESC,
/// id DESC LIMIT <limit + 1>`, and the values its `$n` stand for, in order.
pub(crate) fn statement(
    columns: &str,
    query: PaymentQuery,
    limit: u32,
) -> StoreResult<(String, Vec<Value>)> {
    let mut sql = format!("SELECT {columns} FROM payments WHERE 1 = 1");
    let mut values: Vec<Value> = Vec::new();
    let mut bind = |value: Value| {
        values.push(value);
        format!("${}", values.len())
    };
    let text = [
        ("customer_id", query.customer_id),
        ("session_id", query.session_id),
        ("payment_link_id", query.payment_link_id),
        ("state", query.state.map(|s| state_name(s).to_owned())),
        ("currency", query.currency),
        ("card_last4", query.card_last4),
        ("card_brand", query.card_brand.map(|b| b.id().to_owned())),
    ];
    for (column, value) in text {
        if let Some(value) = value {
            let slot = bind(Value::Text(value));
            let _ = write!(sql, " AND {column} = {slot}");
        }
    }
    // The shop's reference finds every attempt of its sessions; an attempt's own reference
    // (`<reference>-<n>`, what the gateway saw) finds that attempt.
    if let Some(reference) = query.reference {
        let attempt = bind(Value::Text(reference.clone()));
        let session = bind(Value::Text(reference));
        let _ = write!(
            sql,
            " AND (merchant_txn_ref = {attempt} OR session_id IN \
             (SELECT id FROM checkout_sessions WHERE reference = {session}))"
        );
    }
    // After a cursor, the one upper bound on `created_at` is the lower of the range's end and
    // the cursor's time: SQLite takes a single upper bound of a column into its index range,
    // and given `created_at < $end` beside the row value it starts every batch of an export at
    // the range's end, scanning down past everything already read (the nth batch reads n
    // times its rows from the index). The bound repeats what the row value says, so it
    // selects the same rows.
    let before = query.created_before.map(ms);
    let upper = match (&query.after, before) {
        (Some(after), Some(end)) => Some(after.created_at_ms.min(end.saturating_sub(1))),
        (Some(after), None) => Some(after.created_at_ms),
        (None, _) => None,
    };
    let numbers = [
        ("created_at >=", query.created_from.map(ms)),
        ("created_at <", before.filter(|_| upper.is_none())),
        ("created_at <=", upper),
        (
            "amount >=",
            query.amount_min.map(|v| int(v, "amount_min")).transpose()?,
        ),
        (
            "amount <=",
            query.amount_max.map(|v| int(v, "amount_max")).transpose()?,
        ),
    ];
    for (condition, value) in numbers {
        if let Some(value) = value {
            let slot = bind(Value::Int(value));
            let _ = write!(sql, " AND {condition} {slot}");
        }
    }
    if let Some(after) = query.after {
        let at = bind(Value::Int(after.created_at_ms));
        let id = bind(Value::Text(after.id));
        let _ = write!(sql, " AND (created_at, id) < ({at}, {id})");
    }
    let slot = bind(Value::Int(i64::from(limit) + 1));
    let _ = write!(sql, " ORDER BY created_at DESC, id DESC LIMIT {slot}");
    Ok((sql, values))
}

/// `statement` with `values` bound, in order.
pub(crate) fn bind_all<'q, DB, O>(
    mut statement: QueryAs<'q, DB, O, <DB as Database>::Arguments<'q>>,
    values: Vec<Value>,
) -> QueryAs<'q, DB, O, <DB as Database>::Arguments<'q>>
where
    DB: Database,
    i64: Encode<'q, DB> + Type<DB>,
    String: Encode<'q, DB> + Type<DB>,
{
    for value in values {
        statement = match value {
            Value::Text(text) => statement.bind(text),
            Value::Int(n) => statement.bind(n),
        };
    }
    statement
}

/// A bound value.
pub(crate) enum Value {
    Text(String),
    Int(i64),
}
