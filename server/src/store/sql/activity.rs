//! The gateway call log and webhook deliveries.

use async_trait::async_trait;
use sqlx::query::QueryAs;
use sqlx::{Encode, Executor, FromRow, IntoArguments, Type};

use super::codec::{int_opt, ms};
use super::fetch::all_by_key;
use super::rows::{ATTEMPT_COLUMNS, AttemptRow, WEBHOOK_COLUMNS, WebhookRow};
use super::{Dialect, SqlStore};
use crate::store::error::{StoreError, StoreResult};
use crate::store::model::{
    GatewayAttempt, NewAttempt, NewWebhookEvent, WebhookEvent, WebhookReceipt, WebhookVerdict,
};
use crate::store::traits::ActivityStore;
use crate::store::transitions::state_name;

/// The columns of a new gateway-call log row, in the order [`bind_attempt`] binds them.
pub(crate) const NEW_ATTEMPT_COLUMNS: &str = "payment_id, subscription_id, endpoint, \
     started_at, finished_at, latency_us, outcome, http_status";

/// Binds the eight values of `attempt`'s log row, for [`NEW_ATTEMPT_COLUMNS`]: its payment,
/// subscription, endpoint, start, end, `latency_us` (see [`latency_us`]), outcome and status.
pub(crate) fn bind_attempt<'q, DB, R>(
    query: QueryAs<'q, DB, R, <DB as sqlx::Database>::Arguments<'q>>,
    attempt: NewAttempt,
    latency_us: i64,
) -> QueryAs<'q, DB, R, <DB as sqlx::Database>::Arguments<'q>>
where
    DB: Dialect,
    for<'a> i64: Encode<'a, DB> + Type<DB>,
    for<'a> String: Encode<'a, DB> + Type<DB>,
    for<'a> Option<i64>: Encode<'a, DB>,
    for<'a> Option<String>: Encode<'a, DB>,
{
    query
        .bind(attempt.payment_id)
        .bind(attempt.subscription_id)
        .bind(attempt.endpoint)
        .bind(ms(attempt.started_at))
        .bind(ms(attempt.finished_at))
        .bind(latency_us)
        .bind(attempt.outcome.as_str().to_owned())
        .bind(attempt.http_status.map(i64::from))
}

/// The call's duration in microseconds; an end before the start is refused.
pub(crate) fn latency_us(attempt: &NewAttempt) -> StoreResult<i64> {
    if attempt.finished_at < attempt.started_at {
        return Err(StoreError::Invalid {
            field: "finished_at",
            reason: "is before started_at",
        });
    }
    let latency = (attempt.finished_at - attempt.started_at).whole_microseconds();
    Ok(i64::try_from(latency).unwrap_or(i64::MAX))
}

#[async_trait]
impl<DB> ActivityStore for SqlStore<DB>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'q> Option<i64>: Encode<'q, DB>,
    for<'q> Option<String>: Encode<'q, DB>,
    for<'r> AttemptRow: FromRow<'r, DB::Row>,
    for<'r> WebhookRow: FromRow<'r, DB::Row>,
{
    async fn record_attempt(&self, attempt: NewAttempt) -> StoreResult<GatewayAttempt> {
        let latency_us = latency_us(&attempt)?;
        let mut tx = self.pool.begin().await?;
        let sql = format!(
            "INSERT INTO gateway_attempts ({NEW_ATTEMPT_COLUMNS}) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING {ATTEMPT_COLUMNS}"
        );
        let payment_id = attempt.payment_id.clone();
        let row = bind_attempt(sqlx::query_as::<DB, AttemptRow>(&sql), attempt, latency_us)
            .fetch_one(&mut *tx)
            .await?;
        if let Some(payment_id) = payment_id {
            sqlx::query("UPDATE payments SET attempts = attempts + 1 WHERE id = $1")
                .bind(payment_id)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        row.try_into()
    }

    async fn list_attempts(&self, payment_id: &str) -> StoreResult<Vec<GatewayAttempt>> {
        let sql = format!(
            "SELECT {ATTEMPT_COLUMNS} FROM gateway_attempts WHERE payment_id = $1 ORDER BY id"
        );
        all_by_key::<DB, AttemptRow, _>(&self.pool, &sql, payment_id).await
    }

    async fn record_webhook(&self, event: NewWebhookEvent) -> StoreResult<WebhookReceipt> {
        let insert = format!(
            "INSERT INTO webhook_events (payment_id, received_at, body_digest, \
             gateway_transaction_id, claimed_state, claimed_amount, claimed_currency, verdict, \
             duplicate_of) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) \
             ON CONFLICT (payment_id, body_digest) WHERE duplicate_of IS NULL DO NOTHING \
             RETURNING {WEBHOOK_COLUMNS}"
        );
        let claimed_amount = int_opt(event.claimed_amount, "claimed_amount")?;
        let bind_event = |verdict: WebhookVerdict, duplicate_of: Option<i64>| {
            sqlx::query_as::<DB, WebhookRow>(&insert)
                .bind(event.payment_id.clone())
                .bind(ms(event.received_at))
                .bind(event.body_digest.as_hex().to_owned())
                .bind(event.gateway_transaction_id.clone())
                .bind(event.claimed_state.map(|s| state_name(s).to_owned()))
                .bind(claimed_amount)
                .bind(event.claimed_currency.clone())
                .bind(verdict.as_str().to_owned())
                .bind(duplicate_of)
        };
        if let Some(first) = bind_event(WebhookVerdict::Received, None)
            .fetch_optional(&self.pool)
            .await?
        {
            return Ok(WebhookReceipt::First(first.try_into()?));
        }
        let original: WebhookEvent = sqlx::query_as::<DB, WebhookRow>(&format!(
            "SELECT {WEBHOOK_COLUMNS} FROM webhook_events \
             WHERE payment_id = $1 AND body_digest = $2 AND duplicate_of IS NULL"
        ))
        .bind(event.payment_id.clone())
        .bind(event.body_digest.as_hex().to_owned())
        .fetch_one(&self.pool)
        .await?
        .try_into()?;
        let duplicate = bind_event(WebhookVerdict::Duplicate, Some(original.id))
            .fetch_one(&self.pool)
            .await?
            .try_into()?;
        Ok(WebhookReceipt::Duplicate {
            event: duplicate,
            original,
        })
    }

    async fn set_webhook_verdict(&self, event_id: i64, verdict: WebhookVerdict) -> StoreResult<()> {
        let sql = format!(
            "UPDATE webhook_events SET verdict = $2 WHERE id = $1 RETURNING {WEBHOOK_COLUMNS}"
        );
        sqlx::query_as::<DB, WebhookRow>(&sql)
            .bind(event_id)
            .bind(verdict.as_str().to_owned())
            .fetch_optional(&self.pool)
            .await?
            .map(|_| ())
            .ok_or(StoreError::NotFound("webhook event"))
    }

    async fn list_webhooks(&self, payment_id: &str) -> StoreResult<Vec<WebhookEvent>> {
        let sql = format!(
            "SELECT {WEBHOOK_COLUMNS} FROM webhook_events WHERE payment_id = $1 ORDER BY id"
        );
        all_by_key::<DB, WebhookRow, _>(&self.pool, &sql, payment_id).await
    }
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
