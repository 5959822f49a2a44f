//! Checkout sessions, alone or (for the pay call) with the saved card the shopper chose.
//! Sessions never change once written, so each is kept in memory after it is written or read
//! ([`super::recent`]), and so is the saved card read with one. The one column that does
//! change, the keeper (written once, when the session is paid: migration 0026), is not part
//! of that record and is always read from the database ([`SessionStore::session_keeper`]).

use async_trait::async_trait;
use sqlx::{Encode, Executor, FromRow, IntoArguments, Type};
use time::OffsetDateTime;

use super::cards::{JOINED_CARD_COLUMNS, JoinedCardRow, REFRESH_EMAIL};
use super::codec::{int, ms, time};
use super::one_trip::{OneTrip, fetch_atomic, transaction_script};
use super::rows::{SESSION_COLUMNS, SessionRow};
use super::{Dialect, SqlStore};
use crate::store::error::{StoreError, StoreResult};
use crate::store::model::{NewSession, SavedCardRecord, Session, SessionKeeper};
use crate::store::traits::SessionStore;

/// The session's customer (`$7`, e-mail `$8`, now `$11`), created or its e-mail refreshed;
/// nothing when the session names none. Runs with the session's insert in one round trip
/// ([`super::one_trip`]).
fn upsert_session_customer() -> String {
    format!(
        "INSERT INTO customers (id, email, created_at) SELECT $7, $8, $11 \
         WHERE $7 IS NOT NULL {REFRESH_EMAIL}"
    )
}

/// A session and the card a `LEFT JOIN` found for it.
#[derive(FromRow)]
pub(crate) struct SessionCardRow {
    #[sqlx(flatten)]
    session: SessionRow,
    #[sqlx(flatten)]
    card: JoinedCardRow,
}

#[async_trait]
impl<DB> SessionStore for SqlStore<DB>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'q> Option<i64>: Encode<'q, DB>,
    for<'q> Option<String>: Encode<'q, DB>,
    for<'r> SessionRow: FromRow<'r, DB::Row>,
    for<'r> SessionCardRow: FromRow<'r, DB::Row>,
    for<'r> KeeperRow: FromRow<'r, DB::Row>,
{
    async fn create_session(&self, new: NewSession) -> StoreResult<Session> {
        new.validate()?;
        let insert = format!(
            "INSERT INTO checkout_sessions ({SESSION_COLUMNS}) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) \
             RETURNING {SESSION_COLUMNS}"
        );
        let sql = match DB::ONE_TRIP {
            OneTrip::Cte => format!("WITH customer AS ({}) {insert}", upsert_session_customer()),
            OneTrip::Transaction => transaction_script(&[&upsert_session_customer(), &insert]),
        };
        let link = new.link.clone();
        let query = sqlx::query_as::<DB, SessionRow>(&sql)
            .bind(new.id)
            .bind(new.client_secret_hash.to_hex())
            .bind(int(new.amount, "amount")?)
            .bind(new.currency)
            .bind(new.reference)
            .bind(new.capture_mode.as_str().to_owned())
            .bind(new.customer_id)
            .bind(new.email)
            .bind(new.plan_id)
            .bind(new.description)
            .bind(ms(OffsetDateTime::now_utc()))
            .bind(ms(new.expires_at))
            .bind(link.as_ref().map(|l| l.payment_link_id.clone()))
            .bind(link.as_ref().and_then(|l| l.payer_reference.clone()))
            .bind(link.map(|l| l.receipt_id));
        let row = fetch_atomic(self, query)
            .await?
            .into_iter()
            .next()
            .ok_or(StoreError::Corrupt("checkout session"))?;
        let session = Session::try_from(row)?;
        self.sessions.keep(&session.id, session.clone());
        Ok(session)
    }

    async fn get_session(&self, id: &str) -> StoreResult<Option<Session>> {
        if let Some(session) = self.sessions.get(id) {
            return Ok(Some(session));
        }
        // Every browser call's first statement: on a hot connection (see `hot`).
        let sql = format!("SELECT {SESSION_COLUMNS} FROM checkout_sessions WHERE id = $1");
        let found = self
            .fetch_optional_hot(sqlx::query_as::<DB, SessionRow>(&sql).bind(id.to_owned()))
            .await?
            .map(Session::try_from)
            .transpose()?;
        if let Some(session) = &found {
            self.sessions.keep(id, session.clone());
        }
        Ok(found)
    }

    async fn get_session_with_card(
        &self,
        id: &str,
        card_id: &str,
    ) -> StoreResult<Option<(Session, Option<SavedCardRecord>)>> {
        if let (Some(session), Some(card)) = (self.sessions.get(id), self.cards.get(card_id)) {
            let owned = session.customer_id.as_ref() == Some(&card.customer_id);
            return Ok(Some((session, owned.then_some(card))));
        }
        // The card's columns are renamed, so the session's need no qualifier.
        let sql = format!(
            "SELECT {SESSION_COLUMNS}, card.* FROM checkout_sessions \
             LEFT JOIN (SELECT {JOINED_CARD_COLUMNS} FROM saved_cards WHERE id = $2) AS card \
             ON card.sc_customer_id = checkout_sessions.customer_id \
             WHERE checkout_sessions.id = $1"
        );
        // The pay call's first statement: on a hot connection (see `hot`).
        let query = sqlx::query_as::<DB, SessionCardRow>(&sql)
            .bind(id.to_owned())
            .bind(card_id.to_owned());
        let Some(row) = self.fetch_optional_hot(query).await? else {
            return Ok(None);
        };
        let session = Session::try_from(row.session)?;
        let card = row.card.into_card(&self.keys)?;
        self.sessions.keep(id, session.clone());
        if let Some(card) = &card {
            self.cards.keep(card_id, card.clone());
        }
        Ok(Some((session, card)))
    }

    async fn session_keeper(&self, id: &str) -> StoreResult<Option<SessionKeeper>> {
        let row = sqlx::query_as::<DB, KeeperRow>(
            "SELECT paid_by, paid_at FROM checkout_sessions WHERE id = $1 AND paid_by IS NOT NULL",
        )
        .bind(id.to_owned())
        .fetch_optional(&self.pool)
        .await?;
        row.map(|row| {
            Ok(SessionKeeper {
                payment_id: row.paid_by,
                paid_at: time(row.paid_at, "paid_at")?,
            })
        })
        .transpose()
    }
}

/// A session's keeper columns (migration 0026).
#[derive(FromRow)]
pub(crate) struct KeeperRow {
    paid_by: String,
    paid_at: i64,
}
