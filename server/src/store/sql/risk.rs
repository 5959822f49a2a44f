//! [`RiskStore`]: the card-testing counts read on their own (their statement is
//! [`super::risk_counts`]'s; the pay call reads them with its payment's insert,
//! [`super::counted_claim`], and here they are read when the payment was recorded another
//! way), the step to `blocked`, and the two lookups a tightened limit asks for (a checkout
//! left at the bank's page, a shopper already known).

use async_trait::async_trait;
use sqlx::{Encode, Executor, FromRow, IntoArguments, Type};
use time::OffsetDateTime;

use super::codec::ms;
use super::counted_claim::{CountedRow, claim_create_and_count};
use super::risk_counts::{CountsRow, PAID, bind_counts, counts_sql};
use super::rows::{PAYMENT_COLUMNS, PaymentRow};
use super::{Dialect, SqlStore};
use crate::store::error::StoreResult;
use crate::store::model::{IdempotencyKey, NewPayment, Payment};
use crate::store::risk::{
    CountedPayment, KnownShopperQuery, RiskCountQuery, RiskCounts, RiskStore,
};
use crate::store::secret::BodyDigest;

/// Payments the gateway answered: not refused before it, not still waiting (at the bank's 3-D
/// Secure page or for the gateway), not replaced while waiting at the bank. A card tester who
/// takes the bank's page as proof a number is live, and moves on, leaves none.
const ANSWERED: &str = "state NOT IN ('created', 'pending', 'blocked') AND superseded_by IS NULL";

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
