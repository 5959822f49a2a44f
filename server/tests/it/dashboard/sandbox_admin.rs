//! The sandbox's generated admin login (`admin@sandbox.invalid`, its password printed in the
//! banner and so in old logs) never outlives the sandbox: a start with a real gateway on the
//! same database disables it and ends its sessions (audited), the sandbox never enables an
//! account that is disabled, and each sandbox start's new password ends the sessions the old
//! one opened.

use checkout_server::dashboard::auth::accounts::{self, DEMO_ADMIN_EMAIL, DemoAdmin};
use secrecy::{ExposeSecret as _, SecretString};

use super::support::{Browser, dashboard_suite, location};
use crate::api::support::{Harness, UNREACHABLE_GATEWAY};

dashboard_suite!(
    going_live_disables_the_sandbox_admin,
    the_sandbox_leaves_a_disabled_admin_disabled,
    a_sandbox_start_ends_the_old_passwords_sessions
);

/// A real gateway (unreachable: the dashboard does not need it).
const LIVE: &[(&str, &str)] = &UNREACHABLE_GATEWAY;

/// What a sandbox start does to the admin login, as its banner would print it.
async fn sandbox_start(h: &Harness) -> DemoAdmin {
    accounts::demo_admin(h.store().as_ref())
        .await
        .expect("the sandbox's admin login")
}

/// The password a sandbox start printed.
async fn banner_password(h: &Harness) -> SecretString {
    match sandbox_start(h).await {
        DemoAdmin::Ready(password) => password,
        DemoAdmin::Disabled => panic!("the sandbox's admin login is disabled"),
    }
}

/// A browser signed in on `h`'s dashboard as the sandbox's admin.
async fn signed_in(h: &Harness, password: &SecretString) -> Browser {
    let mut browser = Browser::new(h);
    let login = browser
        .login(DEMO_ADMIN_EMAIL, password.expose_secret())
        .await;
    assert_eq!((login.status, location(&login)), (303, "/"));
    assert_eq!(browser.get("/payments").await.status, 200);
    browser
}

/// `browser`'s session, presented to `on`'s dashboard, is refused.
async fn assert_signed_out(browser: &Browser, on: &Harness) {
    let mut elsewhere = Browser::new(on);
    elsewhere.cookie = browser.cookie.clone();
    let reply = elsewhere.get("/payments").await;
    assert_eq!((reply.status, location(&reply)), (303, "/login"));
}

async fn assert_disabled(h: &Harness) {
    let admin = h.store().staff_by_email(DEMO_ADMIN_EMAIL).await.unwrap();
    assert!(admin.expect("the account is kept").disabled_at.is_some());
}

async fn going_live_disables_the_sandbox_admin(h: &Harness) {
    let password = banner_password(h).await;
    let browser = signed_in(h, &password).await;

    let live = h.beside(LIVE).await;
    assert_signed_out(&browser, &live).await;
    let mut attacker = Browser::new(&live);
    let login = attacker
        .login(DEMO_ADMIN_EMAIL, password.expose_secret())
        .await;
    assert_eq!(login.status, 403, "{}", login.text);
    assert_disabled(&live).await;
    let log = live.store().list_audit(None, 50).await.unwrap();
    let retired = log
        .iter()
        .filter(|line| line.entry.action == "sandbox_admin_disabled")
        .count();
    assert_eq!(retired, 1, "audited once");
    live.finish().await;

    // Back to the sandbox on the same database: the account stays off.
    let sandbox = h.beside(&[]).await;
    assert!(matches!(sandbox_start(&sandbox).await, DemoAdmin::Disabled));
    assert_disabled(&sandbox).await;
    sandbox.finish().await;
}

async fn the_sandbox_leaves_a_disabled_admin_disabled(h: &Harness) {
    accounts::disable(h.store().as_ref(), DEMO_ADMIN_EMAIL)
        .await
        .expect("disabled, as `users disable` does");
    let restarted = h.beside(&[]).await;
    assert_disabled(&restarted).await;
    assert!(matches!(
        sandbox_start(&restarted).await,
        DemoAdmin::Disabled
    ));
    restarted.finish().await;
}

async fn a_sandbox_start_ends_the_old_passwords_sessions(h: &Harness) {
    let old = banner_password(h).await;
    let browser = signed_in(h, &old).await;
    let restarted = h.beside(&[]).await;
    assert_signed_out(&browser, &restarted).await;
    let mut again = Browser::new(&restarted);
    let login = again.login(DEMO_ADMIN_EMAIL, old.expose_secret()).await;
    assert_eq!(login.status, 403, "the old password: {}", login.text);
    restarted.finish().await;
}
