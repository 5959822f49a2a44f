//! `checkout-server users add` and `users disable`, run as separate processes on the server's
//! database as the README says, write what they did to the audit log (as `users reset-2fa`
//! does): who was added with which role, who was disabled. With `--config`, they read only the
//! file's `database_url` and secrets key, as their help says.

use checkout_server::store::prelude::*;

use super::support::{PASSWORD, dashboard_suite};
use crate::api::support::{Harness, SECRETS_KEY};
use crate::cli::{checkout_server, text};

dashboard_suite!(
    adding_and_disabling_staff_is_audited,
    a_config_file_for_serve_elsewhere_still_opens_the_database
);

const EMAIL: &str = "clerk@shop.example";

/// Runs `checkout-server users <args>` on `h`'s database with `stdin` as its input; its
/// standard output, after asserting it succeeded.
fn users(h: &Harness, args: &[&str], stdin: &str) -> String {
    let args = [&["users"], args].concat();
    let env = [
        ("DATABASE_URL", h.database_url.as_str()),
        ("SECRETS_KEY", SECRETS_KEY),
    ];
    let done = checkout_server(&args, &env, stdin);
    assert!(done.status.success(), "{args:?}: {}", text(&done.stderr));
    text(&done.stdout)
}

/// The audit log's line of `action`, which must be there once.
async fn line(h: &Harness, action: &str) -> NewAuditEntry {
    let log = h.store().list_audit(None, 50).await.unwrap();
    let mut lines: Vec<_> = log
        .into_iter()
        .filter(|l| l.entry.action == action)
        .collect();
    assert_eq!(lines.len(), 1, "{action}: {lines:?}");
    lines.remove(0).entry
}

async fn adding_and_disabling_staff_is_audited(h: &Harness) {
    let added = users(
        h,
        &["add", EMAIL, "--role", "operator"],
        &format!("{PASSWORD}\n"),
    );
    assert!(
        added.contains("added clerk@shop.example (operator)"),
        "{added}"
    );
    let entry = line(h, "staff_added").await;
    assert_eq!(
        (entry.staff_email.as_str(), entry.outcome.as_str()),
        (EMAIL, "ok")
    );
    assert_eq!(
        entry.detail.as_deref(),
        Some("checkout-server users add: role operator")
    );
    assert!(
        !format!("{entry:?}").contains(PASSWORD),
        "no password in the log"
    );

    users(h, &["disable", EMAIL], "");
    let entry = line(h, "staff_disabled").await;
    assert_eq!(
        (entry.staff_email.as_str(), entry.outcome.as_str()),
        (EMAIL, "ok")
    );
}

/// A production file for `serve` (real gateway, no merchant key, an out-of-range setting,
/// `demo_listen`): `users add --config` reads its `database_url` and `secrets_key` only.
async fn a_config_file_for_serve_elsewhere_still_opens_the_database(h: &Harness) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("checkout.toml");
    std::fs::write(
        &path,
        format!(
            "database_url = \"{}\"\nsecrets_key = \"{SECRETS_KEY}\"\ngateway_base_url = \"https://gateway.example\"\nsession_ttl_seconds = 1\ndemo_listen = \"off\"\n",
            h.database_url
        ),
    )
    .expect("write");
    let config = path.to_str().expect("utf-8 path");
    let args = [
        "users", "add", EMAIL, "--role", "viewer", "--config", config,
    ];
    let done = checkout_server(&args, &[], &format!("{PASSWORD}\n"));
    assert!(done.status.success(), "{}", text(&done.stderr));
    assert!(
        h.store()
            .staff_by_email(EMAIL)
            .await
            .expect("read")
            .is_some()
    );
}
