//! `checkout-server users add` and `users disable`, run as separate processes on the server's
//! database as the README says, write what they did to the audit log (as `users reset-2fa`
//! does): who was added with which role, who was disabled.

use std::io::Write as _;
use std::process::{Command, Stdio};

use checkout_server::store::prelude::*;

use super::support::{PASSWORD, dashboard_suite};
use crate::api::support::Harness;

dashboard_suite!(adding_and_disabling_staff_is_audited);

const EMAIL: &str = "clerk@shop.example";

/// Runs `checkout-server users <args>` on `h`'s database with `stdin` as its input.
fn users(h: &Harness, args: &[&str], stdin: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_checkout-server"))
        .arg("users")
        .args(args)
        .env_clear()
        .env("DATABASE_URL", &h.database_url)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run checkout-server");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("password written");
    let done = child.wait_with_output().expect("finished");
    let stdout = String::from_utf8_lossy(&done.stdout).into_owned();
    assert!(
        done.status.success(),
        "{args:?}: {stdout}{}",
        String::from_utf8_lossy(&done.stderr)
    );
    stdout
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
