//! Opening the store runs the data conversions that follow the migrations once: the look for
//! plain webhook tokens (it reads every payment) is recorded in `data_conversions` when done,
//! and a later start does not read the payments table for it again.

use checkout_server::store::prelude::*;
use secrecy::ExposeSecret as _;

use super::secrets_at_rest::{stored_token, write_plain_token};
use super::{Raw, TestDb, new_payment};

store_suite!(the_token_conversion_is_recorded_and_not_run_again);

/// The conversions recorded as done.
async fn recorded(raw: &Raw) -> Vec<String> {
    let sql = "SELECT name FROM data_conversions ORDER BY name";
    match raw {
        Raw::Sqlite { pool, .. } => sqlx::query_scalar(sql).fetch_all(pool).await,
        Raw::Postgres { pool, .. } => sqlx::query_scalar(sql).fetch_all(pool).await,
    }
    .expect("data_conversions readable")
}

async fn the_token_conversion_is_recorded_and_not_run_again(db: &TestDb) {
    assert_eq!(recorded(&db.raw).await, ["webhook_tokens_hashed"]);
    // Nothing writes a plain token any more; one written behind the store's back after the
    // record shows that a start no longer looks.
    let payment = new_payment(db, 1000).await;
    let plain = generate_token("");
    write_plain_token(&db.raw, &payment.id, plain.expose_secret()).await;
    let reopened = db.second_instance().await;
    assert_eq!(
        stored_token(&db.raw, &payment.id).await,
        plain.expose_secret(),
        "the payments table was not read again"
    );
    reopened.close().await;
    assert_eq!(recorded(&db.raw).await, ["webhook_tokens_hashed"]);
}
