//! The key for secrets at rest from the command line: `serve` with a real gateway and no
//! `SECRETS_KEY` stops at start naming the setting; `keys generate` prints a usable key; `keys
//! rotate` re-seals under a new key (the old one kept as previous), after which the old key
//! can go and `users list` still reads every account.

use std::sync::Arc;

use checkout_server::store::Store;
use checkout_server::store::prelude::*;
use checkout_server::store::sealed::{KeyRing, SecretsKey};
use secrecy::{ExposeSecret as _, SecretString};

use crate::cli::{checkout_server, text};

/// A webhook signing secret.
const SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

#[test]
fn a_real_gateway_without_a_secrets_key_does_not_start() {
    let dir = tempfile::tempdir().expect("temp dir");
    let database = dir.path().join("live.db").display().to_string();
    let done = checkout_server(
        &["serve"],
        &[
            ("DATABASE_URL", &database),
            ("LISTEN", "127.0.0.1:0"),
            ("DASHBOARD_LISTEN", "off"),
            ("GATEWAY_BASE_URL", "https://gateway.example"),
            ("GATEWAY_API_KEY", "live-key"),
            ("GATEWAY_X_API_KEY", "live-x-key"),
            ("GATEWAY_MERCHANT_ID", "merchant-1"),
            ("MERCHANT_SECRET_KEY", "sk_live_0123456789abcdef"),
        ],
        "",
    );
    assert!(!done.status.success(), "it started without a key");
    let stderr = text(&done.stderr);
    assert!(
        stderr
            .contains("SECRETS_KEY (or SECRETS_KEY_FILE) is required when GATEWAY_BASE_URL is set"),
        "{stderr}"
    );
    assert!(
        !dir.path().join("secrets.key").exists(),
        "no sandbox key with a real gateway"
    );
}

/// A store on `database` opened with the ring of `current` (and `previous`).
async fn store_with(database: &str, current: &str, previous: &[&str]) -> Arc<dyn Store> {
    let previous = previous
        .iter()
        .map(|text| SecretsKey::parse(text).expect("a key"))
        .collect();
    let ring = KeyRing::new(SecretsKey::parse(current).expect("a key"), previous).expect("a ring");
    checkout_server::store::connect(database, Arc::new(ring))
        .await
        .expect("store opens")
}

#[tokio::test]
async fn keys_rotate_reseals_so_the_old_key_can_go() {
    let dir = tempfile::tempdir().expect("temp dir");
    let database = dir.path().join("shop.db").display().to_string();
    let generate = || {
        let done = checkout_server(&["keys", "generate"], &[], "");
        assert!(done.status.success(), "{}", text(&done.stderr));
        text(&done.stdout).trim().to_owned()
    };
    let (old, new) = (generate(), generate());
    assert_ne!(old, new);
    let before = store_with(&database, &old, &[]).await;
    let endpoint = before
        .create_endpoint(NewEndpoint {
            id: "we_rotated".into(),
            url: "https://shop.example/hooks".into(),
            description: None,
            event_types: EventTypes::All,
            secret: SecretString::from(SECRET),
        })
        .await
        .expect("endpoint");
    before.close().await;

    let during = [
        ("DATABASE_URL", database.as_str()),
        ("SECRETS_KEY", new.as_str()),
        ("SECRETS_KEY_PREVIOUS", old.as_str()),
    ];
    let rotated = checkout_server(&["keys", "rotate"], &during, "");
    assert!(rotated.status.success(), "{}", text(&rotated.stderr));
    assert_eq!(
        text(&rotated.stdout).trim(),
        "1 re-sealed under the current key, 0 sealed from plain text, 0 already current"
    );
    let again = checkout_server(&["keys", "rotate"], &during, "");
    assert_eq!(
        text(&again.stdout).trim(),
        "0 re-sealed under the current key, 0 sealed from plain text, 1 already current",
        "{}",
        text(&again.stderr)
    );

    let after = store_with(&database, &new, &[]).await;
    let read = after
        .get_endpoint(&endpoint.id)
        .await
        .unwrap()
        .expect("endpoint");
    assert_eq!(
        read.secret.expose_secret(),
        SECRET,
        "opens without the old key"
    );
    let audit = after.list_audit(None, 10).await.unwrap();
    assert_eq!(
        audit
            .iter()
            .filter(|line| line.entry.action == "secrets_rotate")
            .count(),
        2,
        "each run is audited"
    );
    after.close().await;

    let bad = checkout_server(
        &["keys", "rotate"],
        &[("DATABASE_URL", &database), ("SECRETS_KEY", "not-a-key")],
        "",
    );
    assert!(!bad.status.success());
    let stderr = text(&bad.stderr);
    assert!(stderr.contains("SECRETS_KEY (environment)"), "{stderr}");
    assert!(
        !stderr.contains("not-a-key"),
        "the value is never echoed: {stderr}"
    );
}
