//! No card number and no CVC anywhere they could leak: a full run — 3DS with a saved card,
//! a token payment, a decline, validation errors carrying the digits in the wrong field, a
//! forged webhook, and block-list entries (a card blocked from its payment, a BIN, an
//! address; a card number posted as a value, refused) with a try they refuse — with every log
//! line captured at TRACE, then every text column of the database read back (the block lists'
//! `risk_blocks` and the saved cards' fingerprints included). Neither may hold a test card
//! number or the CVC used.

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::json;
use tracing_subscriber::fmt::MakeWriter;

use crate::api::support::{
    Backend, Harness, Reply, TestSession, browser_info, cards, eventually, pay_body,
};
use crate::store::POSTGRES_ENV;

/// The CVC every pay call of this test sends: chosen to appear nowhere else.
const CVC: &str = "739";

#[tokio::test]
async fn sqlite_logs_and_database_hold_no_card_data() {
    run(Backend::Sqlite).await;
}

#[tokio::test]
async fn postgres_logs_and_database_hold_no_card_data() {
    match std::env::var(POSTGRES_ENV) {
        Ok(url) => run(Backend::Postgres(url)).await,
        Err(_) => eprintln!("SKIPPED: {POSTGRES_ENV} not set: card-data check ran on SQLite only"),
    }
}

/// A shared buffer the log subscriber writes into.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("log buffer").extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> MakeWriter<'a> for Captured {
    type Writer = Captured;

    fn make_writer(&'a self) -> Self::Writer {
        self.clone()
    }
}

async fn run(backend: Backend) {
    let logs = Captured::default();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_writer(logs.clone())
        .with_ansi(false)
        .finish();
    // tracing caches each callsite's interest for the whole process. While only one
    // dispatcher is registered, a callsite first reached by another test's thread (which has
    // no subscriber) is cached as "never", and this test would miss its events; with two or
    // more registered, the interest is the union of all of them. Hence a second one, kept
    // alive for the test.
    let _anchor = tracing::Dispatch::new(tracing_subscriber::registry());
    // A current-thread runtime: the server's tasks run on this thread and log here.
    let _guard = tracing::subscriber::set_default(subscriber);
    let h = Harness::start(backend).await;
    let used = flows(&h).await;
    let text = String::from_utf8(logs.0.lock().expect("log buffer").clone()).expect("utf-8 logs");
    assert!(text.contains("3DS started"), "the logs were not captured");
    assert!(
        text.contains("forged webhook"),
        "a forged webhook must be logged as a warning"
    );
    assert!(text.contains("WARN"), "warnings are captured");
    for number in &used {
        assert!(
            !text.contains(number.as_str()),
            "a card number reached the logs"
        );
        assert!(
            !text.contains(&spaced(number)),
            "a card number reached the logs"
        );
    }
    assert!(!has_token(&text, CVC), "the CVC reached the logs");
    assert_fingerprints_are_keyed(&h, &used).await;
    let columns = database_text(&h).await;
    assert!(
        columns.len() > 20,
        "the database was read ({} text values)",
        columns.len()
    );
    for value in &columns {
        for number in &used {
            assert!(
                !value.contains(number.as_str()),
                "a card number is stored: {value}"
            );
        }
        assert!(!has_token(value, CVC), "the CVC is stored: {value}");
    }
    h.finish().await;
}

/// Runs the flows; returns the card numbers used.
async fn flows(h: &Harness) -> Vec<String> {
    let customer = format!("cust-{}", uuid::Uuid::new_v4().simple());
    let first = h.session(1500, json!({"customer_id": customer})).await;
    let mut body = pay_body(cards::CHALLENGE, CVC);
    body["save_card"] = json!(true);
    let reply = h.pay(&first, &body, Some("first-pay")).await;
    let redirect = reply.json["redirect_url"]
        .as_str()
        .expect("redirect")
        .to_owned();
    h.complete_3ds(&redirect, "approve").await;

    let second = h.session(2100, json!({"customer_id": customer})).await;
    let saved = eventually("the saved card", Duration::from_secs(5), || async {
        let view = Reply::read(
            h.checkout(reqwest::Method::GET, &second, "")
                .send()
                .await
                .expect("sent"),
        )
        .await;
        view.json["saved_cards"][0]["id"]
            .as_str()
            .map(str::to_owned)
    })
    .await;
    let token_pay = json!({"saved_card_id": saved, "billing_address": {"country": "JP", "postal_code": "1"}, "browser_info": browser_info()});
    assert_eq!(
        h.pay(&second, &token_pay, None).await.json["result"]["state"],
        "captured"
    );

    let declined = h.session(600, json!({})).await;
    let reply = h
        .pay(&declined, &pay_body(cards::INSUFFICIENT_FUNDS, CVC), None)
        .await;
    h.complete_3ds(
        reply.json["redirect_url"].as_str().expect("redirect"),
        "approve",
    )
    .await;

    let invalid = h.session(600, json!({})).await;
    let mut wrong_field = pay_body(cards::VISA_OK, CVC);
    wrong_field["card"]["name"] = json!(cards::VISA_OK);
    assert_eq!(h.pay(&invalid, &wrong_field, None).await.status, 400);
    let mut wrong_type = pay_body(cards::VISA_OK, CVC);
    wrong_type["card"]["number"] = json!(4_242_424_242_424_242u64);
    wrong_type["card"]["cvc"] = json!(739);
    assert_eq!(h.pay(&invalid, &wrong_type, None).await.status, 400);

    forge(h).await;
    block_lists(h, &first).await;
    vec![
        cards::CHALLENGE.to_owned(),
        cards::INSUFFICIENT_FUNDS.to_owned(),
        cards::VISA_OK.to_owned(),
    ]
}

