//! [`PaymentLinkStore`] on both backends: the `payment_links` rows (migration 0038), listed
//! newest first by keyset (`payment_links_newest`), and the figures read from the sessions
//! and payments that carry a link's id.

use async_trait::async_trait;
use sqlx::{Encode, Executor, FromRow, IntoArguments, Type};
use time::OffsetDateTime;

use super::codec::{int, ms, ms_opt, named, time, time_opt, unsigned};
use super::payments::page_cursor;
use super::rows::{SESSION_COLUMNS, SessionRow};
use super::{Dialect, SqlStore};
use crate::store::error::{StoreError, StoreResult};
use crate::store::links::PaymentLinkStore;
use crate::store::model::link::{billing_field_name, parse_billing_field};
use crate::store::model::page::effective_limit;
use crate::store::model::{
    AfterPayment, Ask, LinkAmount, LinkFigures, NewPaymentLink, Page, PageCursor, PaymentLink,
    Session,
};
use crate::store::secret::generate_token;
use secrecy::ExposeSecret as _;

/// Columns of [`LinkRow`].
const LINK_COLUMNS: &str = "id, public_id, description, currency, amount, min_amount, \
     max_amount, quantity_max, reusable, payment_limit, expires_at, ask_email, \
     ask_payer_reference, billing_fields, redirect_url, plan_id, active, views, created_at, \
     deactivated_at";

/// The states of a payment that holds no place of its link: it ended without a charge.
pub(crate) const PLACE_FREED_BY: &str = "('declined', 'failed', 'blocked')";

#[derive(FromRow)]
pub(crate) struct LinkRow {
    id: String,
    public_id: String,
    description: String,
    currency: String,
    amount: Option<i64>,
    min_amount: Option<i64>,
    max_amount: Option<i64>,
    quantity_max: Option<i64>,
    reusable: i64,
    payment_limit: Option<i64>,
    expires_at: Option<i64>,
    ask_email: String,
    ask_payer_reference: String,
    billing_fields: String,
    redirect_url: Option<String>,
    plan_id: Option<String>,
    active: i64,
    views: i64,
    created_at: i64,
    deactivated_at: Option<i64>,
}

impl TryFrom<LinkRow> for PaymentLink {
    type Error = StoreError;

    fn try_from(row: LinkRow) -> StoreResult<Self> {
        let amount = match (row.amount, row.min_amount, row.max_amount) {
            (Some(amount), None, None) => LinkAmount::Fixed {
                amount: unsigned(amount, "amount")?,
            },
            (None, Some(min), Some(max)) => LinkAmount::PayerChosen {
                min: unsigned(min, "min_amount")?,
                max: unsigned(max, "max_amount")?,
            },
            _ => return Err(StoreError::Corrupt("payment_links.amount")),
        };
        let billing_fields = row
            .billing_fields
            .split(',')
            .filter(|name| !name.is_empty())
            .map(|name| named(name, "billing_fields", parse_billing_field))
            .collect::<StoreResult<Vec<_>>>()?;
        let optional = |value: Option<i64>, column| value.map(|v| unsigned(v, column)).transpose();
        Ok(Self {
            terms: NewPaymentLink {
                description: row.description,
                currency: row.currency,
                amount,
                quantity_max: optional(row.quantity_max, "quantity_max")?,
                reusable: row.reusable != 0,
                payment_limit: optional(row.payment_limit, "payment_limit")?,
                expires_at: time_opt(row.expires_at, "expires_at")?,
                ask_email: named(&row.ask_email, "ask_email", Ask::parse)?,
                ask_payer_reference: named(
                    &row.ask_payer_reference,
                    "ask_payer_reference",
                    Ask::parse,
                )?,
                billing_fields,
                after_payment: row
                    .redirect_url
                    .map_or(AfterPayment::Receipt, AfterPayment::Redirect),
                plan_id: row.plan_id,
            },
            id: row.id,
            public_id: row.public_id,
            active: row.active != 0,
            views: unsigned(row.views, "views")?,
            created_at: time(row.created_at, "created_at")?,
            deactivated_at: time_opt(row.deactivated_at, "deactivated_at")?,
        })
    }
}

