//! The card-testing counts' statement: the block-list entry a try matches and every count
//! the rules read, in one statement of scalar subqueries, the same SQL on both backends;
//! read on its own by [`super::risk`] and with the payment's insert by
//! [`super::counted_claim`].
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
//! the locks that order concurrent tries (`counted_claim`).
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

use sqlx::{Encode, FromRow, Type};

use super::Dialect;
use super::codec::{ms, unsigned};
use super::new_payment::RowQueryAs;
use crate::store::error::StoreResult;
use crate::store::model::BlockKind;
use crate::store::risk::{RiskCountQuery, RiskCounts};

/// Cards counted by a rule: typed cards (a fingerprint, no saved card) whose try was not
/// blocked.
const COUNTED_CARD: &str =
    "card_fingerprint IS NOT NULL AND saved_card_id IS NULL AND state <> 'blocked'";

/// Payments whose card paid: the card is the shopper's own, whatever tried it since.
pub(super) const PAID: &str =
    "state IN ('authorized', 'captured', 'partially_refunded', 'refunded')";

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
pub(super) fn counts_sql() -> String {
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