/// Block-list entries through the merchant API (a card by its payment, a BIN, an address),
/// a card number posted as an entry's value (refused, never echoed), and a try they refuse.
async fn block_lists(h: &Harness, paid: &TestSession) {
    let payment_id = h.stored_payment(paid).await.id;
    for (body, status) in [
        (json!({"kind": "card", "payment_id": payment_id}), 201),
        (json!({"kind": "bin", "value": "400000"}), 201),
        (json!({"kind": "address", "value": "192.0.2.0/24"}), 201),
        (json!({"kind": "card", "value": cards::VISA_OK}), 400),
        (json!({"kind": "bin", "value": cards::VISA_OK}), 400),
    ] {
        let reply = Reply::read(
            h.merchant(reqwest::Method::POST, "/v1/risk/blocks")
                .json(&body)
                .send()
                .await
                .expect("sent"),
        )
        .await;
        assert_eq!(reply.status, status, "{}", reply.text);
        assert!(!reply.text.contains(cards::VISA_OK), "{}", reply.text);
    }
    let listed = Reply::read(
        h.merchant(reqwest::Method::GET, "/v1/risk/blocks")
            .send()
            .await
            .expect("sent"),
    )
    .await;
    assert_eq!(listed.json["data"].as_array().map(Vec::len), Some(3));
    let again = h.session(900, json!({})).await;
    let reply = h.pay(&again, &pay_body(cards::CHALLENGE, CVC), None).await;
    assert_eq!(reply.json["result"]["state"], "blocked", "{}", reply.text);
    assert_eq!(
        h.stored_payment(&again).await.risk_rule.as_deref(),
        Some("blocklist_card")
    );
}

/// Posts a forged "paid" webhook for a pending payment and waits for its verdict.
async fn forge(h: &Harness) {
    let session: TestSession = h.session(1700, json!({})).await;
    h.pay_to_redirect(&session, cards::FRICTIONLESS).await;
    let payment = h.stored_payment(&session).await;
    let url = crate::api::webhooks::webhook_url(h, &payment);
    let body = crate::api::webhooks::notification(
        &uuid::Uuid::new_v4().to_string(),
        true,
        1700,
        "JPY",
        &session.reference,
    );
    assert_eq!(
        h.api
            .post(&url)
            .json(&body)
            .send()
            .await
            .expect("sent")
            .status(),
        200
    );
    eventually("the forged verdict", Duration::from_secs(5), || async {
        let events =
            checkout_server::store::ActivityStore::list_webhooks(h.store().as_ref(), &payment.id)
                .await
                .expect("events");
        events
            .iter()
            .any(|e| e.verdict == checkout_server::store::model::WebhookVerdict::Forged)
            .then_some(())
    })
    .await;
}

