//! Recording a new payment: the plain insert, and the pay call's claim-and-insert, where the
//! session's pay claim (an idempotency record, see `payments::claim`) and the payment that
//! holds it are written together in one round trip ([`super::one_trip`]), with the try's
//! card-testing counts when the pay call asks for them ([`super::counted_claim`]).

use checkout::contract::PaymentState;
use secrecy::{ExposeSecret as _, SecretString};
use sqlx::query::QueryAs;
use sqlx::{Encode, Executor, FromRow, IntoArguments, Type};
use time::OffsetDateTime;
use uuid::Uuid;

use super::codec::{int, ms};
use super::one_trip::{OneTrip, fetch_atomic, transaction_script};
use super::rows::{PAYMENT_COLUMNS, PaymentRow};
use super::{Dialect, SqlStore};
use crate::store::error::{StoreError, StoreResult};
use crate::store::model::{IdempotencyKey, NewPayment, Payment};
use crate::store::secret::{BodyDigest, SecretHash, generate_token};
use crate::store::transitions::state_name;

/// The claim's insert: `$25` scope, `$26` key, `$27` digest, created now (`$19`). It inserts
/// nothing when the claim is already held, when the session (`$2`) is paid (its keeper is
/// set: migration 0026), and when a payment with a saved card (`$14`) names a card that is no
/// longer the customer's (`$3`) exactly as the payment describes it (`$9`, `$11`..`$13`):
/// deleted, or saved again with other details, since the caller read it (perhaps from memory,
/// see `recent`). The session row is read with `lock` ([`Dialect::FOR_SHARE`]), so a claim
/// waits for a keeper being written at that moment and then sees it.
fn insert_claim(lock: &str) -> String {
    format!(
        "INSERT INTO idempotency_records \
         (scope, key, request_digest, status, created_at) SELECT $25, $26, $27, 'in_progress', $19 \
         FROM checkout_sessions WHERE id = $2 AND paid_by IS NULL \
         AND ($14 IS NULL OR EXISTS (SELECT 1 FROM saved_cards WHERE id = $14 \
             AND customer_id = $3 AND brand = $9 AND last4 = $11 AND expiry_month = $12 \
             AND expiry_year = $13)) {lock} \
         ON CONFLICT (scope, key) DO NOTHING"
    )
}

/// The attempt number of a payment being inserted into session `$2`: one more than the
/// session's payments so far (payments of a session are recorded one at a time, under its pay
/// claim).
const ATTEMPT_NUMBER: &str =
    "(SELECT COUNT(*) + 1 FROM payments AS earlier WHERE earlier.session_id = $2)";

/// The payment link of the session `$2` a payment is being inserted into: copied onto the
/// payment, whose insert then takes one of the link's places (migration 0038's trigger).
const SESSION_LINK: &str = "(SELECT payment_link_id FROM checkout_sessions WHERE id = $2)";

/// Columns an insert of a new payment sets, in the order of [`new_payment_values`].
pub(crate) const NEW_PAYMENT_COLUMNS: &str = "id, session_id, customer_id, kind, state, amount, \
     currency, merchant_txn_ref, card_brand, card_bin, card_last4, card_expiry_month, \
     card_expiry_year, saved_card_id, webhook_token_hash, review_deadline, next_check_at, \
     pending_since, created_at, updated_at, save_card, card_fingerprint, client_key, \
     shopper_email, save_card_billing, attempt_number, payment_link_id";
/// The values of [`NEW_PAYMENT_COLUMNS`], from the parameters [`bind_new_payment`] binds
/// (`$19` is now). The reference the gateway sees (`merchant_txn_ref`) is the session's (`$8`)
/// with `-<attempt number>` appended, so the gateway's reports tell a session's attempts
/// apart; a reference too long for that within the gateway's 45 characters keeps its first
/// characters.
pub(crate) fn new_payment_values() -> String {
    let number = format!("CAST({ATTEMPT_NUMBER} AS TEXT)");
    format!(
        "$1, $2, $3, $4, $5, $6, $7, substr($8, 1, 44 - length({number})) || '-' || {number}, \
         $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $19, $20, $21, $22, $23, $24, \
         {ATTEMPT_NUMBER}, {SESSION_LINK}"
    )
}

