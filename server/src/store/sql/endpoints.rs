//! The shop's webhook endpoints: their rows, and creating, changing, rotating and deleting them.
//! Signing secrets are sealed on the way in and opened on the way out ([`crate::store::sealed`]).

use secrecy::{ExposeSecret as _, SecretString};
use sqlx::{Encode, Executor, FromRow, IntoArguments, Pool, Type};
use time::OffsetDateTime;

use super::Dialect;
use super::codec::{ms, ms_opt, time, time_opt};
use super::sealed_columns::SealedRow;
use crate::store::error::{StoreError, StoreResult};
use crate::store::model::{
    EndpointStatus, EndpointUpdate, EventTypes, MAX_ENDPOINTS, NewEndpoint, WebhookEndpoint,
};
use crate::store::sealed::{Binding, KeyRing};

/// Columns of [`EndpointRow`].
pub(crate) const ENDPOINT_COLUMNS: &str = "id, url, description, event_types, secret, \
     previous_secret, previous_until, status, disabled_reason, failing_since, created_at, \
     updated_at";

#[derive(FromRow)]
pub(crate) struct EndpointRow {
    id: String,
    url: String,
    description: Option<String>,
    event_types: String,
    secret: String,
    previous_secret: Option<String>,
    previous_until: Option<i64>,
    status: String,
    disabled_reason: Option<String>,
    failing_since: Option<i64>,
    created_at: i64,
    updated_at: i64,
}

impl EndpointRow {
    /// The endpoint this row holds, its secrets opened with `keys`.
    pub(crate) fn open(self, keys: &KeyRing) -> StoreResult<WebhookEndpoint> {
        let row = self;
        let binding = Binding::endpoint_secret(&row.id);
        let open = |stored: &str, column| {
            keys.open(stored, &binding)
                .map_err(|source| StoreError::Sealed { column, source })
        };
        Ok(WebhookEndpoint {
            event_types: parse_types(&row.event_types).ok_or(StoreError::Corrupt("event_types"))?,
            status: match row.status.as_str() {
                "enabled" => EndpointStatus::Enabled,
                "disabled" => EndpointStatus::Disabled,
                _ => return Err(StoreError::Corrupt("status")),
            },
            secret: open(&row.secret, "webhook_endpoints.secret")?,
            previous_secret: row
                .previous_secret
                .as_deref()
                .map(|stored| open(stored, "webhook_endpoints.previous_secret"))
                .transpose()?,
            previous_until: time_opt(row.previous_until, "previous_until")?,
            failing_since: time_opt(row.failing_since, "failing_since")?,
            created_at: time(row.created_at, "created_at")?,
            updated_at: time(row.updated_at, "updated_at")?,
            id: row.id,
            url: row.url,
            description: row.description,
            disabled_reason: row.disabled_reason,
        })
    }
}

/// The stored form of `types`: `*`, or `,a,b,` (so a type matches with `LIKE '%,type,%'`).
pub(crate) fn types_text(types: &EventTypes) -> String {
    match types {
        EventTypes::All => "*".to_owned(),
        EventTypes::Only(kinds) => format!(",{},", kinds.join(",")),
    }
}

fn parse_types(text: &str) -> Option<EventTypes> {
    if text == "*" {
        return Some(EventTypes::All);
    }
    let kinds: Vec<String> = text
        .strip_prefix(',')?
        .strip_suffix(',')?
        .split(',')
        .map(str::to_owned)
        .collect();
    (!kinds.iter().any(String::is_empty)).then_some(EventTypes::Only(kinds))
}

fn status_name(status: EndpointStatus) -> &'static str {
    match status {
        EndpointStatus::Enabled => "enabled",
        EndpointStatus::Disabled => "disabled",
    }
}

/// Inserts `new`, enabled.
pub(crate) async fn create<DB>(
    pool: &Pool<DB>,
    keys: &KeyRing,
    new: NewEndpoint,
) -> StoreResult<WebhookEndpoint>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'q> Option<String>: Encode<'q, DB>,
    for<'r> EndpointRow: FromRow<'r, DB::Row>,
{
    let now = ms(OffsetDateTime::now_utc());
    let secret = seal(keys, &new.secret, &new.id)?;
    // The count and the insert in one statement: SQLite's one writer makes the limit exact;
    // on Postgres two creates at the same instant could both pass it.
    sqlx::query_as::<DB, EndpointRow>(&format!(
        "INSERT INTO webhook_endpoints (id, url, description, event_types, secret, status, \
         created_at, updated_at) SELECT $1, $2, $3, $4, $5, 'enabled', $6, $6 \
         WHERE (SELECT COUNT(*) FROM webhook_endpoints) < {MAX_ENDPOINTS} \
         RETURNING {ENDPOINT_COLUMNS}"
    ))
    .bind(new.id)
    .bind(new.url)
    .bind(new.description)
    .bind(types_text(&new.event_types))
    .bind(secret)
    .bind(now)
    .fetch_optional(pool)
    .await
    .map_err(|e| StoreError::on_unique(e, "webhook endpoint id"))?
    .ok_or(StoreError::AtLimit {
        what: "webhook_endpoints",
        limit: MAX_ENDPOINTS,
    })?
    .open(keys)
}

