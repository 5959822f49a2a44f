//! Payments: creation, lookup, listing, and stepping their state (the compare-and-set itself
//! is step.rs).

use async_trait::async_trait;
use checkout::contract::PaymentState;
use sqlx::{Encode, Executor, FromRow, IntoArguments, Type};
use time::OffsetDateTime;

use super::codec::{ms, unsigned};
use super::fetch::optional_by_key;
use super::rows::{PAYMENT_COLUMNS, PaymentRow};
use super::step::{cas_step, expected_states};
use super::{Dialect, SqlStore};
use crate::store::error::{StoreError, StoreResult};
use crate::store::model::{
    Advance, IdempotencyKey, NewAttempt, NewPayment, Page, PageCursor, Payment, PaymentChanges,
    PaymentLine, PaymentQuery,
};
use crate::store::secret::BodyDigest;
use crate::store::traits::PaymentStore;
use crate::store::transitions::parse_state;

#[derive(FromRow)]
pub(crate) struct StateCountRow {
    state: String,
    n: i64,
}

#[async_trait]
impl<DB> PaymentStore for SqlStore<DB>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'q> Option<i64>: Encode<'q, DB>,
    for<'q> Option<String>: Encode<'q, DB>,
    for<'r> PaymentRow: FromRow<'r, DB::Row>,
    for<'r> StateCountRow: FromRow<'r, DB::Row>,
    for<'r> super::logged_step::SteppedRow: FromRow<'r, DB::Row>,
    for<'r> (String,): FromRow<'r, DB::Row>,
    for<'r> super::payment_lines::LineRow: FromRow<'r, DB::Row>,
{
    async fn create_payment(&self, new: NewPayment) -> StoreResult<Payment> {
        super::new_payment::insert_payment::<DB>(&self.pool, new, PaymentState::Created).await
    }

    async fn create_pending_payment(&self, new: NewPayment) -> StoreResult<Payment> {
        super::new_payment::insert_payment::<DB>(&self.pool, new, PaymentState::Pending).await
    }

    async fn claim_and_create_pending_payment(
        &self,
        claim: &IdempotencyKey,
        digest: &BodyDigest,
        new: NewPayment,
    ) -> StoreResult<Option<Payment>> {
        super::new_payment::claim_and_insert_pending::<DB>(self, claim, digest, new).await
    }

    async fn get_payment(&self, id: &str) -> StoreResult<Option<Payment>> {
        let sql = format!("SELECT {PAYMENT_COLUMNS} FROM payments WHERE id = $1");
        optional_by_key::<DB, PaymentRow, _>(&self.pool, &sql, id).await
    }

    async fn find_payment_by_gateway_id(
        &self,
        gateway_transaction_id: &str,
    ) -> StoreResult<Option<Payment>> {
        let sql =
            format!("SELECT {PAYMENT_COLUMNS} FROM payments WHERE gateway_transaction_id = $1");
        optional_by_key::<DB, PaymentRow, _>(&self.pool, &sql, gateway_transaction_id).await
    }

    async fn advance_payment(
        &self,
        id: &str,
        from: &[PaymentState],
        to: PaymentState,
        changes: PaymentChanges,
    ) -> StoreResult<Advance> {
        let expected = expected_states(from, to, &changes)?;
        let mut conn = self.pool.acquire().await?;
        match cas_step::<DB>(&mut conn, id, &expected, to, changes, 0).await? {
            Some(payment) => Ok(Advance::Moved(payment)),
            None => match self.get_payment(id).await? {
                Some(payment) => Ok(Advance::Unchanged(payment)),
                None => Err(StoreError::NotFound("payment")),
            },
        }
    }

    async fn advance_payment_logged(
        &self,
        id: &str,
        from: &[PaymentState],
        to: PaymentState,
        changes: PaymentChanges,
        attempt: NewAttempt,
    ) -> StoreResult<Advance> {
        super::logged_step::advance_logged::<DB>(self, id, from, to, changes, attempt).await
    }

    async fn note_gateway_transaction(
        &self,
        id: &str,
        gateway_transaction_id: &str,
    ) -> StoreResult<bool> {
        let now = ms(OffsetDateTime::now_utc());
        let noted = sqlx::query_as::<DB, PaymentRow>(&format!(
            "UPDATE payments SET gateway_transaction_id = $2, transaction_hint = NULL, \
             next_check_at = $3, updated_at = $3 WHERE id = $1 AND gateway_transaction_id IS NULL \
             AND state IN ('created', 'pending', 'needs_review') RETURNING {PAYMENT_COLUMNS}"
        ))
        .bind(id.to_owned())
        .bind(gateway_transaction_id.to_owned())
        .bind(now)
        .fetch_optional(&self.pool)
        .await
        .map_err(|e| StoreError::on_unique(e, "gateway transaction id"))?;
        Ok(noted.is_some())
    }

    async fn keep_transaction_hint(
        &self,
        id: &str,
        hint: &str,
        replace: bool,
    ) -> StoreResult<bool> {
        let now = ms(OffsetDateTime::now_utc());
        let kept = sqlx::query::<DB>(
            "UPDATE payments SET transaction_hint = $2, next_check_at = $3, updated_at = $3 \
             WHERE id = $1 AND gateway_transaction_id IS NULL \
             AND state IN ('created', 'pending', 'needs_review') \
             AND ($4 = 1 OR transaction_hint IS NULL)",
        )
        .bind(id.to_owned())
        .bind(hint.to_owned())
        .bind(now)
        .bind(i64::from(replace))
        .execute(&self.pool)
        .await?;
        Ok(DB::rows_affected(&kept) == 1)
    }

    async fn drop_transaction_hint(&self, id: &str, hint: &str) -> StoreResult<bool> {
        let dropped = sqlx::query::<DB>(
            "UPDATE payments SET transaction_hint = NULL WHERE id = $1 AND transaction_hint = $2",
        )
        .bind(id.to_owned())
        .bind(hint.to_owned())
        .execute(&self.pool)
        .await?;
        Ok(DB::rows_affected(&dropped) == 1)
    }

    async fn list_payments(&self, query: PaymentQuery) -> StoreResult<Page<Payment>> {
        let limit = query.effective_limit();
        let rows = super::payment_list::rows::<DB>(&self.pool, query, limit).await?;
        let mut items = rows
            .into_iter()
            .map(Payment::try_from)
            .collect::<StoreResult<Vec<_>>>()?;
        let next = page_cursor(&mut items, limit, |p| (ms(p.created_at), p.id.clone()));
        Ok(Page { items, next })
    }

    async fn payment_lines(&self, query: PaymentQuery) -> StoreResult<Page<PaymentLine>> {
        let limit = query.effective_limit();
        let mut items = super::payment_lines::lines::<DB>(&self.pool, query, limit).await?;
        let next = page_cursor(&mut items, limit, |p| (ms(p.created_at), p.id.clone()));
        Ok(Page { items, next })
    }

    async fn count_payments_by_state(&self) -> StoreResult<Vec<(PaymentState, u64)>> {
        sqlx::query_as::<DB, StateCountRow>(
            "SELECT state, COUNT(*) AS n FROM payments GROUP BY state ORDER BY state",
        )
        .fetch_all(&self.pool)
        .await?
        .into_iter()
        .map(|row| {
            let state = parse_state(&row.state).ok_or(StoreError::Corrupt("state"))?;
            Ok((state, unsigned(row.n, "count")?))
        })
        .collect()
    }
}