/// A query returning rows of `R`.
pub(crate) type RowQueryAs<'q, DB, R> = QueryAs<'q, DB, R, <DB as sqlx::Database>::Arguments<'q>>;

/// Inserts `new` in its first state: `created`, or `pending` (then `pending_since` is now).
pub(crate) async fn insert_payment<DB>(
    pool: &sqlx::Pool<DB>,
    new: NewPayment,
    state: PaymentState,
) -> StoreResult<Payment>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'q> Option<i64>: Encode<'q, DB>,
    for<'q> Option<String>: Encode<'q, DB>,
    for<'r> PaymentRow: FromRow<'r, DB::Row>,
{
    let sql = format!(
        "INSERT INTO payments ({NEW_PAYMENT_COLUMNS}) VALUES ({}) RETURNING {PAYMENT_COLUMNS}",
        new_payment_values()
    );
    let now = ms(OffsetDateTime::now_utc());
    let token = generate_token("");
    let row = bind_new_payment(
        sqlx::query_as::<DB, PaymentRow>(&sql),
        new,
        state,
        now,
        &token,
    )?
    .fetch_one(pool)
    .await?;
    with_token(row.try_into()?, token)
}

/// `payment` as just recorded, carrying the webhook path secret the store kept only as a hash.
pub(crate) fn with_token(mut payment: Payment, token: SecretString) -> StoreResult<Payment> {
    payment.webhook_token = Some(token);
    Ok(payment)
}

/// Binds `$1..$24` of [`new_payment_values`]: `new` in its first state, `created` or
/// `pending` (then `pending_since` is `now_ms`). The store assigns the id; of the webhook
/// path secret `token` it keeps only the hash.
pub(crate) fn bind_new_payment<'q, DB, R>(
    query: RowQueryAs<'q, DB, R>,
    new: NewPayment,
    state: PaymentState,
    now_ms: i64,
    token: &SecretString,
) -> StoreResult<RowQueryAs<'q, DB, R>>
where
    DB: Dialect,
    for<'a> i64: Encode<'a, DB> + Type<DB>,
    for<'a> String: Encode<'a, DB> + Type<DB>,
    for<'a> Option<i64>: Encode<'a, DB>,
    for<'a> Option<String>: Encode<'a, DB>,
{
    if !matches!(state, PaymentState::Created | PaymentState::Pending) {
        return Err(StoreError::Invalid {
            field: "state",
            reason: "a payment starts created or pending",
        });
    }
    let card = new.card.as_ref();
    let save_card_billing = new
        .save_card_billing
        .as_ref()
        .map(serde_json::to_string)
        .transpose()
        .map_err(|_| StoreError::Invalid {
            field: "save_card_billing",
            reason: "not serialisable",
        })?;
    Ok(query
        .bind(Uuid::new_v4().to_string())
        .bind(new.session_id)
        .bind(new.customer_id)
        .bind(new.kind.as_str().to_owned())
        .bind(state_name(state).to_owned())
        .bind(int(new.amount, "amount")?)
        .bind(new.currency)
        .bind(new.merchant_txn_ref)
        .bind(card.map(|c| c.brand.id().to_owned()))
        .bind(
            card.and_then(|c| c.bin.as_ref())
                .map(|b| b.as_str().to_owned()),
        )
        .bind(card.map(|c| c.last4.as_str().to_owned()))
        .bind(card.map(|c| i64::from(c.expiry_month)))
        .bind(card.map(|c| i64::from(c.expiry_year)))
        .bind(new.saved_card_id)
        .bind(SecretHash::of(token.expose_secret()).to_hex())
        .bind(ms(new.review_deadline))
        .bind(ms(new.next_check_at))
        .bind((state == PaymentState::Pending).then_some(now_ms))
        .bind(now_ms)
        .bind(i64::from(new.save_card))
        .bind(new.risk.card_fingerprint)
        .bind(new.risk.client_key)
        .bind(new.risk.shopper_email)
        .bind(save_card_billing))
}

