//! [`RiskStore`]: the block-list entry a try matches and the card-testing rules' counts in one
//! statement of scalar subqueries, and the step to `blocked`; the same SQL on both backends.
//!
//! The block lists are one subquery (migration 0018): a `UNION ALL` of one lookup a kind, each
//! served by the unique (kind, value) index or, for address ranges, `risk_blocks_by_range`,
//! ranked in `BlockKind::ALL`'s order so the first kind that matches is the one named.
//! Measured on SQLite (50,000 payments, 2,000 entries of which 333 ranges; prepared
//! statements): about 55 µs a call with the lookup against 45 to 54 µs without, and no
//! round trip more.
//!
//! On PostgreSQL the statement runs inside the function `risk_counts` (migration 0025,
//! redefined by 0035 and 0039: the same text, which a test below checks), so that it is
//! planned once per connection and not at every try (`Dialect::RISK_COUNTS_FUNCTION`), after
//! the locks that order concurrent tries ([`super::counted_claim`]). The pay call reads the
//! counts in the round trip that records its payment (there); they are read here on their own
//! when the payment was recorded another way.
//!
//! Each subquery is served by one index (migration 0016 and 0001): the session's payments
//! (`payments_by_session`), the card's declines (`payments_declines_by_card`, partial: declined
//! rows only), the cards of an address or an e-mail (`payments_cards_by_client`,
//! `payments_cards_by_email`: partial, typed cards not blocked, the fingerprint in the index so
//! no row is read), the customer's payments (`payments_by_customer`). A card that paid from
//! the address or under the e-mail is no new card there, whenever it is tried again (issue 47:
//! a shared address or a family's e-mail carries many shoppers' cards, a card tester's mostly
//! decline): `payments_paid_cards_by_client` and `payments_paid_cards_by_email` (migration
//! 0035, partial on [`PAID`]) find it. The partial indexes'
//! conditions are repeated word for word, so both planners use them. The session's declines
//! are counted with `CASE`, not a `state` condition, so no planner is tempted by the index on
//! `state` (every declined payment of the shop) over the session's few rows.

use async_trait::async_trait;
use sqlx::{Encode, Executor, FromRow, IntoArguments, Type};
use time::OffsetDateTime;

use super::codec::{ms, unsigned};
use super::counted_claim::{CountedRow, claim_create_and_count};
use super::new_payment::RowQueryAs;
use super::rows::{PAYMENT_COLUMNS, PaymentRow};
use super::{Dialect, SqlStore};
use crate::store::error::StoreResult;
use crate::store::model::{BlockKind, IdempotencyKey, NewPayment, Payment};
use crate::store::risk::{
    CountedPayment, KnownShopperQuery, RiskCountQuery, RiskCounts, RiskStore,
};
use crate::store::secret::BodyDigest;

/// Cards counted by a rule: typed cards (a fingerprint, no saved card) whose try was not
/// blocked.
const COUNTED_CARD: &str =
    "card_fingerprint IS NOT NULL AND saved_card_id IS NULL AND state <> 'blocked'";

/// Payments whose card paid: the card is the shopper's own, whatever tried it since.
pub(super) const PAID: &str =
    "state IN ('authorized', 'captured', 'partially_refunded', 'refunded')";

/// Payments the gateway answered: not refused before it, not still waiting (at the bank's 3-D
/// Secure page or for the gateway), not replaced while waiting at the bank. A card tester who
/// takes the bank's page as proof a number is live, and moves on, leaves none.
const ANSWERED: &str = "state NOT IN ('created', 'pending', 'blocked') AND superseded_by IS NULL";

/// The kind of the first block-list entry matching the try: `$2` card, `$10` BIN, `$11` whole
/// address (hex), `$12` e-mail, `$13` e-mail domain, `$14` customer.
const BLOCKED_SQL: &str = "(SELECT kind FROM ( \
     SELECT 1 AS rank, kind FROM risk_blocks WHERE kind = 'card' AND value = $2 \
     UNION ALL SELECT 2, kind FROM risk_blocks WHERE kind = 'bin' AND value = $10 \
     UNION ALL SELECT 3, kind FROM risk_blocks \
         WHERE kind = 'address' AND range_start <= $11 AND range_end >= $11 \
     UNION ALL SELECT 4, kind FROM risk_blocks WHERE kind = 'email' AND value = $12 \
     UNION ALL SELECT 5, kind FROM risk_blocks WHERE kind = 'email_domain' AND value = $13 \
     UNION ALL SELECT 6, kind FROM risk_blocks WHERE kind = 'customer' AND value = $14 \
     ) AS hits ORDER BY rank LIMIT 1) AS blocked";

