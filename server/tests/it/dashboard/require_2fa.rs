//! `DASHBOARD_REQUIRE_2FA=true`: an admin without two-factor sign-in is sent to the account
//! page from every other page until enrolled (an operator is not); and `checkout-server users
//! reset-2fa EMAIL`, run as a separate process on the server's database, removes an account's
//! two-factor sign-in, audited, so its next login asks for the password only.

use std::process::Command;

use checkout_server::store::prelude::*;

use super::support::{Browser, PASSWORD, dashboard_suite, hidden, location, staff};
use super::totp_support::{assert_two_factor_off, enrol};
use crate::api::support::Harness;

mod required {
    use super::*;

    dashboard_suite!(with [("DASHBOARD_REQUIRE_2FA", "true")]; an_admin_must_enrol_before_anything_else);
}

dashboard_suite!(reset_2fa_from_the_command_line);

const ADMIN: &str = "admin@shop.example";

async fn an_admin_must_enrol_before_anything_else(h: &Harness) {
    Browser::as_role(h, "ops@shop.example", StaffRole::Operator).await;
    staff(h, ADMIN, StaffRole::Admin).await;
    let mut admin = Browser::new(h);
    let login = admin.login(ADMIN, PASSWORD).await;
    assert_eq!(login.status, 303, "{}", login.text);
    for path in ["/payments", "/review", "/audit", "/payments/x"] {
        let page = admin.get(path).await;
        assert_eq!((page.status, location(&page)), (303, "/account"), "{path}");
    }
    let account = admin.get("/account").await;
    assert_eq!(account.status, 200, "{}", account.text);
    assert!(
        account.text.contains("requires two-factor"),
        "{}",
        account.text
    );
    admin.csrf = hidden(&account.text, "csrf").expect("csrf");
    enrol(&mut admin).await;
    let payments = admin.get("/payments").await;
    assert_eq!(payments.status, 200, "{}", payments.text);
    assert_eq!(admin.get("/audit").await.status, 200);
}

fn reset_2fa(h: &Harness, email: &str) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_checkout-server"))
        .args(["users", "reset-2fa", email])
        .env_clear()
        .env("DATABASE_URL", &h.database_url)
        .output()
        .expect("run checkout-server")
}

async fn reset_2fa_from_the_command_line(h: &Harness) {
    let mut admin = Browser::as_role(h, ADMIN, StaffRole::Admin).await;
    enrol(&mut admin).await;
    let done = reset_2fa(h, " Admin@Shop.example");
    let stdout = String::from_utf8_lossy(&done.stdout);
    assert!(
        done.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&done.stderr)
    );
    assert!(stdout.contains("two-factor sign-in removed"), "{stdout}");
    assert_two_factor_off(h, ADMIN).await;
    let log = h.store().list_audit(None, 50).await.unwrap();
    let reset = log
        .iter()
        .find(|l| l.entry.action == "2fa_reset")
        .expect("the reset is audited");
    assert_eq!(
        (
            reset.entry.staff_email.as_str(),
            reset.entry.outcome.as_str()
        ),
        (ADMIN, "ok")
    );
    admin.cookie = None;
    let login = admin.login(ADMIN, PASSWORD).await;
    assert_eq!((login.status, location(&login)), (303, "/payments"));

    let unknown = reset_2fa(h, "nobody@shop.example");
    assert!(!unknown.status.success());
    assert!(
        String::from_utf8_lossy(&unknown.stderr).contains("email: no account"),
        "{}",
        String::from_utf8_lossy(&unknown.stderr)
    );
}
