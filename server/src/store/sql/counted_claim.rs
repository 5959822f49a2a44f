//! The pay call's claim-and-insert with the try's card-testing counts read in the same round
//! trip ([`RiskStore::claim_create_and_count`](crate::store::risk::RiskStore::claim_create_and_count)):
//! the check adds the counts' own work to the pay, and no round trip (issue 47: as a statement
//! of its own after the insert it added +0.35 ms p50 on PostgreSQL, of a +0.3 ms budget, most
//! of it the round trip).
//!
//! What must still hold: of two tries sharing an address, a customer or an e-mail at the same
//! moment, the later one to count sees the earlier one, so a burst of parallel tries cannot
//! slip past a threshold (the integration test `api::risk::parallel_tries`).
//!
//! - **SQLite**: the script's `BEGIN IMMEDIATE` makes writers take turns; the counts are the
//!   script's statement after the insert, so the later writer counts later and sees the
//!   earlier one, committed.
//! - **PostgreSQL**: one statement reads on one snapshot, taken before it inserted anything:
//!   counts joined to the insert as they are (a naive fold) see neither a concurrent try nor
//!   even the try's own row; the parallel test then let 6 of 12 new cards through a limit of
//!   3 (4 for the customer's rule). Counted on a fresh snapshot but without the locks, 4 or 5
//!   passed in two runs of three. So the counts come from the function `risk_counts`
//!   (migration 0039), `VOLATILE`, joined laterally to the inserted row (it runs once the row
//!   exists, and sees it). It first takes a transaction-scoped advisory lock on each key of
//!   the try that a concurrent try changes the count of (address, customer, e-mail), in
//!   ascending order, so two tries never wait on each other in a circle; then it counts in a
//!   statement of its own, on a fresh snapshot (READ COMMITTED, the server's level). A lock
//!   is granted once its previous holder's transaction, which recorded that try, has
//!   committed: its try is counted. The locks go when the pay's statement commits. A
//!   session's tries take turns under its claim, and the card's count is of declines, which
//!   no new try adds: neither is locked. A saved card's try counts by none of those keys and
//!   takes no lock. The counts read on their own (the claim taken another way, a
//!   subscription's first payment) take the same locks, after their insert committed, and are
//!   ordered with the others the same way.
//!
//! Weighed and left: a function that also does the inserts (the claim's and the payment's
//! statements written again in a migration, redefined at every new column); a table lock
//! (every pay of the shop in turn, not only tries sharing a key); `SERIALIZABLE` (a try
//! refused for a conflict, retried, where a lock only waits). A pay waits on a lock only
//! behind a try sharing its key, for that try's count and commit.
//!
//! Measured (`benches/risk_check.rs`, release build, 100,000 payments, three runs on 2 shared
//! cores): the recording with the counts against without them, PostgreSQL p50 +0.18–0.19 ms
//! (the counts apart, as before: +0.30–0.33 ms), SQLite +0.28–0.32 ms (apart: +0.34–0.35).

use sqlx::{Encode, Executor, FromRow, IntoArguments, Type};

use super::new_payment::{bind_claim_and_insert, claim_and_insert_sql, with_token};
use super::one_trip::fetch_atomic;
use super::risk_counts::{CountsRow, bind_counts, counts_table};
use super::rows::PaymentRow;
use super::{Dialect, SqlStore};
use crate::store::error::StoreResult;
use crate::store::model::{IdempotencyKey, NewPayment};
use crate::store::risk::{CountedPayment, RiskCountQuery};
use crate::store::secret::BodyDigest;

/// The number of parameters of the claim-and-insert (its highest `$n`, on either database: a
/// test reads it from the statement): the counts' follow from the next one.
const CLAIM_AND_INSERT_PARAMETERS: usize = 27;

/// A payment's row with its counts.
#[derive(FromRow)]
pub(crate) struct CountedRow {
    #[sqlx(flatten)]
    payment: PaymentRow,
    #[sqlx(flatten)]
    counts: CountsRow,
}

/// The counts of [`counts_table`] as the claim-and-insert reads them: its session (`$1`) is
/// `session`, the payment's; the others are numbered after the claim-and-insert's.
fn counts_after_insert<DB: Dialect>(session: &str) -> String {
    renumbered(&counts_table::<DB>(), |n| match n {
        1 => session.to_owned(),
        n => format!("${}", n - 1 + CLAIM_AND_INSERT_PARAMETERS),
    })
}

/// `sql` with each parameter `$n` replaced by `to(n)`.
fn renumbered(sql: &str, mut to: impl FnMut(usize) -> String) -> String {
    let mut out = String::with_capacity(sql.len() + 64);
    let mut rest = sql;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let digits = rest[at + 1..]
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len() - at - 1);
        match rest[at + 1..at + 1 + digits].parse() {
            Ok(n) => out.push_str(&to(n)),
            Err(_) => out.push('$'),
        }
        rest = &rest[at + 1 + digits..];
    }
    out.push_str(rest);
    out
}

/// [`RiskStore::claim_create_and_count`](crate::store::risk::RiskStore::claim_create_and_count).
pub(crate) async fn claim_create_and_count<DB>(
    store: &SqlStore<DB>,
    claim: &IdempotencyKey,
    digest: &BodyDigest,
    new: NewPayment,
    query: &RiskCountQuery,
) -> StoreResult<Option<CountedPayment>>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'q> Option<i64>: Encode<'q, DB>,
    for<'q> Option<String>: Encode<'q, DB>,
    for<'r> CountedRow: FromRow<'r, DB::Row>,
{
    let sql = claim_and_insert_sql::<DB>(Some(&counts_after_insert::<DB>));
    let (statement, token) =
        bind_claim_and_insert(sqlx::query_as::<DB, CountedRow>(&sql), claim, digest, new)?;
    let statement = bind_counts(statement, query, false);
    let Some(row) = fetch_atomic(store, statement).await?.into_iter().next() else {
        return Ok(None);
    };
    Ok(Some(CountedPayment {
        payment: with_token(row.payment.try_into()?, token)?,
        counts: row.counts.try_into(),
    }))
}

#[cfg(test)]
mod tests {
    use sqlx::{Postgres, Sqlite};

    use super::{CLAIM_AND_INSERT_PARAMETERS, claim_and_insert_sql, renumbered};

    #[test]
    fn the_claim_and_insert_has_as_many_parameters_as_counted() {
        for sql in [
            claim_and_insert_sql::<Sqlite>(None),
            claim_and_insert_sql::<Postgres>(None),
        ] {
            let mut highest = 0;
            renumbered(&sql, |n| {
                highest = highest.max(n);
                String::new()
            });
            assert_eq!(highest, CLAIM_AND_INSERT_PARAMETERS, "{sql}");
        }
    }

    #[test]
    fn renumbering_replaces_each_parameter_whole() {
        let to = |n: usize| match n {
            1 => "paid.session_id".to_owned(),
            n => format!("${}", n + 26),
        };
        assert_eq!(
            renumbered("f($1, $2, $14) WHERE a = $1 AND b = '$'", to),
            "f(paid.session_id, $28, $40) WHERE a = paid.session_id AND b = '$'"
        );
    }
}
