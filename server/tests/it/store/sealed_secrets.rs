//! Webhook signing secrets and staff TOTP keys at rest: the columns hold only sealed values
//! (`v1.<key id>.<nonce>.<ciphertext>`), never the secret itself, so a dump of the database
//! signs nothing and passes no second factor; a value copied to another row does not open, a
//! wrong key is an error naming the column. The helpers here serve sealed_secrets_rotation.rs
//! and sealed_card_tokens.rs too.

use std::sync::Arc;

use checkout_server::dashboard::auth::totp::matching_step;
use checkout_server::events::sign::signature;
use checkout_server::store::prelude::*;
use checkout_server::store::sealed::{KeyRing, SealError, SecretsKey};
use secrecy::{ExposeSecret as _, SecretString};
use standardwebhooks::Webhook;
use time::Duration;

use super::{Raw, TestDb, now};

store_suite!(
    no_secret_is_stored_in_plain_text,
    signing_and_the_totp_step_work_with_the_opened_secrets,
    a_value_copied_to_another_row_does_not_open,
    a_wrong_key_is_an_error_naming_the_column_not_a_panic,
);

/// A webhook signing secret as the API issues them.
pub const WEBHOOK_SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
/// Its rotated successor.
pub const ROTATED_SECRET: &str = "whsec_c2Vjb25kIHNlY3JldCBmb3Igcm90YXRpb24x";
/// A TOTP key (base32) as enrolment offers it.
pub const TOTP_SECRET: &str = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";
/// A second TOTP key, offered and not confirmed.
pub const PENDING_TOTP_SECRET: &str = "KRUGS4ZANFZSAYJAONSWG4TFOQQGWZLZ";

/// Every text in `columns` of `table`, as the database holds it (nulls left out).
pub async fn raw_texts(raw: &Raw, table: &str, columns: &[&str]) -> Vec<String> {
    let mut texts = Vec::new();
    for column in columns {
        let sql = format!("SELECT {column} FROM {table} WHERE {column} IS NOT NULL");
        let found: Vec<String> = match raw {
            Raw::Sqlite { pool, .. } => sqlx::query_scalar(&sql).fetch_all(pool).await,
            Raw::Postgres { pool, .. } => sqlx::query_scalar(&sql).fetch_all(pool).await,
        }
        .expect("column readable");
        texts.extend(found);
    }
    texts
}

/// An endpoint signed with [`WEBHOOK_SECRET`].
pub async fn endpoint_with_secret(db: &TestDb) -> WebhookEndpoint {
    db.store
        .create_endpoint(NewEndpoint {
            id: format!("we_{}", uuid::Uuid::new_v4().simple()),
            url: "https://shop.example/hooks".into(),
            description: None,
            event_types: EventTypes::All,
            secret: SecretString::from(WEBHOOK_SECRET),
        })
        .await
        .expect("endpoint created")
}

/// A staff account with [`TOTP_SECRET`] confirmed and [`PENDING_TOTP_SECRET`] offered on a
/// second account.
pub async fn staff_with_totp(db: &TestDb) -> (StaffUser, StaffUser) {
    let store = &db.store;
    let enrolled = store
        .create_staff("enrolled@shop.example", StaffRole::Admin, "$argon2id$stub")
        .await
        .expect("staff created");
    let secret = SecretString::from(TOTP_SECRET);
    assert!(store.offer_totp(&enrolled.id, &secret).await.unwrap());
    assert!(
        store
            .confirm_totp(&enrolled.id, &secret, 1, Vec::new())
            .await
            .unwrap()
    );
    let pending = store
        .create_staff("pending@shop.example", StaffRole::Viewer, "$argon2id$stub")
        .await
        .expect("staff created");
    let offered = SecretString::from(PENDING_TOTP_SECRET);
    assert!(store.offer_totp(&pending.id, &offered).await.unwrap());
    (enrolled, pending)
}