/// The block list and the counts: `$1` session, `$2` fingerprint and `$3` its declines'
/// window start, `$4` address key and `$5` its window start, `$6` customer and `$7`, `$8`
/// e-mail and `$9`; `$10` to `$14` are [`BLOCKED_SQL`]'s.
fn counts_sql() -> String {
    format!(
        "SELECT {BLOCKED_SQL}, \
         (SELECT COUNT(DISTINCT card_fingerprint) FROM payments \
             WHERE session_id = $1 AND {COUNTED_CARD}) AS session_cards, \
         (SELECT COUNT(CASE WHEN state = 'declined' THEN 1 END) FROM payments \
             WHERE session_id = $1) AS session_declines, \
         (SELECT COUNT(*) FROM payments \
             WHERE card_fingerprint = $2 AND created_at >= $3 AND state = 'declined') \
             AS card_declines, \
         (SELECT COUNT(DISTINCT card_fingerprint) FROM payments t \
             WHERE client_key = $4 AND created_at >= $5 AND {COUNTED_CARD} \
             AND NOT EXISTS (SELECT 1 FROM payments c WHERE c.client_key = $4 \
             AND c.card_fingerprint = t.card_fingerprint AND c.{PAID})) AS client_cards, \
         (SELECT COUNT(DISTINCT card_fingerprint) FROM payments \
             WHERE customer_id = $6 AND created_at >= $7 AND {COUNTED_CARD}) AS customer_cards, \
         (SELECT COUNT(DISTINCT card_fingerprint) FROM payments t \
             WHERE shopper_email = $8 AND created_at >= $9 AND {COUNTED_CARD} \
             AND NOT EXISTS (SELECT 1 FROM payments c WHERE c.shopper_email = $8 \
             AND c.card_fingerprint = t.card_fingerprint AND c.{PAID})) AS email_cards"
    )
}

/// The counts as a table of one row, for a `FROM` clause; its parameters are
/// [`counts_sql`]'s. PostgreSQL: the function running it ([`Dialect::RISK_COUNTS_FUNCTION`]).
pub(super) fn counts_table<DB: Dialect>() -> String {
    DB::RISK_COUNTS_FUNCTION.map_or_else(|| format!("({})", counts_sql()), str::to_owned)
}

/// `statement` with the parameters of [`counts_sql`] bound from `query`, in their order; the
/// session's (`$1`) only `with_session` (the claim-and-insert gives its own).
pub(super) fn bind_counts<'q, DB, R>(
    statement: RowQueryAs<'q, DB, R>,
    query: &RiskCountQuery,
    with_session: bool,
) -> RowQueryAs<'q, DB, R>
where
    DB: Dialect,
    for<'a> i64: Encode<'a, DB> + Type<DB>,
    for<'a> String: Encode<'a, DB> + Type<DB>,
    for<'a> Option<String>: Encode<'a, DB>,
{
    let statement = if with_session {
        statement.bind(query.session_id.clone())
    } else {
        statement
    };
    statement
        .bind(query.card_fingerprint.clone())
        .bind(ms(query.card_declines_since))
        .bind(query.client_key.clone())
        .bind(ms(query.client_since))
        .bind(query.customer_id.clone())
        .bind(ms(query.customer_since))
        .bind(query.shopper_email.clone())
        .bind(ms(query.email_since))
        .bind(query.blocks.bin.clone())
        .bind(query.blocks.address.clone())
        .bind(query.blocks.email.clone())
        .bind(query.blocks.email_domain.clone())
        .bind(query.blocks.customer_id.clone())
}

/// The counts as the database returns them.
#[derive(FromRow)]
pub(crate) struct CountsRow {
    blocked: Option<String>,
    session_cards: i64,
    session_declines: i64,
    card_declines: i64,
    client_cards: i64,
    customer_cards: i64,
    email_cards: i64,
}

impl TryFrom<CountsRow> for RiskCounts {
    type Error = crate::store::StoreError;

    fn try_from(row: CountsRow) -> StoreResult<Self> {
        let blocked = row
            .blocked
            .map(|kind| {
                BlockKind::from_name(&kind)
                    .ok_or(crate::store::StoreError::Corrupt("risk_blocks.kind"))
            })
            .transpose()?;
        Ok(Self {
            blocked,
            session_cards: unsigned(row.session_cards, "session_cards")?,
            session_declines: unsigned(row.session_declines, "session_declines")?,
            card_declines: unsigned(row.card_declines, "card_declines")?,
            client_cards: unsigned(row.client_cards, "client_cards")?,
            customer_cards: unsigned(row.customer_cards, "customer_cards")?,
            email_cards: unsigned(row.email_cards, "email_cards")?,
        })
    }
}

