//! Changing what seals the secrets at rest: rotation reseals under the new key and the old one
//! can go, plain secrets of an older version are sealed on opening, and after a lost key a new
//! webhook secret and a 2FA reset recover.

use std::sync::Arc;

use checkout_server::dashboard::auth::accounts;
use checkout_server::store::prelude::*;
use checkout_server::store::sealed::{KeyRing, SecretsKey};
use secrecy::{ExposeSecret as _, SecretString};
use time::Duration;

use super::sealed_secrets::{
    PENDING_TOTP_SECRET, ROTATED_SECRET, TOTP_SECRET, WEBHOOK_SECRET, endpoint_with_secret,
    raw_texts, staff_with_totp, write_raw,
};
use super::{TestDb, now};

store_suite!(
    rotation_reseals_under_the_new_key_and_the_old_one_can_go,
    plain_secrets_of_an_older_version_are_sealed_on_opening,
    after_a_lost_key_a_new_secret_and_a_2fa_reset_recover,
);

async fn rotation_reseals_under_the_new_key_and_the_old_one_can_go(db: &TestDb) {
    let endpoint = endpoint_with_secret(db).await;
    db.store
        .rotate_endpoint_secret(
            &endpoint.id,
            SecretString::from(ROTATED_SECRET),
            now() + Duration::hours(24),
        )
        .await
        .unwrap();
    let (enrolled, pending) = staff_with_totp(db).await;
    let new_key = SecretsKey::generate();
    let new_id = new_key.id().to_owned();
    let rotated = Arc::new(db.keys.rotated_to(new_key).expect("a new id"));
    let during = db.instance_with(rotated.clone()).await;
    let read = during.get_endpoint(&endpoint.id).await.unwrap().unwrap();
    assert_eq!(
        read.secret.expose_secret(),
        ROTATED_SECRET,
        "old values still open"
    );
    let report = during.reseal_secrets().await.unwrap();
    assert_eq!(
        report,
        ResealReport {
            already_current: 0,
            resealed: 4,
            sealed_plain: 0
        }
    );
    let again = during.reseal_secrets().await.unwrap();
    assert_eq!(
        again,
        ResealReport {
            already_current: 4,
            resealed: 0,
            sealed_plain: 0
        }
    );
    during.close().await;
    for text in [
        raw_texts(&db.raw, "webhook_endpoints", &["secret", "previous_secret"]).await,
        raw_texts(
            &db.raw,
            "staff_users",
            &["totp_secret", "totp_pending_secret"],
        )
        .await,
    ]
    .concat()
    {
        assert!(text.starts_with(&format!("v1.{new_id}.")), "{text}");
    }
    let after = db.instance_with(Arc::new(rotated.without_previous())).await;
    let read = after.get_endpoint(&endpoint.id).await.unwrap().unwrap();
    assert_eq!(read.secret.expose_secret(), ROTATED_SECRET);
    assert_eq!(
        read.previous_secret.unwrap().expose_secret(),
        WEBHOOK_SECRET
    );
    let user = after
        .staff_by_email(&enrolled.email)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(user.totp_secret.unwrap().expose_secret(), TOTP_SECRET);
    let user = after.staff_by_email(&pending.email).await.unwrap().unwrap();
    assert_eq!(
        user.totp_pending_secret.unwrap().expose_secret(),
        PENDING_TOTP_SECRET
    );
    after.close().await;
}

async fn plain_secrets_of_an_older_version_are_sealed_on_opening(db: &TestDb) {
    let endpoint = endpoint_with_secret(db).await;
    let (enrolled, pending) = staff_with_totp(db).await;
    // What a version before sealing left: the secrets themselves.
    write_raw(
        &db.raw,
        "webhook_endpoints",
        "secret",
        &endpoint.id,
        ROTATED_SECRET,
    )
    .await;
    write_raw(
        &db.raw,
        "webhook_endpoints",
        "previous_secret",
        &endpoint.id,
        WEBHOOK_SECRET,
    )
    .await;
    write_raw(
        &db.raw,
        "staff_users",
        "totp_secret",
        &enrolled.id,
        TOTP_SECRET,
    )
    .await;
    write_raw(
        &db.raw,
        "staff_users",
        "totp_pending_secret",
        &pending.id,
        PENDING_TOTP_SECRET,
    )
    .await;
    let upgraded = db.second_instance().await;
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
    for text in &stored {
        assert!(
            text.starts_with(&format!("v1.{}.", db.keys.current_id())),
            "{text}"
        );
    }
    let read = upgraded.get_endpoint(&endpoint.id).await.unwrap().unwrap();
    assert_eq!(read.secret.expose_secret(), ROTATED_SECRET);
    assert_eq!(
        read.previous_secret.unwrap().expose_secret(),
        WEBHOOK_SECRET
    );
    let user = upgraded
        .staff_by_email(&enrolled.email)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(user.totp_secret.unwrap().expose_secret(), TOTP_SECRET);
    // Opening again changes nothing: the upgrade is done once.
    let reopened = db.second_instance().await;
    let again = [
        raw_texts(&db.raw, "webhook_endpoints", &["secret", "previous_secret"]).await,
        raw_texts(
            &db.raw,
            "staff_users",
            &["totp_secret", "totp_pending_secret"],
        )
        .await,
    ]
    .concat();
    assert_eq!(again, stored);
    upgraded.close().await;
    reopened.close().await;
}

async fn after_a_lost_key_a_new_secret_and_a_2fa_reset_recover(db: &TestDb) {
    let endpoint = endpoint_with_secret(db).await;
    let (enrolled, _) = staff_with_totp(db).await;
    let recovered = db.instance_with(Arc::new(KeyRing::generate())).await;
    assert!(recovered.get_endpoint(&endpoint.id).await.is_err());
    let rotated = recovered
        .rotate_endpoint_secret(
            &endpoint.id,
            SecretString::from(ROTATED_SECRET),
            now() + Duration::hours(24),
        )
        .await
        .expect("a rotation replaces the unreadable secret")
        .expect("the endpoint");
    assert_eq!(rotated.secret.expose_secret(), ROTATED_SECRET);
    assert!(
        rotated.previous_secret.is_none(),
        "the unreadable secret is dropped, not kept"
    );
    assert!(recovered.staff_by_email(&enrolled.email).await.is_err());
    let reset = accounts::reset_two_factor(recovered.as_ref(), &enrolled.email)
        .await
        .expect("reset-2fa reaches an account whose key does not open");
    assert!(reset.had_two_factor);
    let user = recovered
        .staff_by_email(&enrolled.email)
        .await
        .unwrap()
        .unwrap();
    assert!(
        !user.has_two_factor(),
        "the next login asks for the password only"
    );
    recovered.close().await;
}