/// The endpoint `id`.
pub(crate) async fn get<DB>(
    pool: &Pool<DB>,
    keys: &KeyRing,
    id: &str,
) -> StoreResult<Option<WebhookEndpoint>>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'r> EndpointRow: FromRow<'r, DB::Row>,
{
    let sql = format!("SELECT {ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = $1");
    sqlx::query_as::<DB, EndpointRow>(&sql)
        .bind(id.to_owned())
        .fetch_optional(pool)
        .await?
        .map(|row| row.open(keys))
        .transpose()
}

/// Every endpoint, oldest first.
pub(crate) async fn list<DB>(pool: &Pool<DB>, keys: &KeyRing) -> StoreResult<Vec<WebhookEndpoint>>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'r> EndpointRow: FromRow<'r, DB::Row>,
{
    sqlx::query_as::<DB, EndpointRow>(&format!(
        "SELECT {ENDPOINT_COLUMNS} FROM webhook_endpoints ORDER BY created_at, id"
    ))
    .fetch_all(pool)
    .await?
    .into_iter()
    .map(|row| row.open(keys))
    .collect()
}

/// Applies `update` to endpoint `id` in one statement (a field left `None` keeps its value).
pub(crate) async fn update<DB>(
    pool: &Pool<DB>,
    keys: &KeyRing,
    id: &str,
    update: EndpointUpdate,
) -> StoreResult<Option<WebhookEndpoint>>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'q> Option<i64>: Encode<'q, DB>,
    for<'q> Option<String>: Encode<'q, DB>,
    for<'r> EndpointRow: FromRow<'r, DB::Row>,
{
    let (status, reason) = match update.status {
        Some((status, reason)) => (Some(status_name(status).to_owned()), reason),
        None => (None, None),
    };
    // Enabling clears the failure record, so a fixed endpoint is not disabled again at once.
    let sql = format!(
        "UPDATE webhook_endpoints SET url = COALESCE($2, url), \
         description = CASE WHEN $3 = 1 THEN $4 ELSE description END, \
         event_types = COALESCE($5, event_types), status = COALESCE($6, status), \
         disabled_reason = CASE WHEN $6 IS NULL THEN disabled_reason \
             WHEN $6 = 'enabled' THEN NULL ELSE $7 END, \
         failing_since = CASE WHEN $6 = 'enabled' THEN NULL ELSE failing_since END, \
         updated_at = $8 WHERE id = $1 RETURNING {ENDPOINT_COLUMNS}"
    );
    sqlx::query_as::<DB, EndpointRow>(&sql)
        .bind(id.to_owned())
        .bind(update.url)
        .bind(i64::from(update.description.is_some()))
        .bind(update.description.flatten())
        .bind(update.event_types.as_ref().map(types_text))
        .bind(status)
        .bind(reason)
        .bind(ms(OffsetDateTime::now_utc()))
        .fetch_optional(pool)
        .await?
        .map(|row| row.open(keys))
        .transpose()
}

/// Replaces endpoint `id`'s secret, keeping the old one as the previous until `previous_until`
/// (the sealed value moves as it is: both columns share the row's [`Binding`]). An old secret
/// no configured key opens is dropped instead.
pub(crate) async fn rotate<DB>(
    pool: &Pool<DB>,
    keys: &KeyRing,
    id: &str,
    secret: &SecretString,
    previous_until: OffsetDateTime,
) -> StoreResult<Option<WebhookEndpoint>>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'q> Option<i64>: Encode<'q, DB>,
    for<'r> EndpointRow: FromRow<'r, DB::Row>,
    for<'r> SealedRow: FromRow<'r, DB::Row>,
{
    // The secret replaced keeps signing only if it still opens: one sealed under a key no
    // longer configured (a lost SECRETS_KEY) is dropped, so a rotation is how such an
    // endpoint recovers.
    let current = sqlx::query_as::<DB, SealedRow>(
        "SELECT id, secret AS stored FROM webhook_endpoints WHERE id = $1",
    )
    .bind(id.to_owned())
    .fetch_optional(pool)
    .await?;
    let Some(current) = current else {
        return Ok(None);
    };
    let readable = keys
        .open(&current.stored, &Binding::endpoint_secret(id))
        .is_ok();
    sqlx::query_as::<DB, EndpointRow>(&format!(
        "UPDATE webhook_endpoints SET \
         previous_secret = CASE WHEN $5 = 1 THEN secret ELSE NULL END, \
         previous_until = CASE WHEN $5 = 1 THEN $3 ELSE NULL END, \
         secret = $2, updated_at = $4 WHERE id = $1 RETURNING {ENDPOINT_COLUMNS}"
    ))
    .bind(id.to_owned())
    .bind(seal(keys, secret, id)?)
    .bind(ms_opt(Some(previous_until)))
    .bind(ms(OffsetDateTime::now_utc()))
    .bind(i64::from(readable))
    .fetch_optional(pool)
    .await?
    .map(|row| row.open(keys))
    .transpose()
}

/// `secret` sealed for endpoint `id`'s row.
fn seal(keys: &KeyRing, secret: &SecretString, id: &str) -> StoreResult<String> {
    keys.seal(secret.expose_secret(), &Binding::endpoint_secret(id))
        .map_err(|source| StoreError::Sealed {
            column: "webhook_endpoints.secret",
            source,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_types_round_trip() {
        for types in [
            EventTypes::All,
            EventTypes::Only(vec!["payment.captured".into()]),
            EventTypes::Only(vec!["payment.captured".into(), "payment.refunded".into()]),
        ] {
            assert_eq!(parse_types(&types_text(&types)), Some(types));
        }
        assert_eq!(parse_types(",,"), None);
        assert_eq!(parse_types("payment.captured"), None);
    }
}
