//! A batch of the payments export ([`PaymentLine`]s): the list's statement and conditions
//! ([`super::payment_list`]) with only the columns the CSV shows (13 of 32), and on SQLite
//! the whole batch returned as one JSON value ([`super::Dialect::json_rows`]) instead of a
//! row each.
//!
//! Why: the sqlx SQLite driver copies every value of every row (an allocation each, freed on
//! another thread) and hands rows one by one from its worker thread to the caller. CPU time
//! for 1,000 rows on a loaded 2-core machine: 24 ms for whole payment rows, 15 ms for the
//! export's columns as rows, 6 ms as one JSON array (SQLite building it and serde reading it
//! included). On Postgres the narrow rows cost 8 ms (client and server), whole rows 12 and
//! `json_agg` 11, so it reads rows. The JSON array is ordered by the database (`ORDER BY`
//! inside the aggregate), with the collation the cursor is compared with.

use serde::Deserialize;
use sqlx::{Encode, Executor, FromRow, IntoArguments, Pool, Type};

use super::Dialect;
use super::codec::{named, parse_decline, time, unsigned};
use super::payment_list::{bind_all, statement};
use crate::store::error::{StoreError, StoreResult};
use crate::store::model::{Bin, Last4, PaymentLine, PaymentQuery};
use crate::store::transitions::parse_state;

/// The columns of a line, in the order of [`LineRow`]'s fields.
const LINE_COLUMNS: &str = "id, created_at, merchant_txn_ref, state, currency, amount, \
     captured_amount, refunded_amount, card_brand, card_bin, card_last4, customer_id, \
     decline_code";

/// The batch's order (the list's).
const ORDER: &str = "created_at DESC, id DESC";

/// One line as the database writes it: [`LINE_COLUMNS`], positionally (a row, or an array
/// in the JSON).
#[derive(Deserialize, FromRow)]
pub(crate) struct LineRow(
    String,
    i64,
    String,
    String,
    String,
    i64,
    i64,
    i64,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
);

/// The lines `query` selects, newest first, one more than `limit` (to learn whether another
/// batch follows).
pub(crate) async fn lines<DB>(
    pool: &Pool<DB>,
    query: PaymentQuery,
    limit: u32,
) -> StoreResult<Vec<PaymentLine>>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'r> (String,): FromRow<'r, DB::Row>,
    for<'r> LineRow: FromRow<'r, DB::Row>,
{
    let (rows, values) = statement(LINE_COLUMNS, query, limit)?;
    let rows: Vec<LineRow> = match DB::json_rows(LINE_COLUMNS, ORDER, &rows) {
        Some(sql) => {
            let (json,) = bind_all(sqlx::query_as::<DB, (String,)>(&sql), values)
                .fetch_one(pool)
                .await?;
            serde_json::from_str(&json).map_err(|_| StoreError::Corrupt("payment lines"))?
        }
        None => {
            bind_all(sqlx::query_as::<DB, LineRow>(&rows), values)
                .fetch_all(pool)
                .await?
        }
    };
    rows.into_iter().map(PaymentLine::try_from).collect()
}

impl TryFrom<LineRow> for PaymentLine {
    type Error = StoreError;

    fn try_from(row: LineRow) -> StoreResult<Self> {
        let LineRow(
            id,
            created_at,
            merchant_txn_ref,
            state,
            currency,
            amount,
            captured_amount,
            refunded_amount,
            card_brand,
            card_bin,
            card_last4,
            customer_id,
            decline_code,
        ) = row;
        let corrupt = |_| StoreError::Corrupt("card");
        Ok(PaymentLine {
            id,
            created_at: time(created_at, "created_at")?,
            merchant_txn_ref,
            state: named(&state, "state", parse_state)?,
            currency,
            amount: unsigned(amount, "amount")?,
            captured_amount: unsigned(captured_amount, "captured_amount")?,
            refunded_amount: unsigned(refunded_amount, "refunded_amount")?,
            card_brand: card_brand
                .map(|brand| named(&brand, "card_brand", checkout::card::Brand::from_id))
                .transpose()?,
            card_bin: card_bin
                .as_deref()
                .map(Bin::new)
                .transpose()
                .map_err(corrupt)?,
            card_last4: card_last4
                .as_deref()
                .map(Last4::new)
                .transpose()
                .map_err(corrupt)?,
            customer_id,
            decline_code: decline_code
                .map(|name| named(&name, "decline_code", parse_decline))
                .transpose()?,
        })
    }
}
