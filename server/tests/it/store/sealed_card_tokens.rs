//! Saved cards' gateway tokens at rest (issue 49): sealed like the webhook secrets and TOTP
//! keys (`v1.<key id>.<nonce>.<ciphertext>`, bound to the card's row), so a dump of the
//! database charges no card; a card saved again is still found as the same card; a rotation
//! re-seals the tokens; and a token an older version left in plain text is sealed at start.

use std::sync::Arc;

use checkout::card::Brand;
use checkout_server::store::prelude::*;
use checkout_server::store::sealed::{SealError, SecretsKey};
use secrecy::{ExposeSecret as _, SecretString};

use super::sealed_secrets::{raw_texts, read_raw, write_raw};
use super::{TestDb, new_session};

store_suite!(
    a_saved_cards_token_is_sealed_and_opens_for_the_store,
    a_card_saved_again_is_the_same_card,
    a_token_copied_to_another_card_does_not_open,
    rotation_reseals_the_tokens_and_the_old_key_can_go,
    a_plain_token_of_an_older_version_is_sealed_at_start,
);

/// A gateway token as the gateway issues them.
const TOKEN: &str = "pm_4Qk8sV2mZr7Lw9XcB1nT";
/// Another card's.
const OTHER_TOKEN: &str = "pm_9Hd3Jq6Yp0Fa5Ue2Kx8R";

/// Saves the card `token` for `customer` with expiry `month`/2030.
async fn save(store: &Arc<dyn Store>, customer: &str, token: &str, month: u8) -> SavedCardRecord {
    store
        .save_card(NewSavedCard {
            customer_id: customer.into(),
            gateway_token: SecretString::from(token.to_owned()),
            brand: Brand::Visa,
            last4: Last4::new("4242").expect("last4"),
            expiry_month: month,
            expiry_year: 2030,
            card_fingerprint: None,
            saved_from: None,
        })
        .await
        .expect("card saved")
}

async fn a_saved_cards_token_is_sealed_and_opens_for_the_store(db: &TestDb) {
    let card = save(&db.store, "cust-1", TOKEN, 12).await;
    assert_eq!(card.gateway_token.expose_secret(), TOKEN);
    let stored = raw_texts(&db.raw, "saved_cards", &["gateway_token"]).await;
    assert_eq!(stored.len(), 1);
    assert!(
        stored[0].starts_with(&format!("v1.{}.", db.keys.current_id())),
        "sealed under the current key: {}",
        stored[0]
    );
    assert!(
        !stored[0].contains(TOKEN),
        "the token is stored in plain text"
    );
    // Read from the database by another instance (nothing in its memory): opened.
    let other = db.second_instance().await;
    let read = other
        .get_card("cust-1", &card.id)
        .await
        .unwrap()
        .expect("the card");
    assert_eq!(read.gateway_token.expose_secret(), TOKEN);
    let listed = other.list_cards("cust-1").await.unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].gateway_token.expose_secret(), TOKEN);
    other.close().await;
    // The pay call's read, the card joined to its session.
    let session = new_session(db, Some("cust-1")).await;
    let fresh = db.second_instance().await;
    let (_, joined) = fresh
        .get_session_with_card(&session.id, &card.id)
        .await
        .unwrap()
        .expect("the session");
    let joined = joined.expect("the customer's card");
    assert_eq!(joined.gateway_token.expose_secret(), TOKEN);
    fresh.close().await;
}

async fn a_card_saved_again_is_the_same_card(db: &TestDb) {
    let first = save(&db.store, "cust-1", TOKEN, 11).await;
    let again = save(&db.store, "cust-1", TOKEN, 12).await;
    assert_eq!(again.id, first.id, "the same token is the same card");
    assert_eq!(again.expiry_month, 12, "with the new details");
    let other = save(&db.store, "cust-1", OTHER_TOKEN, 12).await;
    assert_ne!(other.id, first.id);
    let elsewhere = save(&db.store, "cust-2", TOKEN, 12).await;
    assert_ne!(elsewhere.id, first.id, "another customer's card");
    assert_eq!(db.store.list_cards("cust-1").await.unwrap().len(), 2);
    assert_eq!(
        raw_texts(&db.raw, "saved_cards", &["gateway_token"])
            .await
            .len(),
        3
    );
}

async fn a_token_copied_to_another_card_does_not_open(db: &TestDb) {
    let first = save(&db.store, "cust-1", TOKEN, 12).await;
    // Another customer's (the same customer cannot hold one ciphertext twice).
    let second = save(&db.store, "cust-2", OTHER_TOKEN, 12).await;
    let sealed = read_raw(&db.raw, "saved_cards", "gateway_token", &first.id).await;
    write_raw(&db.raw, "saved_cards", "gateway_token", &second.id, &sealed).await;
    let other = db.second_instance().await;
    let refused = other.get_card("cust-2", &second.id).await;
    assert!(
        matches!(
            refused,
            Err(StoreError::Sealed {
                column: "saved_cards.gateway_token",
                source: SealError::Rejected { .. }
            })
        ),
        "{refused:?}"
    );
    let read = other.get_card("cust-1", &first.id).await.unwrap().unwrap();
    assert_eq!(read.gateway_token.expose_secret(), TOKEN);
    other.close().await;
}

async fn rotation_reseals_the_tokens_and_the_old_key_can_go(db: &TestDb) {
    let card = save(&db.store, "cust-1", TOKEN, 12).await;
    let new_key = SecretsKey::generate();
    let new_id = new_key.id().to_owned();
    let rotated = Arc::new(db.keys.rotated_to(new_key).expect("a new id"));
    let during = db.instance_with(rotated.clone()).await;
    let report = during.reseal_secrets().await.unwrap();
    assert_eq!(
        report,
        ResealReport {
            already_current: 0,
            resealed: 1,
            sealed_plain: 0
        }
    );
    during.close().await;
    let stored = read_raw(&db.raw, "saved_cards", "gateway_token", &card.id).await;
    assert!(stored.starts_with(&format!("v1.{new_id}.")), "{stored}");
    let after = db.instance_with(Arc::new(rotated.without_previous())).await;
    let read = after.get_card("cust-1", &card.id).await.unwrap().unwrap();
    assert_eq!(read.gateway_token.expose_secret(), TOKEN);
    after.close().await;
}

async fn a_plain_token_of_an_older_version_is_sealed_at_start(db: &TestDb) {
    let card = save(&db.store, "cust-1", TOKEN, 12).await;
    // What a version before sealing left: the token itself.
    write_raw(&db.raw, "saved_cards", "gateway_token", &card.id, TOKEN).await;
    let upgraded = db.second_instance().await;
    let stored = read_raw(&db.raw, "saved_cards", "gateway_token", &card.id).await;
    assert!(
        stored.starts_with(&format!("v1.{}.", db.keys.current_id())),
        "{stored}"
    );
    let read = upgraded
        .get_card("cust-1", &card.id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(read.gateway_token.expose_secret(), TOKEN);
    // Saved again after the upgrade: still the same card.
    let again = save(&upgraded, "cust-1", TOKEN, 12).await;
    assert_eq!(again.id, card.id);
    upgraded.close().await;
}