/// Trims the look-ahead item fetched beyond `limit` and returns the cursor to the next page
/// when there is one.
pub(crate) fn page_cursor<T>(
    items: &mut Vec<T>,
    limit: u32,
    key: impl Fn(&T) -> (i64, String),
) -> Option<PageCursor> {
    let limit = usize::try_from(limit).unwrap_or(usize::MAX);
    if items.len() <= limit {
        return None;
    }
    items.truncate(limit);
    items.last().map(|last| {
        let (created_at_ms, id) = key(last);
        PageCursor { created_at_ms, id }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use PaymentState::*;

    #[test]
    fn illegal_steps_are_refused_before_any_query() {
        let none = PaymentChanges::default();
        assert!(matches!(
            expected_states(&[Captured], Pending, &none),
            Err(StoreError::IllegalTransition {
                from: Captured,
                to: Pending
            })
        ));
        assert!(matches!(
            expected_states(&[], Captured, &none),
            Err(StoreError::Invalid { field: "from", .. })
        ));
        assert_eq!(
            expected_states(&[Pending, Pending, NeedsReview], Captured, &none).ok(),
            Some(vec![Pending, NeedsReview])
        );
    }

    #[test]
    fn refunds_and_captures_go_with_their_steps() {
        let refund = PaymentChanges {
            refund: Some(10),
            ..Default::default()
        };
        assert!(expected_states(&[Captured], PartiallyRefunded, &refund).is_ok());
        assert!(expected_states(&[Authorized], Captured, &refund).is_err());
        let none = PaymentChanges::default();
        assert!(expected_states(&[Captured], Refunded, &none).is_err());
        let capture = PaymentChanges {
            captured_amount: Some(5),
            ..Default::default()
        };
        assert!(expected_states(&[Authorized], Captured, &capture).is_ok());
        assert!(expected_states(&[Authorized], Voided, &capture).is_err());
    }

    #[test]
    fn a_page_cursor_only_when_more_remain() {
        let key = |n: &i64| (*n, n.to_string());
        let mut items = vec![5, 4, 3];
        assert_eq!(page_cursor(&mut items, 3, key), None);
        let mut items = vec![5, 4, 3];
        let next = page_cursor(&mut items, 2, key);
        assert_eq!(items, vec![5, 4]);
        assert_eq!(next.map(|c| c.created_at_ms), Some(4));
    }
}
