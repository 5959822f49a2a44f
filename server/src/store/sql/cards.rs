//! Customers, their saved cards (gateway token + brand, last four, expiry) and their
//! self-service tokens (stored as hashes). Cards written or read are kept in memory for the
//! pay call ([`super::recent`]); [`CustomerStore::get_card`] always reads the database.
//!
//! A card's gateway token charges it again, so it is sealed at rest like the other secrets
//! (`store/sealed/`, bound to the card's row): sealing is randomised, so a card saved again is
//! found by opening the customer's tokens, not by the column's old `UNIQUE (customer_id,
//! gateway_token)`, which now holds for ciphertexts only. The customer's row, written first in
//! the same transaction, keeps two saves of one customer's cards from passing each other.

use async_trait::async_trait;
use checkout::card::Brand;
use secrecy::{ExposeSecret as _, SecretString};
use sqlx::{Encode, Executor, FromRow, IntoArguments, Type};
use time::OffsetDateTime;
use uuid::Uuid;

use super::codec::{ms, named, time, unsigned};
use super::sealed_columns::SealedRow;
use super::{Dialect, SqlStore};
use crate::store::error::{StoreError, StoreResult};
use crate::store::model::{Bin, Customer, Last4, NewCustomerToken, NewSavedCard, SavedCardRecord};
use crate::store::sealed::{Binding, KeyRing};
use crate::store::secret::SecretHash;
use crate::store::traits::CustomerStore;

#[derive(FromRow)]
pub(crate) struct CustomerRow {
    id: String,
    email: Option<String>,
    created_at: i64,
}

impl TryFrom<CustomerRow> for Customer {
    type Error = StoreError;

    fn try_from(row: CustomerRow) -> StoreResult<Self> {
        Ok(Customer {
            id: row.id,
            email: row.email,
            created_at: time(row.created_at, "created_at")?,
        })
    }
}

const CARD_COLUMNS: &str = "id, customer_id, gateway_token, brand, last4, expiry_month, \
     expiry_year, created_at, card_fingerprint, billing_address, card_bin";

#[derive(FromRow)]
pub(crate) struct SavedCardRow {
    id: String,
    customer_id: String,
    gateway_token: String,
    brand: String,
    last4: String,
    expiry_month: i64,
    expiry_year: i64,
    created_at: i64,
    card_fingerprint: Option<String>,
    billing_address: Option<String>,
    card_bin: Option<String>,
}

/// Where a sealed token's errors point.
const TOKEN_COLUMN: &str = "saved_cards.gateway_token";

/// `token` sealed for card `card_id`'s row.
fn seal_token(keys: &KeyRing, token: &SecretString, card_id: &str) -> StoreResult<String> {
    keys.seal(token.expose_secret(), &Binding::saved_card_token(card_id))
        .map_err(|source| StoreError::Sealed {
            column: TOKEN_COLUMN,
            source,
        })
}

/// The token `stored` seals for card `card_id`.
fn open_token(keys: &KeyRing, stored: &str, card_id: &str) -> StoreResult<SecretString> {
    keys.open(stored, &Binding::saved_card_token(card_id))
        .map_err(|source| StoreError::Sealed {
            column: TOKEN_COLUMN,
            source,
        })
}

impl SavedCardRow {
    /// The card this row holds, its token opened with `keys`.
    pub(crate) fn open(self, keys: &KeyRing) -> StoreResult<SavedCardRecord> {
        let row = self;
        Ok(SavedCardRecord {
            brand: named(&row.brand, "brand", Brand::from_id)?,
            last4: Last4::new(&row.last4).map_err(|_| StoreError::Corrupt("last4"))?,
            expiry_month: unsigned(row.expiry_month, "expiry_month")?,
            expiry_year: unsigned(row.expiry_year, "expiry_year")?,
            created_at: time(row.created_at, "created_at")?,
            gateway_token: open_token(keys, &row.gateway_token, &row.id)?,
            id: row.id,
            customer_id: row.customer_id,
            card_fingerprint: row.card_fingerprint,
            billing: row
                .billing_address
                .map(|json| serde_json::from_str(&json))
                .transpose()
                .map_err(|_| StoreError::Corrupt("billing_address"))?,
            bin: row
                .card_bin
                .as_deref()
                .map(Bin::new)
                .transpose()
                .map_err(|_| StoreError::Corrupt("card_bin"))?,
        })
    }
}