/// Every text value in every table of the server's database.
async fn database_text(h: &Harness) -> Vec<String> {
    if let Some(path) = &h.sqlite_path {
        let pool = sqlx::sqlite::SqlitePool::connect(&format!("sqlite://{}", path.display()))
            .await
            .expect("open sqlite");
        let tables: Vec<String> =
            sqlx::query_scalar("SELECT name FROM sqlite_master WHERE type = 'table'")
                .fetch_all(&pool)
                .await
                .expect("tables");
        let mut values = Vec::new();
        for table in tables {
            let columns: Vec<String> =
                sqlx::query_scalar(&format!("SELECT name FROM pragma_table_info('{table}')"))
                    .fetch_all(&pool)
                    .await
                    .expect("columns");
            for column in columns {
                let sql = format!(
                    "SELECT CAST(\"{column}\" AS TEXT) FROM \"{table}\" WHERE typeof(\"{column}\") = 'text'"
                );
                values.extend(
                    sqlx::query_scalar::<_, String>(&sql)
                        .fetch_all(&pool)
                        .await
                        .expect("values"),
                );
            }
        }
        pool.close().await;
        return values;
    }
    let pool = sqlx::postgres::PgPool::connect(&h.database_url)
        .await
        .expect("open postgres");
    let columns: Vec<(String, String)> = sqlx::query_as(
        "SELECT table_name::text, column_name::text FROM information_schema.columns \
         WHERE table_schema = current_schema() AND data_type IN ('text', 'character varying', 'character', 'jsonb', 'json')",
    )
    .fetch_all(&pool)
    .await
    .expect("columns");
    let mut values = Vec::new();
    for (table, column) in columns {
        let sql =
            format!("SELECT \"{column}\"::text FROM \"{table}\" WHERE \"{column}\" IS NOT NULL");
        values.extend(
            sqlx::query_scalar::<_, String>(&sql)
                .fetch_all(&pool)
                .await
                .expect("values"),
        );
    }
    pool.close().await;
    values
}

/// `4242 4242 4242 4242`.
fn spaced(number: &str) -> String {
    number
        .as_bytes()
        .chunks(4)
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether `needle` occurs in `text` as a token of its own: no letter or digit directly before
/// or after it, and not the whole or fractional part of a decimal number (timings such as
/// `elapsed=739.1µs` in the database driver's debug lines are not a CVC).
fn has_token(text: &str, needle: &str) -> bool {
    text.match_indices(needle).any(|(at, _)| {
        let mut before = text[..at].chars().rev();
        let mut after = text[at + needle.len()..].chars();
        !continues_number(before.next(), before.next())
            && !continues_number(after.next(), after.next())
    })
}

/// Whether `next` (and `then`, the character beyond it) carry a number on: a letter or digit,
/// or a decimal separator followed by a digit.
fn continues_number(next: Option<char>, then: Option<char>) -> bool {
    match next {
        Some('.' | ',') => then.is_some_and(|c| c.is_ascii_digit()),
        Some(c) => c.is_alphanumeric(),
        None => false,
    }
}

#[test]
fn tokens_are_told_from_decimal_numbers() {
    assert!(has_token("cvc=739 ", "739"));
    assert!(has_token("\"739\"", "739"));
    assert!(has_token("739", "739"));
    assert!(has_token("ends 739.", "739"));
    assert!(!has_token("elapsed=739.1µs", "739"));
    assert!(!has_token("elapsed=0.739s", "739"));
    assert!(!has_token("id=a739b", "739"));
    assert!(!has_token("17390", "739"));
}

/// Typed cards are stored with their fingerprint, which is a keyed MAC: never the plain
/// SHA-256 of a number used (hex or base64url), which could be matched against guesses.
async fn assert_fingerprints_are_keyed(h: &Harness, used: &[String]) {
    use base64::Engine as _;
    use sha2::Digest as _;
    let page = h
        .store()
        .list_payments(checkout_server::store::model::PaymentQuery {
            limit: 50,
            ..Default::default()
        })
        .await
        .expect("payments");
    let fingerprints: Vec<String> = page
        .items
        .iter()
        .filter(|p| p.saved_card_id.is_none())
        .map(|p| {
            p.card_fingerprint
                .clone()
                .expect("a typed card has a fingerprint")
        })
        .collect();
    assert!(fingerprints.len() >= 3, "{fingerprints:?}");
    let saved: Vec<_> = page
        .items
        .iter()
        .filter(|p| p.saved_card_id.is_some())
        .collect();
    assert!(!saved.is_empty(), "a saved card paid");
    for payment in saved {
        let fingerprint = payment
            .card_fingerprint
            .as_ref()
            .expect("a saved card's try carries the fingerprint it was saved with");
        assert!(fingerprints.contains(fingerprint), "the typed card's own");
    }
    for number in used {
        let plain = sha2::Sha256::digest(number.as_bytes());
        let hex: String = plain.iter().map(|b| format!("{b:02x}")).collect();
        let base64 = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(plain);
        for fingerprint in &fingerprints {
            assert_ne!(fingerprint, &hex);
            assert_ne!(fingerprint, &base64);
            assert_eq!(fingerprint.len(), 43);
        }
    }
}
