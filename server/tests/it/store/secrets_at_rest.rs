//! What the payments table keeps of a payment's secrets and unconfirmed ids: the webhook path
//! secret only as its SHA-256 (a token written in plain by an older version is hashed when the
//! store opens), and a transaction id nobody confirmed only as a hint, apart from the
//! payment's gateway id.

use checkout_server::store::prelude::*;
use secrecy::ExposeSecret as _;

use super::{Raw, TestDb, new_payment, pending_payment};

store_suite!(
    the_webhook_token_is_kept_only_as_its_hash,
    a_plain_token_of_an_older_version_is_hashed_on_opening,
    a_hint_is_kept_apart_and_a_confirmed_id_replaces_it,
);

/// Deletes every record of a finished conversion, as in a database from before they were
/// recorded.
async fn forget_conversions(raw: &Raw) {
    raw.execute("DELETE FROM data_conversions").await;
}

/// The `webhook_token_hash` column of payment `id`.
pub async fn stored_token(raw: &Raw, id: &str) -> String {
    let sql = "SELECT webhook_token_hash FROM payments WHERE id = $1";
    match raw {
        Raw::Sqlite { pool, .. } => sqlx::query_scalar(sql).bind(id).fetch_one(pool).await,
        Raw::Postgres { pool, .. } => sqlx::query_scalar(sql).bind(id).fetch_one(pool).await,
    }
    .expect("token column readable")
}

async fn the_webhook_token_is_kept_only_as_its_hash(db: &TestDb) {
    let payment = new_payment(db, 1000).await;
    let token = payment
        .webhook_token
        .as_ref()
        .expect("a payment just recorded carries its path secret")
        .expose_secret()
        .to_owned();
    let stored = stored_token(&db.raw, &payment.id).await;
    assert_ne!(stored, token);
    assert!(!stored.contains(&token));
    assert_eq!(stored, SecretHash::of(&token).to_hex());
    let read = db.store.get_payment(&payment.id).await.unwrap().unwrap();
    assert!(read.webhook_token.is_none());
    assert!(read.verify_webhook_token(&token));
}

/// Writes `plain` as payment `id`'s webhook token, as a version before migration 0002 did.
pub async fn write_plain_token(raw: &Raw, id: &str, plain: &str) {
    let sql = "UPDATE payments SET webhook_token_hash = $1 WHERE id = $2";
    match raw {
        Raw::Sqlite { pool, .. } => sqlx::query(sql)
            .bind(plain)
            .bind(id)
            .execute(pool)
            .await
            .map(drop),
        Raw::Postgres { pool, .. } => sqlx::query(sql)
            .bind(plain)
            .bind(id)
            .execute(pool)
            .await
            .map(drop),
    }
    .expect("an older version's row");
}

async fn a_plain_token_of_an_older_version_is_hashed_on_opening(db: &TestDb) {
    let payment = new_payment(db, 1000).await;
    let plain = generate_token("");
    let plain = plain.expose_secret();
    write_plain_token(&db.raw, &payment.id, plain).await;
    // An older version's database has no record of the conversion either.
    forget_conversions(&db.raw).await;
    let reopened = db.second_instance().await;
    assert_eq!(
        stored_token(&db.raw, &payment.id).await,
        SecretHash::of(plain).to_hex()
    );
    let read = reopened.get_payment(&payment.id).await.unwrap().unwrap();
    assert!(
        read.verify_webhook_token(plain),
        "its webhook URL still works"
    );
    reopened.close().await;
}

async fn a_hint_is_kept_apart_and_a_confirmed_id_replaces_it(db: &TestDb) {
    let payment = pending_payment(db, 1000).await;
    let store = &db.store;
    assert!(
        store
            .keep_transaction_hint(&payment.id, "planted", false)
            .await
            .unwrap()
    );
    assert!(
        !store
            .keep_transaction_hint(&payment.id, "second", false)
            .await
            .unwrap(),
        "a return visit's hint only fills an empty place"
    );
    let read = store.get_payment(&payment.id).await.unwrap().unwrap();
    assert_eq!(read.transaction_hint.as_deref(), Some("planted"));
    assert_eq!(
        read.gateway_transaction_id, None,
        "a hint is never the payment's id"
    );
    assert!(
        store
            .keep_transaction_hint(&payment.id, "webhook", true)
            .await
            .unwrap()
    );
    assert!(
        !store
            .drop_transaction_hint(&payment.id, "planted")
            .await
            .unwrap()
    );
    assert!(
        store
            .drop_transaction_hint(&payment.id, "webhook")
            .await
            .unwrap()
    );
    store
        .keep_transaction_hint(&payment.id, "planted", false)
        .await
        .unwrap();
    assert!(
        store
            .note_gateway_transaction(&payment.id, "confirmed")
            .await
            .unwrap()
    );
    let read = store.get_payment(&payment.id).await.unwrap().unwrap();
    assert_eq!(read.gateway_transaction_id.as_deref(), Some("confirmed"));
    assert_eq!(
        read.transaction_hint, None,
        "the confirmed id replaced the hint"
    );
    assert!(
        !store
            .keep_transaction_hint(&payment.id, "late", true)
            .await
            .unwrap(),
        "no hint once the id is known"
    );
}
