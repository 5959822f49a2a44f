//! The demo restarted (issue 37, item 4): with the emulator's state kept (`serve`'s default,
//! `gateway-emulator.state` beside the SQLite file), a new server on the same database and data
//! directory still pays with a card saved before the restart, looks up and refunds a payment
//! made before it, and holds the same ledger; the state file never holds a card number in the
//! clear, and one sealed under another key stops the start naming the file. A second instance
//! started while the first runs leaves the first's file alone and keeps its state in memory.
//!
//! SQLite only: with PostgreSQL the data directory is `data/` under the working directory,
//! which tests running side by side would share.

use std::time::Duration;

use checkout_sandbox::persist::{KEY_FILE_NAME, STATE_FILE_NAME};
use checkout_server::config::Config;
use serde_json::json;

use crate::api::customer_cards::{new_customer, pay_with_saved};
use crate::api::support::{
    Backend, Harness, MERCHANT_KEY, Reply, SECRETS_KEY, cards, eventually, param, pay_body,
};
use crate::compose::{self, EmulatorState};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_demo_keeps_its_gateways_records() {
    let mut first = Harness::start_keeping_emulator_state(Backend::Sqlite, &[]).await;
    let customer = new_customer();
    let session = first.session(1000, json!({"customer_id": customer})).await;
    let mut body = pay_body(cards::VISA_OK, "123");
    body["save_card"] = json!(true);
    let reply = first.pay(&session, &body, None).await;
    assert_eq!(reply.json["next_action"], "redirect", "{}", reply.text);
    let redirect = reply.json["redirect_url"].as_str().expect("url");
    let landed = first.complete_3ds(redirect, "approve").await;
    assert_eq!(param(&landed, "checkout").as_deref(), Some("paid"));
    let payment_id = first.result(&session).await["payment_id"]
        .as_str()
        .expect("payment id")
        .to_owned();
    let card = eventually("the saved card", Duration::from_secs(5), || async {
        let cards = saved_cards(&first, &customer).await;
        cards.into_iter().next()
    })
    .await;
    let gateway_id = first
        .stored_payment(&session)
        .await
        .gateway_transaction_id
        .expect("the gateway's transaction id");
    first.stop().await;
    let transactions = first.sandbox.ledger.len();
    assert!(transactions >= 1);

    let data_dir = first
        .sqlite_path
        .as_ref()
        .and_then(|path| path.parent())
        .expect("the data directory")
        .to_path_buf();
    let sealed = std::fs::read(data_dir.join(STATE_FILE_NAME)).expect("the state file");
    assert!(
        !sealed
            .windows(cards::VISA_OK.len())
            .any(|window| window == cards::VISA_OK.as_bytes()),
        "the state file holds the card number in the clear"
    );

    let second = first.beside_keeping_emulator_state(&[]).await;
    assert_eq!(second.sandbox.ledger.len(), transactions);
    let status = second
        .state
        .gateway
        .transaction_status(&gateway_id)
        .await
        .expect("the gateway still knows the payment");
    assert!(status.is_approved(), "{status:?}");

    let later = second.session(2500, json!({"customer_id": customer})).await;
    let paid = second.pay(&later, &pay_with_saved(&card["id"]), None).await;
    assert_eq!(paid.status, 200, "{}", paid.text);
    assert_eq!(paid.json["result"]["state"], "captured", "{}", paid.text);

    let refunded = Reply::read(
        second
            .merchant(
                reqwest::Method::POST,
                &format!("/v1/payments/{payment_id}/refund"),
            )
            .send()
            .await
            .expect("sent"),
    )
    .await;
    assert_eq!(refunded.status, 200, "{}", refunded.text);
    assert_eq!(refunded.json["state"], "refunded", "{}", refunded.text);
    second.finish().await;
    first.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_state_sealed_under_another_key_stops_the_start_naming_the_file() {
    let mut first = Harness::start_keeping_emulator_state(Backend::Sqlite, &[]).await;
    let session = first.session(1000, json!({})).await;
    let redirect = first.pay_to_redirect(&session, cards::VISA_OK).await;
    first.complete_3ds(&redirect, "approve").await;
    first.stop().await;
    let data_dir = first
        .sqlite_path
        .as_ref()
        .and_then(|path| path.parent())
        .expect("the data directory")
        .to_path_buf();
    std::fs::write(
        data_dir.join(KEY_FILE_NAME),
        format!("{}\n", "ab".repeat(32)),
    )
    .expect("another key");

    let config = Config::from_pairs(
        &[
            ("DATABASE_URL", first.database_url.as_str()),
            ("MERCHANT_SECRET_KEY", MERCHANT_KEY),
            ("SECRETS_KEY", SECRETS_KEY),
        ],
        &compose::emulator_defaults(),
    )
    .expect("configuration");
    let error =
        compose::emulator_persistence(&config, &EmulatorState::DataDirectory).expect_err("refused");
    let message = format!("{error:#}");
    let state_file = data_dir.join(STATE_FILE_NAME);
    assert!(
        message.contains(&state_file.display().to_string()),
        "{message}"
    );
    assert!(message.contains("another key"), "{message}");
    assert!(message.contains("move the state file aside"), "{message}");
    assert!(state_file.exists(), "the file is left for the operator");
    first.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_instance_beside_a_running_one_keeps_its_emulator_in_memory() {
    let first = Harness::start_keeping_emulator_state(Backend::Sqlite, &[]).await;
    let session = first.session(1000, json!({})).await;
    let redirect = first.pay_to_redirect(&session, cards::VISA_OK).await;
    first.complete_3ds(&redirect, "approve").await;
    let second = first.beside_keeping_emulator_state(&[]).await;
    assert_eq!(
        second.sandbox.ledger.len(),
        0,
        "the first's state is its own"
    );
    assert!(second.sandbox.config.persistence.is_none());
    assert!(!first.sandbox.ledger.is_empty());
    second.finish().await;
    first.finish().await;
}

async fn saved_cards(h: &Harness, customer: &str) -> Vec<serde_json::Value> {
    let reply = Reply::read(
        h.merchant(
            reqwest::Method::GET,
            &format!("/v1/customers/{customer}/cards"),
        )
        .send()
        .await
        .expect("sent"),
    )
    .await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    reply.json["data"].as_array().cloned().unwrap_or_default()
}