/// A link's figures as one query reads them.
#[derive(FromRow)]
pub(crate) struct FiguresRow {
    views: i64,
    payments: i64,
    amount: i64,
    places_taken: i64,
}

/// A fresh link id: `plink_` and 32 hex digits.
fn new_link_id() -> String {
    format!("plink_{}", uuid::Uuid::new_v4().simple())
}

#[async_trait]
impl<DB> PaymentLinkStore for SqlStore<DB>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'q> Option<i64>: Encode<'q, DB>,
    for<'q> Option<String>: Encode<'q, DB>,
    for<'r> LinkRow: FromRow<'r, DB::Row>,
    for<'r> FiguresRow: FromRow<'r, DB::Row>,
    for<'r> SessionRow: FromRow<'r, DB::Row>,
{
    async fn create_link(
        &self,
        new: NewPaymentLink,
        now: OffsetDateTime,
    ) -> StoreResult<PaymentLink> {
        new.validate()?;
        let (amount, min, max) = match new.amount {
            LinkAmount::Fixed { amount } => (Some(int(amount, "amount")?), None, None),
            LinkAmount::PayerChosen { min, max } => (
                None,
                Some(int(min, "min_amount")?),
                Some(int(max, "max_amount")?),
            ),
        };
        let billing_fields = new
            .billing_fields
            .iter()
            .map(|field| billing_field_name(*field))
            .collect::<Vec<_>>()
            .join(",");
        let redirect_url = match new.after_payment {
            AfterPayment::Receipt => None,
            AfterPayment::Redirect(url) => Some(url),
        };
        let sql = format!(
            "INSERT INTO payment_links ({LINK_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, \
             $8, $9, $10, $11, $12, $13, $14, $15, $16, 1, 0, $17, NULL) \
             RETURNING {LINK_COLUMNS}"
        );
        sqlx::query_as::<DB, LinkRow>(&sql)
            .bind(new_link_id())
            .bind(generate_token("").expose_secret().to_owned())
            .bind(new.description.trim().to_owned())
            .bind(new.currency)
            .bind(amount)
            .bind(min)
            .bind(max)
            .bind(new.quantity_max.map(i64::from))
            .bind(i64::from(new.reusable))
            .bind(new.payment_limit.map(i64::from))
            .bind(ms_opt(new.expires_at))
            .bind(new.ask_email.as_str().to_owned())
            .bind(new.ask_payer_reference.as_str().to_owned())
            .bind(billing_fields)
            .bind(redirect_url)
            .bind(new.plan_id)
            .bind(ms(now))
            .fetch_one(&self.pool)
            .await?
            .try_into()
    }

    async fn get_link(&self, id: &str) -> StoreResult<Option<PaymentLink>> {
        link_where(self, "id", id).await
    }

    async fn find_link_by_public_id(&self, public_id: &str) -> StoreResult<Option<PaymentLink>> {
        link_where(self, "public_id", public_id).await
    }

    async fn list_links(
        &self,
        limit: u32,
        after: Option<PageCursor>,
    ) -> StoreResult<Page<PaymentLink>> {
        let limit = effective_limit(limit);
        let fetch = i64::from(limit) + 1;
        let sql = format!(
            "SELECT {LINK_COLUMNS} FROM payment_links \
             WHERE $1 = 0 OR created_at < $2 OR (created_at = $2 AND id < $3) \
             ORDER BY created_at DESC, id DESC LIMIT $4"
        );
        let rows = sqlx::query_as::<DB, LinkRow>(&sql)
            .bind(i64::from(after.is_some()))
            .bind(after.as_ref().map_or(0, |a| a.created_at_ms))
            .bind(after.map(|a| a.id).unwrap_or_default())
            .bind(fetch)
            .fetch_all(&self.pool)
            .await?;
        let mut items = rows
            .into_iter()
            .map(PaymentLink::try_from)
            .collect::<StoreResult<Vec<_>>>()?;
        let next = page_cursor(&mut items, limit, |last| {
            (ms(last.created_at), last.id.clone())
        });
        Ok(Page { items, next })
    }

    async fn deactivate_link(
        &self,
        id: &str,
        now: OffsetDateTime,
    ) -> StoreResult<Option<PaymentLink>> {
        let sql = format!(
            "UPDATE payment_links SET active = 0, \
             deactivated_at = COALESCE(deactivated_at, $2) WHERE id = $1 \
             RETURNING {LINK_COLUMNS}"
        );
        sqlx::query_as::<DB, LinkRow>(&sql)
            .bind(id.to_owned())
            .bind(ms(now))
            .fetch_optional(&self.pool)
            .await?
            .map(PaymentLink::try_from)
            .transpose()
    }

    async fn record_link_view(&self, public_id: &str) -> StoreResult<bool> {
        let done =
            sqlx::query::<DB>("UPDATE payment_links SET views = views + 1 WHERE public_id = $1")
                .bind(public_id.to_owned())
                .execute(&self.pool)
                .await?;
        Ok(DB::rows_affected(&done) > 0)
    }

    async fn link_figures(&self, id: &str) -> StoreResult<Option<LinkFigures>> {
        let sql = format!(
            "SELECT l.views AS views, \
             (SELECT COUNT(*) FROM checkout_sessions AS s \
                 WHERE s.payment_link_id = l.id AND s.paid_by IS NOT NULL) AS payments, \
             CAST((SELECT COALESCE(SUM(p.amount), 0) FROM checkout_sessions AS s \
                 JOIN payments AS p ON p.id = s.paid_by \
                 WHERE s.payment_link_id = l.id) AS BIGINT) AS amount, \
             (SELECT COUNT(DISTINCT p.session_id) FROM payments AS p \
                 WHERE p.payment_link_id = l.id AND p.state NOT IN {PLACE_FREED_BY}) \
                 AS places_taken \
             FROM payment_links AS l WHERE l.id = $1"
        );
        let Some(row) = sqlx::query_as::<DB, FiguresRow>(&sql)
            .bind(id.to_owned())
            .fetch_optional(&self.pool)
            .await?
        else {
            return Ok(None);
        };
        Ok(Some(LinkFigures {
            views: unsigned(row.views, "views")?,
            payments: unsigned(row.payments, "payments")?,
            amount: unsigned(row.amount, "amount")?,
            places_taken: unsigned(row.places_taken, "places_taken")?,
        }))
    }

    async fn find_receipt_session(&self, receipt_id: &str) -> StoreResult<Option<Session>> {
        let sql = format!("SELECT {SESSION_COLUMNS} FROM checkout_sessions WHERE receipt_id = $1");
        sqlx::query_as::<DB, SessionRow>(&sql)
            .bind(receipt_id.to_owned())
            .fetch_optional(&self.pool)
            .await?
            .map(Session::try_from)
            .transpose()
    }
}

/// The link whose `column` (`id` or `public_id`) is `value`.
async fn link_where<DB>(
    store: &SqlStore<DB>,
    column: &str,
    value: &str,
) -> StoreResult<Option<PaymentLink>>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'r> LinkRow: FromRow<'r, DB::Row>,
{
    let sql = format!("SELECT {LINK_COLUMNS} FROM payment_links WHERE {column} = $1");
    sqlx::query_as::<DB, LinkRow>(&sql)
        .bind(value.to_owned())
        .fetch_optional(&store.pool)
        .await?
        .map(PaymentLink::try_from)
        .transpose()
}