async fn no_secret_is_stored_in_plain_text(db: &TestDb) {
    let endpoint = endpoint_with_secret(db).await;
    db.store
        .rotate_endpoint_secret(
            &endpoint.id,
            SecretString::from(ROTATED_SECRET),
            now() + Duration::hours(24),
        )
        .await
        .unwrap()
        .expect("rotated");
    staff_with_totp(db).await;
    let stored = [
        raw_texts(&db.raw, "webhook_endpoints", &["secret", "previous_secret"]).await,
        raw_texts(
            &db.raw,
            "staff_users",
            &["totp_secret", "totp_pending_secret"],
        )
        .await,
    ]
    .concat();
    assert_eq!(stored.len(), 4, "every secret column is filled: {stored:?}");
    for text in &stored {
        for secret in [
            WEBHOOK_SECRET,
            ROTATED_SECRET,
            TOTP_SECRET,
            PENDING_TOTP_SECRET,
        ] {
            assert!(!text.contains(secret), "{secret} is stored in plain text");
            let body = secret.trim_start_matches("whsec_");
            assert!(
                !text.contains(body),
                "{secret}'s key is stored in plain text"
            );
        }
        assert!(text.starts_with("v1."), "a sealed value: {text}");
    }
    // The store still hands out the secrets themselves.
    let read = db.store.get_endpoint(&endpoint.id).await.unwrap().unwrap();
    assert_eq!(read.secret.expose_secret(), ROTATED_SECRET);
    let previous = read.previous_secret.expect("the overlap's secret");
    assert_eq!(previous.expose_secret(), WEBHOOK_SECRET);
}

/// The code an authenticator app shows now for `secret` (base32).
fn current_code(secret: &str) -> String {
    let bytes = totp_rs::Secret::try_from_base32(secret).expect("base32 secret");
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("after 1970")
        .as_secs();
    totp_rs::Builder::new()
        .with_secret(bytes)
        .build()
        .expect("RFC parameters")
        .generate(now)
        .to_string()
}

/// Writes `value` into `column` of `table`'s row `id`, behind the store's back.
pub async fn write_raw(raw: &Raw, table: &str, column: &str, id: &str, value: &str) {
    let sql = format!("UPDATE {table} SET {column} = $1 WHERE id = $2");
    match raw {
        Raw::Sqlite { pool, .. } => sqlx::query(&sql)
            .bind(value)
            .bind(id)
            .execute(pool)
            .await
            .map(drop),
        Raw::Postgres { pool, .. } => sqlx::query(&sql)
            .bind(value)
            .bind(id)
            .execute(pool)
            .await
            .map(drop),
    }
    .expect("row written");
}

/// The text in `column` of `table`'s row `id`.
pub async fn read_raw(raw: &Raw, table: &str, column: &str, id: &str) -> String {
    let sql = format!("SELECT {column} FROM {table} WHERE id = $1");
    match raw {
        Raw::Sqlite { pool, .. } => sqlx::query_scalar(&sql).bind(id).fetch_one(pool).await,
        Raw::Postgres { pool, .. } => sqlx::query_scalar(&sql).bind(id).fetch_one(pool).await,
    }
    .expect("column readable")
}

