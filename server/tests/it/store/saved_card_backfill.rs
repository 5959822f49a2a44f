//! Migration 0023 fills in what a card saved by an older version lacks: the first six digits
//! and the keyed fingerprint, from the latest typed payment of its customer with the same
//! brand, last four and expiry. Its two updates run here again on cards made to look older.

use checkout::card::Brand;
use checkout_server::store::prelude::*;
use secrecy::SecretString;

use super::{Raw, TestDb, new_payment};

store_suite!(an_older_saved_card_gets_its_bin_and_fingerprint_from_its_payment);

/// A fingerprint's length (43 characters of unpadded base64).
const FINGERPRINT: &str = "fffffffffffffffffffffffffffffffffffffffffff";

/// The migration's `UPDATE` statements for `db`'s backend.
fn backfill(db: &TestDb) -> Vec<String> {
    let backend = match db.raw {
        Raw::Sqlite { .. } => "sqlite",
        Raw::Postgres { .. } => "postgres",
    };
    let path = format!(
        "{}/migrations/{backend}/0023_saved_card_bin.sql",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).expect("the migration");
    let code: String = text
        .lines()
        .filter(|line| !line.trim_start().starts_with("--"))
        .collect::<Vec<_>>()
        .join("\n");
    code.split(';')
        .map(str::trim)
        .filter(|statement| statement.starts_with("UPDATE"))
        .map(str::to_owned)
        .collect()
}

async fn an_older_saved_card_gets_its_bin_and_fingerprint_from_its_payment(db: &TestDb) {
    // The suite's typed payment: customer cust-1, the 3DS sample card (400000…3155, 12/2030).
    let typed = new_payment(db, 1_000).await;
    db.raw
        .execute(&format!(
            "UPDATE payments SET card_fingerprint = '{FINGERPRINT}' WHERE id = '{}'",
            typed.id
        ))
        .await;
    let save = |token: &str, last4: &str| NewSavedCard {
        customer_id: "cust-1".into(),
        gateway_token: SecretString::from(token.to_owned()),
        brand: Brand::Visa,
        last4: Last4::new(last4).expect("last4"),
        expiry_month: 12,
        expiry_year: 2030,
        card_fingerprint: None,
        saved_from: None,
    };
    db.store
        .save_card(save("tok_same", "3155"))
        .await
        .expect("saved");
    db.store
        .save_card(save("tok_other", "4242"))
        .await
        .expect("saved");
    let statements = backfill(db);
    assert_eq!(statements.len(), 2, "{statements:?}");
    for statement in &statements {
        db.raw.execute(statement).await;
    }
    let cards = db.store.list_cards("cust-1").await.expect("cards");
    let by_token = |token: &str| {
        use secrecy::ExposeSecret as _;
        cards
            .iter()
            .find(|card| card.gateway_token.expose_secret() == token)
            .expect("the card")
    };
    let same = by_token("tok_same");
    assert_eq!(same.bin.as_ref().map(|bin| bin.as_str()), Some("400000"));
    assert_eq!(same.card_fingerprint.as_deref(), Some(FINGERPRINT));
    let other = by_token("tok_other");
    assert_eq!(
        (other.bin.as_ref(), other.card_fingerprint.as_ref()),
        (None, None),
        "another card"
    );
}
