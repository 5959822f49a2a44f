//! After data derived from a test card passes through every kind of record, no column of any
//! table (nor any byte of the SQLite files) holds the full card number or the security code.

use checkout::card::Brand;
use checkout::contract::{PaymentState, SubscriptionStatus};
use checkout_server::store::prelude::*;
use secrecy::ExposeSecret as _;
use time::Duration;

use super::{Raw, TEST_CARD, TEST_CVC, TestDb, now, pending_payment, step, test_card};

store_suite!(no_column_holds_a_card_number_or_security_code);

/// The pay request a browser would send for the test card: only its digest may be stored.
fn pay_body() -> String {
    format!(
        r#"{{"card":{{"number":"{TEST_CARD}","expiry_month":"12","expiry_year":"30","cvc":"{TEST_CVC}","name":"T Card"}}}}"#
    )
}

async fn store_everything_about_the_test_card(db: &TestDb) -> String {
    let pending = pending_payment(db, 1000).await;
    let webhook_body = format!(r#"{{"payment_details":{{"card":{{"number":"{TEST_CARD}"}}}}}}"#);
    db.store
        .record_webhook(NewWebhookEvent {
            payment_id: pending.id.clone(),
            received_at: now(),
            body_digest: BodyDigest::of(webhook_body.as_bytes()),
            gateway_transaction_id: Some("txn-card-scan".into()),
            claimed_state: Some(PaymentState::Captured),
            claimed_amount: Some(1000),
            claimed_currency: Some("EUR".into()),
        })
        .await
        .unwrap();
    let changes = PaymentChanges {
        gateway_transaction_id: Some("txn-card-scan".into()),
        response_code: Some(0),
        ..Default::default()
    };
    step(db, &pending, PaymentState::Captured, changes).await;
    db.store
        .record_attempt(NewAttempt {
            payment_id: Some(pending.id.clone()),
            subscription_id: None,
            endpoint: "paymentv2".into(),
            started_at: now(),
            finished_at: now(),
            outcome: AttemptOutcome::Succeeded,
            http_status: Some(200),
        })
        .await
        .unwrap();
    let key = IdempotencyKey::new("pay:card-scan", "idem-1").unwrap();
    db.store
        .begin_idempotent(&key, &BodyDigest::of(pay_body().as_bytes()), now())
        .await
        .unwrap();
    let response = StoredResponse {
        status: 200,
        body: format!(r#"{{"payment_id":"{}","state":"captured"}}"#, pending.id),
    };
    db.store
        .complete_idempotent(&key, &response, now())
        .await
        .unwrap();
    let summary = test_card();
    let saved = db
        .store
        .save_card(NewSavedCard {
            customer_id: "cust-1".into(),
            gateway_token: generate_token("spm_"),
            brand: Brand::Visa,
            last4: summary.last4.clone(),
            expiry_month: summary.expiry_month,
            expiry_year: summary.expiry_year,
            card_fingerprint: None,
            saved_from: None,
        })
        .await
        .unwrap();
    assert_eq!(CardSummary::from_saved(&saved).bin, None);
    let token = generate_token("ct_");
    db.store
        .create_customer_token(NewCustomerToken {
            customer_id: "cust-1".into(),
            token_hash: SecretHash::of(token.expose_secret()),
            expires_at: now() + Duration::hours(1),
        })
        .await
        .unwrap();
    let sub = db
        .store
        .create_subscription(NewSubscription {
            gateway_subscription_id: "gw-sub-card-scan".into(),
            customer_id: Some("cust-1".into()),
            plan_id: "monthly".into(),
            session_id: Some(pending.session_id.clone()),
            first_payment_id: Some(pending.id.clone()),
            amount: 1000,
            currency: "EUR".into(),
            status: SubscriptionStatus::Active,
            completed_cycles: 1,
            next_payment_at: None,
            last_payment_status: None,
            next_poll_at: now(),
            found_in_list: None,
        })
        .await
        .unwrap();
    db.store
        .upsert_cycle(NewCycle {
            subscription_id: sub.id,
            cycle: 1,
            gateway_transaction_id: Some("txn-cycle-1".into()),
            amount: 1000,
            currency: "EUR".into(),
            status: CycleStatus::Succeeded,
            charged_at: now(),
            payment_id: None,
            period_start: None,
            period_end: None,
        })
        .await
        .unwrap();
    pending.id
}

/// Every column of every table, as text.
async fn all_values(raw: &Raw) -> Vec<(String, String)> {
    let mut values = Vec::new();
    match raw {
        Raw::Sqlite { pool, .. } => {
            let tables: Vec<String> =
                sqlx::query_scalar("SELECT name FROM sqlite_master WHERE type = 'table'")
                    .fetch_all(pool)
                    .await
                    .unwrap();
            for table in tables {
                let columns: Vec<String> =
                    sqlx::query_scalar("SELECT name FROM pragma_table_info($1)")
                        .bind(&table)
                        .fetch_all(pool)
                        .await
                        .unwrap();
                for column in columns {
                    // As bytes: numbers become their digits, text stays, blobs stay raw.
                    let sql = format!("SELECT CAST(\"{column}\" AS BLOB) FROM \"{table}\"");
                    let cells: Vec<Option<Vec<u8>>> =
                        sqlx::query_scalar(&sql).fetch_all(pool).await.unwrap();
                    let name = format!("{table}.{column}");
                    values.extend(
                        cells
                            .into_iter()
                            .flatten()
                            .map(|v| (name.clone(), String::from_utf8_lossy(&v).into_owned())),
                    );
                }
            }
        }
        Raw::Postgres { pool, schema, .. } => {
            let columns: Vec<(String, String)> = sqlx::query_as(
                "SELECT table_name::text, column_name::text FROM information_schema.columns \
                 WHERE table_schema = $1",
            )
            .bind(schema)
            .fetch_all(pool)
            .await
            .unwrap();
            for (table, column) in columns {
                let sql = format!("SELECT \"{column}\"::text FROM \"{schema}\".\"{table}\"");
                let cells: Vec<Option<String>> =
                    sqlx::query_scalar(&sql).fetch_all(pool).await.unwrap();
                let name = format!("{table}.{column}");
                values.extend(cells.into_iter().flatten().map(|v| (name.clone(), v)));
            }
        }
    }
    values
}

/// Values the store generates at random: a UUID, 16 random bytes in hex (`evt_…`, `we_…`), a
/// hex digest, or 32 random bytes in base64url; each alone or after a lowercase prefix and
/// `_`. A three-digit run in them is chance, not a security code, so only they are spared the
/// security-code check. The prefix is cut at its `_`: trimming lowercase letters would also eat
/// the value's own.
fn is_generated(value: &str) -> bool {
    let hex = |s: &str| s.bytes().all(|b| b.is_ascii_hexdigit());
    let random = |s: &str| {
        let uuid = s.len() == 36
            && s.split('-').map(str::len).eq([8, 4, 4, 4, 12])
            && s.split('-').all(hex);
        let hex_id = (s.len() == 32 || s.len() == 64) && hex(s);
        let token = s.len() == 43
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        uuid || hex_id || token
    };
    let unprefixed = value
        .split_once('_')
        .filter(|(prefix, _)| !prefix.is_empty() && prefix.bytes().all(|b| b.is_ascii_lowercase()))
        .map(|(_, rest)| rest);
    random(value) || unprefixed.is_some_and(random)
}

#[test]
fn only_random_shapes_are_spared() {
    // Values a fresh-clone run met, each holding 737 by chance.
    assert!(is_generated("evt_ab358f2a43a864ceff17eb9e737ff3dd"));
    assert!(is_generated(
        "spm_r9d-p737ttAbCdEfGhIjKlMnOpQrStUvWxYz0123456"
    ));
    // What a leak would look like is not.
    for value in [
        "737",
        "cvc 737",
        "evt_737",
        "note_737 from the shopper",
        "4000000000003155737",
    ] {
        assert!(!is_generated(value), "{value}");
    }
}

fn digit_runs(value: &str) -> impl Iterator<Item = &str> {
    value
        .split(|c: char| !c.is_ascii_digit())
        .filter(|run| !run.is_empty())
}

async fn no_column_holds_a_card_number_or_security_code(db: &TestDb) {
    let payment_id = store_everything_about_the_test_card(db).await;
    let values = all_values(&db.raw).await;
    assert!(
        values.len() > 100,
        "the scan read too little: {}",
        values.len()
    );
    for (column, value) in &values {
        assert!(!value.contains(TEST_CARD), "{column} holds the card number");
        let metadata = column.starts_with("_sqlx_migrations.");
        if !metadata && !is_generated(value) {
            assert!(
                digit_runs(value).all(|run| run != TEST_CVC),
                "{column} holds the security code: {value}"
            );
        }
    }
    // The scan does see card data: the parts that may be kept are there.
    let has = |col: &str, v: &str| values.iter().any(|(c, x)| c == col && x == v);
    assert!(has("payments.card_bin", "400000"));
    assert!(has("payments.card_last4", "3155"));
    assert!(has("saved_cards.last4", "3155"));

    if let Raw::Sqlite { path, .. } = &db.raw {
        let mut seen_payment = false;
        for suffix in ["", "-wal", "-shm"] {
            let file = format!("{}{suffix}", path.display());
            let Ok(bytes) = std::fs::read(&file) else {
                continue;
            };
            let contains = |needle: &[u8]| bytes.windows(needle.len()).any(|w| w == needle);
            assert!(
                !contains(TEST_CARD.as_bytes()),
                "{file} holds the card number"
            );
            seen_payment |= contains(payment_id.as_bytes());
        }
        assert!(
            seen_payment,
            "the file scan did not find the data it was meant to search"
        );
    }
}