/// [`CARD_COLUMNS`] renamed `sc_*` (saved card), for a join where they may all be NULL (no
/// such card) and beside a payment's own `card_*` columns.
pub(crate) const JOINED_CARD_COLUMNS: &str = "id AS sc_id, customer_id AS sc_customer_id, \
     gateway_token AS sc_gateway_token, brand AS sc_brand, last4 AS sc_last4, \
     expiry_month AS sc_expiry_month, expiry_year AS sc_expiry_year, created_at AS sc_created_at, \
     card_fingerprint AS sc_card_fingerprint, billing_address AS sc_billing_address, \
     card_bin AS sc_card_bin";

/// A saved card as a `LEFT JOIN` returns it ([`JOINED_CARD_COLUMNS`]).
#[derive(FromRow)]
pub(crate) struct JoinedCardRow {
    sc_id: Option<String>,
    sc_customer_id: Option<String>,
    sc_gateway_token: Option<String>,
    sc_brand: Option<String>,
    sc_last4: Option<String>,
    sc_expiry_month: Option<i64>,
    sc_expiry_year: Option<i64>,
    sc_created_at: Option<i64>,
    sc_card_fingerprint: Option<String>,
    sc_billing_address: Option<String>,
    sc_card_bin: Option<String>,
}

impl JoinedCardRow {
    /// The card, or `None` when the join found none; its token opened with `keys`.
    pub(crate) fn into_card(self, keys: &KeyRing) -> StoreResult<Option<SavedCardRecord>> {
        let Some(id) = self.sc_id else {
            return Ok(None);
        };
        let missing = || StoreError::Corrupt("saved card");
        SavedCardRow {
            id,
            customer_id: self.sc_customer_id.ok_or_else(missing)?,
            gateway_token: self.sc_gateway_token.ok_or_else(missing)?,
            brand: self.sc_brand.ok_or_else(missing)?,
            last4: self.sc_last4.ok_or_else(missing)?,
            expiry_month: self.sc_expiry_month.ok_or_else(missing)?,
            expiry_year: self.sc_expiry_year.ok_or_else(missing)?,
            created_at: self.sc_created_at.ok_or_else(missing)?,
            card_fingerprint: self.sc_card_fingerprint,
            billing_address: self.sc_billing_address,
            card_bin: self.sc_card_bin,
        }
        .open(keys)
        .map(Some)
    }
}

/// A new saved card: `$1` its id, `$2` the customer, `$3` the sealed token, `$4` now, then
/// as in [`SAVE_AGAIN`] from `$5`: brand, last four, expiry month and year, the fingerprint,
/// the payment it is saved from.
const SAVE_NEW: &str = "INSERT INTO saved_cards (id, customer_id, gateway_token, created_at, \
     brand, last4, expiry_month, expiry_year, card_fingerprint, billing_address, card_bin) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, \
     (SELECT save_card_billing FROM payments WHERE id = $10), \
     (SELECT card_bin FROM payments WHERE id = $10))";

/// A card saved again (row `$1` of customer `$2`, the same token): the new details (from `$3`,
/// in [`SAVE_NEW`]'s order from `$5`), keeping what the new payment does not say.
const SAVE_AGAIN: &str = "UPDATE saved_cards SET brand = $3, last4 = $4, expiry_month = $5, \
     expiry_year = $6, card_fingerprint = COALESCE($7, card_fingerprint), \
     billing_address = COALESCE((SELECT save_card_billing FROM payments WHERE id = $8), \
         billing_address), \
     card_bin = COALESCE((SELECT card_bin FROM payments WHERE id = $8), card_bin) \
     WHERE id = $1 AND customer_id = $2";

