//! `checkout-server users add` and `users disable`, run as separate processes on the server's
//! database as the README says, write what they did to the audit log (as `users reset-2fa`
//! does): who was added with which role, who was disabled.

use checkout_server::store::prelude::*;

use super::support::{PASSWORD, dashboard_suite};
use crate::api::support::{Harness, SECRETS_KEY};
use crate::cli::{checkout_server, text};

dashboard_suite!(adding_and_disabling_staff_is_audited);

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
