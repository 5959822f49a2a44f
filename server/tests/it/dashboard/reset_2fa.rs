//! `checkout-server users reset-2fa EMAIL`, run as a separate process on the server's
//! database, for a staff member who lost their authenticator: it removes the account's
//! two-factor sign-in, ends every session and half-finished login (password given, code not
//! yet) it has, clears its lock-out, and writes all that to the audit log, so the old cookies
//! are refused and the next login asks for the password only.

use checkout_server::store::prelude::*;

use super::support::{Browser, PASSWORD, dashboard_suite, location};
use super::totp_support::{
    assert_two_factor_off, code_at, code_step, enrol, password_step, unix_now,
};
use crate::api::support::{Harness, SECRETS_KEY};
use crate::cli::checkout_server;

dashboard_suite!(
    reset_2fa_from_the_command_line,
    a_reset_ends_sessions_and_challenges_and_clears_the_lock_out
);

const ADMIN: &str = "admin@shop.example";

fn reset_2fa(h: &Harness, email: &str) -> std::process::Output {
    let env = [
        ("DATABASE_URL", h.database_url.as_str()),
        ("SECRETS_KEY", SECRETS_KEY),
    ];
    checkout_server(&["users", "reset-2fa", email], &env, "")
}

/// The command's standard output, after asserting it succeeded.
fn succeeded(done: &std::process::Output) -> String {
    let stdout = String::from_utf8_lossy(&done.stdout).into_owned();
    assert!(
        done.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&done.stderr)
    );
    stdout
}

/// The audit log's `2fa_reset` line.
async fn reset_line(h: &Harness) -> NewAuditEntry {
    let log = h.store().list_audit(None, 50).await.unwrap();
    log.into_iter()
        .find(|l| l.entry.action == "2fa_reset")
        .expect("the reset is audited")
        .entry
}

async fn reset_2fa_from_the_command_line(h: &Harness) {
    let mut admin = Browser::as_role(h, ADMIN, StaffRole::Admin).await;
    enrol(&mut admin).await;
    let stdout = succeeded(&reset_2fa(h, " Admin@Shop.example"));
    assert!(stdout.contains("two-factor sign-in removed"), "{stdout}");
    assert_two_factor_off(h, ADMIN).await;
    let reset = reset_line(h).await;
    assert_eq!(
        (reset.staff_email.as_str(), reset.outcome.as_str()),
        (ADMIN, "ok")
    );
    admin.cookie = None;
    let login = admin.login(ADMIN, PASSWORD).await;
    assert_eq!((login.status, location(&login)), (303, "/"));

    let unknown = reset_2fa(h, "nobody@shop.example");
    assert!(!unknown.status.success());
    assert!(
        String::from_utf8_lossy(&unknown.stderr).contains("email: no account"),
        "{}",
        String::from_utf8_lossy(&unknown.stderr)
    );
}

async fn a_reset_ends_sessions_and_challenges_and_clears_the_lock_out(h: &Harness) {
    // A browser left signed in, one half-way through a login, then someone guessing.
    let mut signed_in = Browser::as_role(h, ADMIN, StaffRole::Admin).await;
    let (key, _) = enrol(&mut signed_in).await;
    let mut half_way = Browser::new(h);
    password_step(&mut half_way, ADMIN).await;
    let mut guesser = Browser::new(h);
    for attempt in 0..5 {
        let reply = guesser.login(ADMIN, "wrong password!!").await;
        assert_eq!(reply.status, 403, "attempt {attempt}: {}", reply.text);
    }
    let locked = h.store().staff_by_email(ADMIN).await.unwrap().unwrap();
    assert!(locked.locked_at(time::OffsetDateTime::now_utc()));
    assert_eq!(
        signed_in.get("/payments").await.status,
        200,
        "still signed in"
    );

    let stdout = succeeded(&reset_2fa(h, ADMIN));
    let old = signed_in.get("/payments").await;
    assert_eq!(
        (old.status, location(&old)),
        (303, "/login"),
        "the old session cookie is refused"
    );
    let code = code_step(&mut half_way, &code_at(&key, unix_now())).await;
    assert_eq!(
        (code.status, location(&code)),
        (303, "/login"),
        "the pending challenge is over: {}",
        code.text
    );
    assert!(
        half_way
            .cookie
            .as_deref()
            .is_some_and(|c| c.starts_with("dashboard_login=")),
        "no session from the old challenge: {:?}",
        half_way.cookie
    );
    let user = h.store().staff_by_email(ADMIN).await.unwrap().unwrap();
    assert_eq!((user.failed_logins, user.locked_until), (0, None));
    assert!(
        stdout.contains("1 session and 1 login challenge ended, lock-out cleared"),
        "{stdout}"
    );
    let reset = reset_line(h).await;
    assert_eq!(
        (reset.outcome.as_str(), reset.detail.as_deref()),
        (
            "ok",
            Some(
                "checkout-server users reset-2fa: 1 session and 1 login challenge ended, \
                 lock-out cleared"
            )
        )
    );
    let mut fresh = Browser::new(h);
    let login = fresh.login(ADMIN, PASSWORD).await;
    assert_eq!(
        (login.status, location(&login)),
        (303, "/"),
        "the lock is gone and only the password is asked: {}",
        login.text
    );
}