#[derive(FromRow)]
pub(crate) struct CustomerIdRow {
    customer_id: String,
}

/// How an insert of a customer that exists already refreshes its e-mail (a `NULL` one keeps the
/// old).
pub(crate) const REFRESH_EMAIL: &str =
    "ON CONFLICT (id) DO UPDATE SET email = COALESCE(excluded.email, customers.email)";

/// Creates the customer or refreshes its e-mail, on a connection already in use (so it can
/// share a transaction with the insert that needs the customer).
pub(crate) async fn upsert_customer_on<DB>(
    conn: &mut DB::Connection,
    id: &str,
    email: Option<&str>,
    now_ms: i64,
) -> StoreResult<Customer>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'q> Option<i64>: Encode<'q, DB>,
    for<'q> Option<String>: Encode<'q, DB>,
    for<'r> CustomerRow: FromRow<'r, DB::Row>,
{
    let sql = format!(
        "INSERT INTO customers (id, email, created_at) VALUES ($1, $2, $3) {REFRESH_EMAIL} \
         RETURNING id, email, created_at"
    );
    sqlx::query_as::<DB, CustomerRow>(&sql)
        .bind(id.to_owned())
        .bind(email.map(str::to_owned))
        .bind(now_ms)
        .fetch_one(conn)
        .await?
        .try_into()
}

