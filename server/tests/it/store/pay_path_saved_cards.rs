//! A claim for a saved card records nothing unless the card is still its customer's exactly as
//! the payment describes it, so a copy an instance keeps in memory never charges a card
//! deleted or saved again through another instance, nor another customer's card.

use checkout::card::Brand;
use checkout_server::store::prelude::*;
use secrecy::SecretString;

use super::pay_path::{
    assert_nothing_claimed, claim, claim_digest, new_payment_with_card, save_card,
};
use super::{TestDb, new_session};

store_suite!(
    a_claim_with_a_card_deleted_through_another_instance_writes_nothing,
    a_claim_with_a_card_saved_again_elsewhere_needs_its_new_details,
    a_claim_with_another_customers_card_writes_nothing,
);

async fn a_claim_with_a_card_deleted_through_another_instance_writes_nothing(db: &TestDb) {
    let session = new_session(db, Some("cust-d")).await;
    let card = save_card(db, "cust-d", "tok-d").await;
    let other = db.second_instance().await;
    assert!(other.delete_card("cust-d", &card.id).await.unwrap());
    // This instance may still answer from the copy it kept when it saved the card.
    let (_, kept) = db
        .store
        .get_session_with_card(&session.id, &card.id)
        .await
        .unwrap()
        .expect("session found");
    let kept = kept.unwrap_or_else(|| card.clone());
    let claimed = db
        .store
        .claim_and_create_pending_payment(
            &claim(&session.id),
            &claim_digest(),
            new_payment_with_card(&session, &kept),
        )
        .await
        .unwrap();
    assert!(claimed.is_none(), "{claimed:?}");
    assert_nothing_claimed(db, &session).await;
    assert!(
        db.store
            .get_card("cust-d", &card.id)
            .await
            .unwrap()
            .is_none()
    );
    other.close().await;
}

async fn a_claim_with_a_card_saved_again_elsewhere_needs_its_new_details(db: &TestDb) {
    let session = new_session(db, Some("cust-r")).await;
    let card = save_card(db, "cust-r", "tok-r").await;
    let other = db.second_instance().await;
    let renewed = other
        .save_card(NewSavedCard {
            customer_id: "cust-r".into(),
            gateway_token: SecretString::from("tok-r".to_owned()),
            brand: Brand::Visa,
            last4: Last4::new("4242").unwrap(),
            expiry_month: 3,
            expiry_year: 2041,
            card_fingerprint: None,
            saved_from: None,
        })
        .await
        .unwrap();
    assert_eq!(renewed.id, card.id, "the same card, saved again");
    let stale = db
        .store
        .claim_and_create_pending_payment(
            &claim(&session.id),
            &claim_digest(),
            new_payment_with_card(&session, &card),
        )
        .await
        .unwrap();
    assert!(stale.is_none(), "{stale:?}");
    assert_nothing_claimed(db, &session).await;
    let fresh = db
        .store
        .get_card("cust-r", &card.id)
        .await
        .unwrap()
        .expect("still saved");
    let payment = db
        .store
        .claim_and_create_pending_payment(
            &claim(&session.id),
            &claim_digest(),
            new_payment_with_card(&session, &fresh),
        )
        .await
        .unwrap()
        .expect("claimed with the card's current details");
    let summary = payment.card.expect("card summary");
    assert_eq!((summary.expiry_month, summary.expiry_year), (3, 2041));
    assert_eq!(payment.saved_card_id.as_deref(), Some(card.id.as_str()));
    other.close().await;
}

async fn a_claim_with_another_customers_card_writes_nothing(db: &TestDb) {
    let session = new_session(db, Some("cust-own")).await;
    let foreign = save_card(db, "cust-foreign", "tok-f").await;
    let claimed = db
        .store
        .claim_and_create_pending_payment(
            &claim(&session.id),
            &claim_digest(),
            new_payment_with_card(&session, &foreign),
        )
        .await
        .unwrap();
    assert!(claimed.is_none(), "{claimed:?}");
    assert_nothing_claimed(db, &session).await;
}