#[async_trait]
impl<DB> RiskStore for SqlStore<DB>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'q> Option<i64>: Encode<'q, DB>,
    for<'q> Option<String>: Encode<'q, DB>,
    for<'r> PaymentRow: FromRow<'r, DB::Row>,
    for<'r> CountsRow: FromRow<'r, DB::Row>,
    for<'r> CountedRow: FromRow<'r, DB::Row>,
    for<'r> (i64,): FromRow<'r, DB::Row>,
{
    async fn risk_counts(&self, query: &RiskCountQuery) -> StoreResult<RiskCounts> {
        let sql = match DB::RISK_COUNTS_FUNCTION {
            Some(function) => format!("SELECT * FROM {function}"),
            None => counts_sql(),
        };
        let statement = bind_counts(sqlx::query_as::<DB, CountsRow>(&sql), query, true);
        match self.fetch_optional_hot(statement).await? {
            Some(row) => row.try_into(),
            None => Ok(RiskCounts::default()),
        }
    }

    async fn claim_create_and_count(
        &self,
        claim: &IdempotencyKey,
        digest: &BodyDigest,
        new: NewPayment,
        query: &RiskCountQuery,
    ) -> StoreResult<Option<CountedPayment>> {
        claim_create_and_count(self, claim, digest, new, query).await
    }

    async fn block_payment(
        &self,
        payment_id: &str,
        rule: &str,
        now: OffsetDateTime,
    ) -> StoreResult<Option<Payment>> {
        let sql = format!(
            "UPDATE payments SET state = 'blocked', risk_rule = $2, next_check_at = NULL, \
             lease_owner = NULL, lease_until = NULL, updated_at = $3 \
             WHERE id = $1 AND state = 'pending' RETURNING {PAYMENT_COLUMNS}"
        );
        sqlx::query_as::<DB, PaymentRow>(&sql)
            .bind(payment_id.to_owned())
            .bind(rule.to_owned())
            .bind(ms(now))
            .fetch_optional(&self.pool)
            .await?
            .map(Payment::try_from)
            .transpose()
    }

    async fn known_shopper(&self, shopper: &KnownShopperQuery) -> StoreResult<bool> {
        let sql = format!(
            "SELECT CAST(CASE WHEN EXISTS (SELECT 1 FROM payments s WHERE s.session_id = $1 \
             AND {ANSWERED}) \
             OR EXISTS (SELECT 1 FROM payments u WHERE u.customer_id = $2 AND u.{PAID}) \
             OR EXISTS (SELECT 1 FROM payments c WHERE c.client_key = $3 \
             AND c.card_fingerprint = $4 AND c.{PAID}) THEN 1 ELSE 0 END AS BIGINT)"
        );
        let (found,) = sqlx::query_as::<DB, (i64,)>(&sql)
            .bind(shopper.session_id.clone())
            .bind(shopper.customer_id.clone())
            .bind(shopper.client_key.clone())
            .bind(shopper.card_fingerprint.clone())
            .fetch_one(&self.pool)
            .await?;
        Ok(found > 0)
    }

    async fn left_at_the_bank(&self, session_id: &str) -> StoreResult<bool> {
        let (found,) = sqlx::query_as::<DB, (i64,)>(
            "SELECT CAST(CASE WHEN EXISTS (SELECT 1 FROM payments WHERE session_id = $1 \
             AND (superseded_by IS NOT NULL \
             OR (state = 'pending' AND redirected_at IS NOT NULL))) THEN 1 ELSE 0 END AS BIGINT)",
        )
        .bind(session_id.to_owned())
        .fetch_one(&self.pool)
        .await?;
        Ok(found > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::counts_sql;

    fn words(text: &str) -> String {
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn the_postgres_function_runs_the_same_statement() {
        let migration =
            include_str!("../../../migrations/postgres/0039_concurrent_tries_counted_in_turn.sql");
        assert!(
            words(migration).contains(&format!("RETURN QUERY {};", words(&counts_sql()))),
            "migrations/postgres/0039_concurrent_tries_counted_in_turn.sql must hold \
             counts_sql() word for word"
        );
    }
}