#[async_trait]
impl<DB> CustomerStore for SqlStore<DB>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'q> Option<i64>: Encode<'q, DB>,
    for<'q> Option<String>: Encode<'q, DB>,
    for<'r> CustomerRow: FromRow<'r, DB::Row>,
    for<'r> SavedCardRow: FromRow<'r, DB::Row>,
    for<'r> SealedRow: FromRow<'r, DB::Row>,
    for<'r> CustomerIdRow: FromRow<'r, DB::Row>,
{
    async fn upsert_customer(&self, id: &str, email: Option<&str>) -> StoreResult<Customer> {
        let mut conn = self.pool.acquire().await?;
        let now = ms(OffsetDateTime::now_utc());
        upsert_customer_on::<DB>(&mut conn, id, email, now).await
    }

    async fn save_card(&self, card: NewSavedCard) -> StoreResult<SavedCardRecord> {
        let now = ms(OffsetDateTime::now_utc());
        let mut tx = self.pool.begin().await?;
        upsert_customer_on::<DB>(&mut tx, &card.customer_id, None, now).await?;
        let saved: Vec<SealedRow> = sqlx::query_as(
            "SELECT id, gateway_token AS stored FROM saved_cards WHERE customer_id = $1",
        )
        .bind(card.customer_id.clone())
        .fetch_all(&mut *tx)
        .await?;
        let mut same_token = None;
        for row in saved {
            let token = open_token(&self.keys, &row.stored, &row.id)?;
            if token.expose_secret() == card.gateway_token.expose_secret() {
                same_token = Some(row.id);
                break;
            }
        }
        // The billing address and the first six are those of the payment it is saved from;
        // saved again, a card keeps what the new payment does not say.
        let (again, new) = (
            format!("{SAVE_AGAIN} RETURNING {CARD_COLUMNS}"),
            format!("{SAVE_NEW} RETURNING {CARD_COLUMNS}"),
        );
        let row = match same_token {
            Some(id) => sqlx::query_as::<DB, SavedCardRow>(&again)
                .bind(id)
                .bind(card.customer_id),
            None => {
                let id = Uuid::new_v4().to_string();
                let token = seal_token(&self.keys, &card.gateway_token, &id)?;
                sqlx::query_as::<DB, SavedCardRow>(&new)
                    .bind(id)
                    .bind(card.customer_id)
                    .bind(token)
                    .bind(now)
            }
        }
        .bind(card.brand.id().to_owned())
        .bind(card.last4.as_str().to_owned())
        .bind(i64::from(card.expiry_month))
        .bind(i64::from(card.expiry_year))
        .bind(card.card_fingerprint)
        .bind(card.saved_from)
        .fetch_one(&mut *tx)
        .await?;
        tx.commit().await?;
        let card = row.open(&self.keys)?;
        self.cards.keep(&card.id, card.clone());
        Ok(card)
    }

    async fn list_cards(&self, customer_id: &str) -> StoreResult<Vec<SavedCardRecord>> {
        let sql = format!(
            "SELECT {CARD_COLUMNS} FROM saved_cards WHERE customer_id = $1 \
             ORDER BY created_at, id"
        );
        let rows: Vec<SavedCardRow> = sqlx::query_as(&sql)
            .bind(customer_id.to_owned())
            .fetch_all(&self.pool)
            .await?;
        let cards = rows
            .into_iter()
            .map(|row| row.open(&self.keys))
            .collect::<StoreResult<Vec<_>>>()?;
        for card in &cards {
            self.cards.keep(&card.id, card.clone());
        }
        Ok(cards)
    }

    async fn get_card(
        &self,
        customer_id: &str,
        card_id: &str,
    ) -> StoreResult<Option<SavedCardRecord>> {
        let sql =
            format!("SELECT {CARD_COLUMNS} FROM saved_cards WHERE customer_id = $1 AND id = $2");
        let card = sqlx::query_as::<DB, SavedCardRow>(&sql)
            .bind(customer_id.to_owned())
            .bind(card_id.to_owned())
            .fetch_optional(&self.pool)
            .await?
            .map(|row| row.open(&self.keys))
            .transpose()?;
        match &card {
            Some(card) => self.cards.keep(card_id, card.clone()),
            None => self.cards.forget(card_id),
        }
        Ok(card)
    }

    async fn delete_card(&self, customer_id: &str, card_id: &str) -> StoreResult<bool> {
        let deleted = sqlx::query_as::<DB, CustomerIdRow>(
            "DELETE FROM saved_cards WHERE customer_id = $1 AND id = $2 RETURNING customer_id",
        )
        .bind(customer_id.to_owned())
        .bind(card_id.to_owned())
        .fetch_optional(&self.pool)
        .await?;
        self.cards.forget(card_id);
        Ok(deleted.is_some())
    }

    async fn create_customer_token(&self, token: NewCustomerToken) -> StoreResult<()> {
        let now = ms(OffsetDateTime::now_utc());
        let mut tx = self.pool.begin().await?;
        upsert_customer_on::<DB>(&mut tx, &token.customer_id, None, now).await?;
        sqlx::query(
            "INSERT INTO customer_tokens (token_hash, customer_id, created_at, expires_at) \
             VALUES ($1, $2, $3, $4)",
        )
        .bind(token.token_hash.to_hex())
        .bind(token.customer_id)
        .bind(now)
        .bind(ms(token.expires_at))
        .execute(&mut *tx)
        .await
        .map_err(|e| StoreError::on_unique(e, "customer token"))?;
        tx.commit().await?;
        Ok(())
    }

    async fn customer_for_token(
        &self,
        presented: &str,
        now: OffsetDateTime,
    ) -> StoreResult<Option<String>> {
        let row = sqlx::query_as::<DB, CustomerIdRow>(
            "SELECT customer_id FROM customer_tokens WHERE token_hash = $1 AND expires_at > $2",
        )
        .bind(SecretHash::of(presented).to_hex())
        .bind(ms(now))
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|r| r.customer_id))
    }

    async fn revoke_customer_token(&self, presented: &str) -> StoreResult<bool> {
        let deleted = sqlx::query_as::<DB, CustomerIdRow>(
            "DELETE FROM customer_tokens WHERE token_hash = $1 RETURNING customer_id",
        )
        .bind(SecretHash::of(presented).to_hex())
        .fetch_optional(&self.pool)
        .await?;
        Ok(deleted.is_some())
    }
}