async fn signing_and_the_totp_step_work_with_the_opened_secrets(db: &TestDb) {
    let endpoint = endpoint_with_secret(db).await;
    let read = db.store.get_endpoint(&endpoint.id).await.unwrap().unwrap();
    let body = br#"{"type":"payment.captured"}"#;
    let signed = signature(&[read.secret], "msg_1", 1_700_000_000, body).expect("signs");
    let expected = Webhook::new(WEBHOOK_SECRET)
        .expect("a Standard Webhooks secret")
        .sign("msg_1", 1_700_000_000, body)
        .expect("signs");
    assert_eq!(
        signed, expected,
        "the shop's copy of the secret verifies it"
    );

    let (enrolled, pending) = staff_with_totp(db).await;
    let user = db
        .store
        .staff_by_email(&enrolled.email)
        .await
        .unwrap()
        .unwrap();
    let secret = user.totp_secret.expect("two-factor confirmed");
    let code = current_code(TOTP_SECRET);
    let step = matching_step(&secret, &user.email, &code).expect("a base32 key");
    assert!(step.is_some(), "the authenticator's code is accepted");
    assert!(
        db.store
            .accept_totp_step(&user.id, step.unwrap())
            .await
            .unwrap()
    );
    let offered = db
        .store
        .staff_by_email(&pending.email)
        .await
        .unwrap()
        .unwrap();
    let offered = offered.totp_pending_secret.expect("offered");
    assert_eq!(offered.expose_secret(), PENDING_TOTP_SECRET);
    // Confirming takes the offered key only: another key is refused, the offered one taken.
    let other = SecretString::from(TOTP_SECRET);
    assert!(
        !db.store
            .confirm_totp(&pending.id, &other, 2, Vec::new())
            .await
            .unwrap()
    );
    assert!(
        db.store
            .confirm_totp(&pending.id, &offered, 2, Vec::new())
            .await
            .unwrap()
    );
    let confirmed = db
        .store
        .staff_by_email(&pending.email)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        confirmed.totp_secret.expect("confirmed").expose_secret(),
        PENDING_TOTP_SECRET
    );
}

async fn a_value_copied_to_another_row_does_not_open(db: &TestDb) {
    let first = endpoint_with_secret(db).await;
    let second = endpoint_with_secret(db).await;
    let sealed = read_raw(&db.raw, "webhook_endpoints", "secret", &first.id).await;
    write_raw(&db.raw, "webhook_endpoints", "secret", &second.id, &sealed).await;
    let refused = db.store.get_endpoint(&second.id).await;
    assert!(
        matches!(
            refused,
            Err(StoreError::Sealed {
                column: "webhook_endpoints.secret",
                source: SealError::Rejected { .. }
            })
        ),
        "{refused:?}"
    );
    assert!(db.store.get_endpoint(&first.id).await.unwrap().is_some());

    let (enrolled, pending) = staff_with_totp(db).await;
    let totp = read_raw(&db.raw, "staff_users", "totp_secret", &enrolled.id).await;
    write_raw(
        &db.raw,
        "staff_users",
        "totp_pending_secret",
        &pending.id,
        &totp,
    )
    .await;
    let refused = db.store.staff_by_email(&pending.email).await;
    assert!(
        matches!(refused, Err(StoreError::Sealed { .. })),
        "{refused:?}"
    );
}

async fn a_wrong_key_is_an_error_naming_the_column_not_a_panic(db: &TestDb) {
    let endpoint = endpoint_with_secret(db).await;
    let (enrolled, _) = staff_with_totp(db).await;
    let other = db.instance_with(Arc::new(KeyRing::generate())).await;
    let refused = other
        .get_endpoint(&endpoint.id)
        .await
        .expect_err("another key");
    let message = refused.to_string();
    assert!(
        message.starts_with("stored webhook_endpoints.secret is sealed under key"),
        "{message}"
    );
    assert!(message.contains("SECRETS_KEY"), "{message}");
    assert!(!message.contains(WEBHOOK_SECRET));
    let refused = other
        .staff_by_email(&enrolled.email)
        .await
        .expect_err("another key");
    assert!(
        refused
            .to_string()
            .starts_with("stored staff_users.totp_secret"),
        "{refused}"
    );
    // The same id with other material: refused as such.
    let named = KeyRing::new(
        SecretsKey::parse(&format!("{}:{}", db.keys.current_id(), "00".repeat(32))).unwrap(),
        Vec::new(),
    )
    .unwrap();
    let impostor = db.instance_with(Arc::new(named)).await;
    let refused = impostor
        .get_endpoint(&endpoint.id)
        .await
        .expect_err("other material");
    assert!(
        matches!(
            refused,
            StoreError::Sealed {
                source: SealError::Rejected { .. },
                ..
            }
        ),
        "{refused:?}"
    );
    other.close().await;
    impostor.close().await;
}