/// The claim-and-insert as one round trip on `DB` ([`OneTrip`]), answering the payment's row
/// (none when the claim was not taken). With `counts` (the try's counts as a table of one row,
/// given the text standing for the payment's session: [`super::counted_claim`]), the row
/// carries them too, read after the payment is inserted: on Postgres the counts are joined
/// laterally to the inserted row, so they are read once it exists; on SQLite a third
/// statement of the script reads the payment back (by its id, `$1`) beside them.
pub(super) fn claim_and_insert_sql<DB: Dialect>(counts: Option<&dyn Fn(&str) -> String>) -> String {
    let claim = insert_claim(DB::FOR_SHARE);
    let insert = format!(
        "INSERT INTO payments ({NEW_PAYMENT_COLUMNS}) SELECT {}",
        new_payment_values()
    );
    match (DB::ONE_TRIP, counts) {
        // The payment is selected from the claim's RETURNING: no claim, no payment.
        (OneTrip::Cte, None) => format!(
            "WITH claim AS ({claim} RETURNING key) {insert} FROM claim RETURNING {PAYMENT_COLUMNS}"
        ),
        (OneTrip::Cte, Some(counts)) => format!(
            "WITH claim AS ({claim} RETURNING key), \
             paid AS ({insert} FROM claim RETURNING {PAYMENT_COLUMNS}) \
             SELECT paid.*, counts.* FROM paid CROSS JOIN LATERAL {} AS counts",
            counts("paid.session_id")
        ),
        // `changes()` is what the claim's insert changed: 0 when the claim was held.
        (OneTrip::Transaction, None) => transaction_script(&[
            &claim,
            &format!("{insert} WHERE changes() = 1 RETURNING {PAYMENT_COLUMNS}"),
        ]),
        (OneTrip::Transaction, Some(counts)) => transaction_script(&[
            &claim,
            &format!("{insert} WHERE changes() = 1"),
            &format!(
                "SELECT {PAYMENT_COLUMNS}, counts.* FROM payments CROSS JOIN {} AS counts \
                 WHERE payments.id = $1",
                counts("$2")
            ),
        ]),
    }
}

/// `query` ([`claim_and_insert_sql`]) with `$1..$27` bound: `new`, pending from now, and the
/// claim; with the webhook path secret generated for the payment.
pub(super) fn bind_claim_and_insert<'q, DB, R>(
    query: RowQueryAs<'q, DB, R>,
    claim: &IdempotencyKey,
    digest: &BodyDigest,
    new: NewPayment,
) -> StoreResult<(RowQueryAs<'q, DB, R>, SecretString)>
where
    DB: Dialect,
    for<'a> i64: Encode<'a, DB> + Type<DB>,
    for<'a> String: Encode<'a, DB> + Type<DB>,
    for<'a> Option<i64>: Encode<'a, DB>,
    for<'a> Option<String>: Encode<'a, DB>,
{
    let now = ms(OffsetDateTime::now_utc());
    let token = generate_token("");
    let query = bind_new_payment(query, new, PaymentState::Pending, now, &token)?
        .bind(claim.scope().to_owned())
        .bind(claim.key().to_owned())
        .bind(digest.as_hex().to_owned());
    Ok((query, token))
}

/// [`PaymentStore::claim_and_create_pending_payment`](crate::store::traits::PaymentStore::claim_and_create_pending_payment).
pub(crate) async fn claim_and_insert_pending<DB>(
    store: &SqlStore<DB>,
    claim: &IdempotencyKey,
    digest: &BodyDigest,
    new: NewPayment,
) -> StoreResult<Option<Payment>>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'q> Option<i64>: Encode<'q, DB>,
    for<'q> Option<String>: Encode<'q, DB>,
    for<'r> PaymentRow: FromRow<'r, DB::Row>,
{
    let sql = claim_and_insert_sql::<DB>(None);
    let (query, token) =
        bind_claim_and_insert(sqlx::query_as::<DB, PaymentRow>(&sql), claim, digest, new)?;
    fetch_atomic(store, query)
        .await?
        .into_iter()
        .next()
        .map(|row| with_token(row.try_into()?, token))
        .transpose()
}
